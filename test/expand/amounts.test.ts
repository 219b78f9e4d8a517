/** Add Formatted Amounts through the engine: exact decimals next to untouched raw amounts. */
import { runExpand } from '../helpers/n8n';
import { envelope, useRecordingServer } from '../helpers/recordingServer';

const UNLIMITED = (2n ** 256n - 1n).toString();
const USDC = '0x' + '11'.repeat(20);
const ZERO_DECIMALS = '0x' + '22'.repeat(20);
const WETH = '0x' + '33'.repeat(20);
const tokenDetails: Record<string, { decimals: number; symbol: string }> = {
	[USDC]: { decimals: 6, symbol: 'USDC' },
	[ZERO_DECIMALS]: { decimals: 0, symbol: 'PTS' },
	[WETH]: { decimals: 18, symbol: 'WETH' },
};

const serverHolder = useRecordingServer();

/** Balances by the (address, tokenAddress) of the request; token details as the ERC20 docs show them. */
function answer(balances: Record<string, string>) {
	serverHolder.current.respondWith((request) => {
		if (request.path === '/fungibletoken/gettokendetails') {
			const token = request.query.tokenAddress;
			return envelope([{ address: token, name: token, ...tokenDetails[token] }]);
		}
		return envelope({
			balance: balances[`${request.query.address}:${request.query.tokenAddress ?? ''}`],
		});
	});
}

const credentials = () => ({
	apiKey: 'k',
	baseUrl: serverHolder.current.baseUrl,
	historicalUrl: serverHolder.current.historicalUrl,
});

function balancesOf(items: Array<{ address: string; token?: string }>, chainId = '1') {
	return runExpand(
		{
			resource: 'chain',
			operation: 'getbalance',
			chainId,
			address: '={{ $json.address }}',
			additionalFields: { tokenAddress: '={{ $json.token ?? "" }}' },
			formatAmounts: true,
		},
		{ items, credentials: credentials() },
	);
}

test('native and token balances with 18, 6 and 0 decimals, above 2^64, and zero', async () => {
	answer({
		'a:': '1234567890123456789',
		'b:0x1111111111111111111111111111111111111111': '18446744073709551617',
		'c:0x2222222222222222222222222222222222222222': '42',
		'd:0x3333333333333333333333333333333333333333': '0',
	});
	const result = await balancesOf([
		{ address: 'a' },
		{ address: 'b', token: USDC },
		{ address: 'c', token: ZERO_DECIMALS },
		{ address: 'd', token: WETH },
	]);
	expect(result.error).toBeUndefined();
	expect(result.output('Expand').map((item) => item.json)).toEqual([
		{
			balance: '1234567890123456789',
			balanceFormatted: '1.234567890123456789',
			decimals: 18,
			symbol: 'ETH',
		},
		{
			balance: '18446744073709551617',
			balanceFormatted: '18446744073709.551617',
			decimals: 6,
			symbol: 'USDC',
		},
		{ balance: '42', balanceFormatted: '42', decimals: 0, symbol: 'PTS' },
		{ balance: '0', balanceFormatted: '0', decimals: 18, symbol: 'WETH' },
	]);
});

test('token details are fetched once per token per execution', async () => {
	answer({
		'a:0x1111111111111111111111111111111111111111': '1',
		'b:0x1111111111111111111111111111111111111111': '2',
	});
	const result = await balancesOf([
		{ address: 'a', token: USDC },
		{ address: 'b', token: USDC },
		{ address: 'a', token: USDC },
	]);
	expect(result.output('Expand').map((item) => item.json.balanceFormatted)).toEqual([
		'0.000001',
		'0.000002',
		'0.000001',
	]);
	const lookups = serverHolder.current.requests.filter(
		(request) => request.path === '/fungibletoken/gettokendetails',
	);
	expect(lookups).toHaveLength(1);
	expect(lookups[0].query).toEqual({ chainId: '1', tokenAddress: USDC });
});

test('native decimals follow the chain (Tron has 6)', async () => {
	answer({ 'T1:': '2500000' });
	const result = await balancesOf([{ address: 'T1' }], '1000');
	expect(result.output('Expand')[0].json).toMatchObject({
		balanceFormatted: '2.5',
		decimals: 6,
		symbol: 'TRX',
	});
});

test('an unlimited approval keeps every digit', async () => {
	serverHolder.current.respondWith((request) =>
		request.path === '/fungibletoken/gettokendetails'
			? envelope([{ address: USDC, ...tokenDetails[USDC] }])
			: envelope({
					nextPageToken: '',
					approvals: [{ tokenAddress: USDC, spender: '0xs', allowance: UNLIMITED }],
				}),
	);
	const result = await runExpand(
		{ resource: 'chain', operation: 'getapprovaldata', address: '0xowner', formatAmounts: true },
		{ credentials: credentials() },
	);
	expect(result.output('Expand')[0].json).toEqual({
		tokenAddress: USDC,
		spender: '0xs',
		allowance: UNLIMITED,
		allowanceFormatted:
			'115792089237316195423570985008687907853269984665640564039457584007913129.639935',
		decimals: 6,
		symbol: 'USDC',
	});
});

test('an unknown chain for a native amount is a clear error', async () => {
	answer({ 'x:': '1' });
	const result = await balancesOf([{ address: 'x' }], '999999');
	expect(result.error?.message).toBe(
		'The decimals of the native asset of chain "999999" are not known; turn off "Add Formatted Amounts" and use Amounts In: Smallest Units for it (item 0)',
	);
});

test('decimals above 255 from the API are refused, not used (300,000 stalled the whole n8n process for half a minute)', async () => {
	const HUGE = '0x' + '44'.repeat(20);
	serverHolder.current.respondWith((request) =>
		request.path === '/fungibletoken/gettokendetails'
			? envelope([{ address: HUGE, name: 'Huge', symbol: 'HUGE', decimals: 300_000 }])
			: envelope({ balance: '1' }),
	);
	const started = Date.now();
	const result = await balancesOf([{ address: 'x', token: HUGE }]);
	expect(result.error?.message).toBe(
		`The API returned decimals 300000 for token ${HUGE}; a token has 0 to 255 decimals (item 0)`,
	);
	expect(Date.now() - started).toBeLessThan(5000);
});
