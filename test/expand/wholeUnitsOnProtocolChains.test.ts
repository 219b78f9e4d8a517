/**
 * Whole-unit amounts of the resources whose protocol ID sets the chain (lendborrow, dex):
 * the decimals are looked up on the protocol's chain, which the devnet does not have (its chains
 * are 31337 and 31338), so a recording API on 127.0.0.1 answers the lookups as the API does.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runExpand } from '../helpers/n8n';
import { envelope, type RecordedRequest, useRecordingServer } from '../helpers/recordingServer';

const USDC = '0x' + '11'.repeat(20);
const DAI = '0x' + '22'.repeat(20);
const FROM = '0x' + '33'.repeat(20);
const decimalsOf: Record<string, { decimals: number; symbol: string }> = {
	[USDC]: { decimals: 6, symbol: 'USDC' },
	[DAI]: { decimals: 18, symbol: 'DAI' },
};

const server = useRecordingServer();

beforeEach(() => {
	server.current.respondWith((request) =>
		request.path === '/fungibletoken/gettokendetails'
			? envelope([
					{ address: request.query.tokenAddress, ...decimalsOf[request.query.tokenAddress] },
				])
			: envelope({ chainId: '1', from: FROM, to: USDC, value: '0', gas: '1', data: '0x' }),
	);
});

function expand(parameters: INodeParameters, items: object[] = [{}]) {
	return runExpand(parameters, {
		items,
		continueOnFail: true,
		typeVersion: 2,
		credentials: {
			apiKey: 'k',
			baseUrl: server.current.baseUrl,
			historicalUrl: server.current.historicalUrl,
		},
	});
}

const sent = (path: string): RecordedRequest[] =>
	server.current.requests.filter((request) => request.path === path);
const lookups = () => sent('/fungibletoken/gettokendetails');

test('lendborrow Deposit: "12.5" of the USDC asset is sent as 12500000, its decimals looked up on Aave V2\'s chain (Ethereum)', async () => {
	const result = await expand({
		resource: 'lendborrow',
		operation: 'deposit',
		lendborrowId: '1000',
		asset: USDC,
		amount: '12.5',
		from: FROM,
		gas: '300000',
	});
	expect(result.error).toBeUndefined();
	expect(lookups().map((request) => request.query)).toEqual([{ chainId: '1', tokenAddress: USDC }]);
	expect((sent('/lendborrow/deposit')[0].body as Record<string, unknown>).amount).toBe('12500000');
});

test('lendborrow Liquidate: Debt To Cover counts in the debt asset, not the collateral', async () => {
	await expand({
		resource: 'lendborrow',
		operation: 'liquidate',
		lendborrowId: '1000',
		collateralAsset: DAI,
		debtAsset: USDC,
		user: FROM,
		debtToCover: '2.5',
		from: FROM,
		gas: '300000',
	});
	expect((sent('/lendborrow/liquidate')[0].body as Record<string, unknown>).debtToCover).toBe(
		'2500000',
	);
});

test("dex Swap: Amount In counts in the path's first token, Amount Out Min in its last", async () => {
	const result = await expand({
		resource: 'dex',
		operation: 'swap',
		dexId: '1000',
		from: FROM,
		path: `${USDC},${DAI}`,
		amountIn: '12.5',
		additionalFields: { amountOutMin: '12.4' },
		gas: '300000',
	});
	expect(result.error).toBeUndefined();
	expect(sent('/dex/swap')[0].body).toMatchObject({
		amountIn: '12500000',
		amountOutMin: '12400000000000000000',
		path: [USDC, DAI],
	});
});

test('dex Add Liquidity: each amount counts in its own token (in Additional Fields: only some DEXs take them)', async () => {
	await expand({
		resource: 'dex',
		operation: 'addliquidity',
		dexId: '1000',
		from: FROM,
		additionalFields: {
			tokenA: USDC,
			tokenB: DAI,
			amountADesired: '100',
			amountBDesired: '99.5',
			amountAMin: '99',
			amountBMin: '98',
		},
	});
	expect(sent('/dex/addliquidity')[0].body).toMatchObject({
		amountADesired: '100000000',
		amountBDesired: '99500000000000000000',
		amountAMin: '99000000',
		amountBMin: '98000000000000000000',
	});
});

test('an amount whose token is empty or whose protocol has no known chain is refused before the write, naming the parameter and the item', async () => {
	const result = await expand(
		{
			resource: 'lendborrow',
			operation: 'borrow',
			lendborrowId: '1000',
			amount: '1',
			from: FROM,
			gas: '300000',
		},
		[{}],
	);
	expect(result.output('Expand')[0].json.error).toMatch(
		/"amount" is in whole units of a token, but "asset" is empty.*\(item 0\)/,
	);

	// Stader's liquidStakingId names no chain, so the native asset's decimals are unknown.
	const stader = await expand({
		resource: 'liquidstaking',
		operation: 'stake',
		liquidStakingId: '2',
		amount: '1',
		from: FROM,
		gas: '1',
	});
	expect(stader.output('Expand')[0].json.error).toMatch(
		/The chain of .* "2" is not known, so the decimals of "amount" cannot be looked up.*\(item 0\)/,
	);
	expect(sent('/lendborrow/borrow')).toHaveLength(0);
	expect(sent('/liquidstaking/stake')).toHaveLength(0);
});

test('amounts whose token no parameter names stay in the smallest unit: a decimal is refused', async () => {
	const result = await expand({
		resource: 'liquidstaking',
		operation: 'burn',
		liquidStakingId: '1',
		amount: '1.5',
		from: FROM,
		gas: '1',
	});
	expect(result.output('Expand')[0].json.error).toMatch(
		/"amount" must be a whole number greater than 0; got "1\.5" \(item 0\)/,
	);
	expect(sent('/liquidstaking/burn')).toHaveLength(0);
});
