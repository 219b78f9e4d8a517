/**
 * Whole-unit amounts in every family whose token is known from the form, through n8n-core against
 * the devnet: what reaches the API is the exact smallest-unit integer, and bad input is refused
 * before any request. Endpoints the devnet does not serve answer "not applicable" after the call
 * was heard, so the parameters the API received are still there to check.
 */
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

function expand(parameters: INodeParameters, items: object[] = [{}]) {
	return runExpand(parameters, {
		items,
		continueOnFail: true,
		typeVersion: 2,
		credentials: devnetExpandApi(devnet),
	});
}

/** The parameters of the calls to `path` the devnet heard since `from` (an index into its record). */
function heard(path: string, from: number): Array<Record<string, unknown>> {
	return devnet.faults.received
		.slice(from)
		.filter((call) => call.path === path)
		.map((call) => call.params ?? {});
}

const wallet = (index: number) => chainA.wallets[index].address;

/** One amount-bearing write per family: the form's parameters with the amount left out. */
const families: Array<{
	family: string;
	path: string;
	amount: string;
	parameters: () => INodeParameters;
}> = [
	{
		family: "dex (aggregator swap, counted in the path's first token)",
		path: '/dex/swapaggregator',
		amount: 'amountIn',
		parameters: () => ({
			resource: 'dex',
			operation: 'swapaggregator',
			chainId: '31337',
			from: wallet(1),
			path: `${chainA.tokens.USDC.address},${chainA.weth}`,
			to: wallet(2),
			gas: '300000',
		}),
	},
	{
		family: 'yieldaggregator (deposit vault, counted in Token Address)',
		path: '/yieldaggregator/depositvault',
		amount: 'amount',
		parameters: () => ({
			resource: 'yieldaggregator',
			operation: 'depositvault',
			chainId: '31337',
			from: wallet(1),
			tokenAddress: chainA.tokens.USDC.address,
			gas: '300000',
		}),
	},
	{
		family: 'fungibletoken (transfer from, counted in Token Address)',
		path: '/fungibletoken/transferfrom',
		amount: 'amount',
		parameters: () => ({
			resource: 'fungibletoken',
			operation: 'transferfrom',
			chainId: '31337',
			from: wallet(1),
			to: wallet(2),
			reciever: wallet(3),
			tokenAddress: chainA.tokens.USDC.address,
			gas: '100000',
		}),
	},
];

describe.each(families)('$family', ({ path, amount, parameters }) => {
	test('"12.5" of USDC (6 decimals) reaches the API as 12500000', async () => {
		const from = devnet.faults.received.length;
		const result = await expand({ ...parameters(), [amount]: '12.5' });
		expect(result.error).toBeUndefined();
		const calls = heard(path, from);
		expect(calls).toHaveLength(1);
		expect(calls[0][amount]).toBe('12500000');
	});

	test('a negative amount, a word or more decimals than USDC has is refused, naming the parameter and the item; nothing is sent for it', async () => {
		const from = devnet.faults.received.length;
		const result = await expand({ ...parameters(), [amount]: '={{ $json.amount }}' }, [
			{ amount: '-1' },
			{ amount: 'ten' },
			{ amount: '12.1234567' },
			{ amount: '0.000001' },
		]);
		const [negative, word, tooPrecise, smallest] = result.output('Expand').map((item) => item.json);
		expect(negative.error).toMatch(
			new RegExp(`"${amount}" must be a number of whole units.*"-1".*\\(item 0\\)`),
		);
		expect(word.error).toMatch(
			new RegExp(`"${amount}" must be a number of whole units.*"ten".*\\(item 1\\)`),
		);
		expect(tooPrecise.error).toMatch(
			new RegExp(`"${amount}" is "12\\.1234567", more decimals than the 6 of USDC \\(item 2\\)`),
		);
		// Only the last item reached the API: one USDC base unit.
		expect(heard(path, from).map((call) => call[amount])).toEqual(['1']);
		expect(smallest.error).toBeDefined(); // the devnet does not serve this endpoint: its answer, not ours
	});
});

test("liquidstaking: Stake counts in the native asset of the protocol's chain (Lido on Ethereum: 18 decimals), no lookup", async () => {
	const from = devnet.faults.received.length;
	const result = await expand({
		resource: 'liquidstaking',
		operation: 'stake',
		liquidStakingId: '1',
		from: wallet(1),
		gas: '200000',
		amount: '12.5',
	});
	expect(result.error).toBeUndefined();
	expect(heard('/liquidstaking/stake', from).map((call) => call.amount)).toEqual([
		'12500000000000000000',
	]);
	expect(heard('/fungibletoken/gettokendetails', from)).toHaveLength(0);
});

test("chain: Estimate Gas takes its value in the chain's native asset and the devnet estimates it", async () => {
	const from = devnet.faults.received.length;
	const result = await expand({
		resource: 'chain',
		operation: 'estimategas',
		chainId: '31337',
		from: wallet(1),
		to: wallet(2),
		data: '0x',
		additionalFields: { value: '1.5' },
	});
	expect(result.error).toBeUndefined();
	expect(heard('/chain/estimategas', from).map((call) => call.value)).toEqual([
		'1500000000000000000',
	]);
	expect(Number(result.output('Expand')[0].json.estimatedGas)).toBeGreaterThan(21000);
});

test('Smallest Units sends the integer as typed, in a family with whole-unit amounts', async () => {
	const from = devnet.faults.received.length;
	await expand({ ...families[1].parameters(), amount: '12500000', amountsIn: 'smallest' });
	expect(heard('/yieldaggregator/depositvault', from).map((call) => call.amount)).toEqual([
		'12500000',
	]);
});
