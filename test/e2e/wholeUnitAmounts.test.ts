/** Amounts typed in whole units (node version 2) or in the smallest unit, through n8n-core against the devnet. */
import type { INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../devnet';
import { runExpand } from '../helpers/n8n';
import { devnetExpandApi } from '../helpers/devnetCredentials';
import { useDevnet } from '../helpers/useDevnet';

let devnet: Devnet;
let chainA: Devnet['chains'][number];

useDevnet((started) => {
	devnet = started;
	[chainA] = started.chains;
});

function expand(
	parameters: INodeParameters,
	typeVersion: number,
	items: object[] = [{}],
	continueOnFail = false,
) {
	return runExpand(parameters, {
		items,
		continueOnFail,
		typeVersion,
		credentials: devnetExpandApi(devnet),
	});
}

function calls(endpoint: string): number {
	return devnet.usage().filter((item) => item['api-endpoint'] === endpoint).length;
}

/** The amount an ERC-20 transfer(to, amount) or approve(spender, amount) call carries: its last 32 bytes. */
function amountOf(data: unknown): bigint {
	return BigInt(`0x${String(data).slice(-64)}`);
}

const transfer = (amount: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'fungibletoken',
	operation: 'transfer',
	chainId: '31337',
	from: chainA.wallets[1].address,
	to: chainA.wallets[2].address,
	tokenAddress: chainA.tokens.USDC.address,
	amount,
	gas: '100000',
	...extra,
});

test('version 2: "12.5" USDC is sent as exactly 12500000 base units; Smallest Units passes the integer through', async () => {
	const whole = await expand(transfer('12.5'), 2);
	expect(whole.error).toBeUndefined();
	const built = whole.output('Expand')[0].json;
	expect(built.to).toBe(chainA.tokens.USDC.address);
	expect(amountOf(built.data)).toBe(12500000n);

	const raw = await expand(transfer('12500000', { amountsIn: 'smallest' }), 2);
	expect(amountOf(raw.output('Expand')[0].json.data)).toBe(12500000n);
});

test('version 2: whole units of an 18-decimal token and of the native asset convert exactly', async () => {
	const approve = await expand(
		{
			...transfer('0.000000000000000001'),
			operation: 'approve',
			tokenAddress: chainA.tokens.DAI.address,
		},
		2,
	);
	expect(approve.error).toBeUndefined();
	expect(amountOf(approve.output('Expand')[0].json.data)).toBe(1n);

	// Create Fee Transaction's value is native: 2 ETH, a 5 basis point fee of 0.001 ETH.
	const fee = await expand(
		{
			resource: 'chain',
			operation: 'createfeetransaction',
			chainId: '31337',
			from: chainA.wallets[1].address,
			gas: '21000',
			value: '2',
			referenceId: 'r-1',
		},
		2,
	);
	expect(fee.error).toBeUndefined();
	expect(fee.output('Expand')[0].json.value).toBe('1000000000000000');
});

test('a malformed amount is refused before any request, naming the parameter and the item', async () => {
	const before = devnet.usage().length;
	const result = await expand(
		transfer('={{ $json.amount }}'),
		2,
		[{ amount: '1' }, { amount: '1.2.3' }],
		true,
	);
	const [first, second] = result.output('Expand').map((item) => item.json);
	expect(amountOf(first.data)).toBe(1000000n);
	expect(second.error).toMatch(/"amount" must be a number of whole units.*"1\.2\.3".*\(item 1\)/);
	// The first item's token lookup and transfer only.
	expect(devnet.usage().length - before).toBe(2);
});

test('more decimals than the token has is refused, never rounded, and nothing is built for that item', async () => {
	const transfersBefore = calls('/fungibletoken/transfer');
	const result = await expand(transfer('12.1234567'), 2);
	expect(result.error?.message).toMatch(
		/"amount" is "12\.1234567", more decimals than the 6 of USDC \(item 0\)/,
	);
	expect(calls('/fungibletoken/transfer')).toBe(transfersBefore);
});

test('version 1 workflows keep their smallest-unit amounts: sent as typed, and a decimal is refused', async () => {
	const lookupsBefore = calls('/fungibletoken/gettokendetails');
	const saved = await expand(transfer('12500000'), 1);
	expect(saved.error).toBeUndefined();
	expect(amountOf(saved.output('Expand')[0].json.data)).toBe(12500000n);
	expect(calls('/fungibletoken/gettokendetails')).toBe(lookupsBefore);

	const decimal = await expand(transfer('12.5'), 1);
	expect(decimal.error?.message).toMatch(/"amount" must be a whole number; got "12\.5" \(item 0\)/);
});

test('a token amount in whole units whose token parameter is empty (a Solana transfer names its mint in "token") is refused, never counted in native units', async () => {
	const transfersBefore = calls('/fungibletoken/transfer');
	const solana = devnet.solana;
	const result = await expand(
		{
			resource: 'fungibletoken',
			operation: 'transfer',
			chainId: '901',
			amount: '12.5',
			token: solana.usdc.address,
			sender: solana.wallets[1].address,
			destination: solana.wallets[2].address,
			feePayer: solana.wallets[1].address,
			decimals: '6',
		},
		2,
	);
	expect(result.error?.message).toMatch(
		/"amount" is in whole units of a token, but "tokenAddress" is empty, so its decimals are unknown.*\(item 0\)/,
	);
	expect(calls('/fungibletoken/transfer')).toBe(transfersBefore);
});
