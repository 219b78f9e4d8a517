/** Version 2 reads echo what identifies their result, through n8n-core against the devnet. */
import type { Devnet } from '../../devnet';
import { runExpand } from '../helpers/n8n';
import { devnetExpandApi } from '../helpers/devnetCredentials';
import { useDevnet } from '../helpers/useDevnet';

let devnet: Devnet;

useDevnet((started) => (devnet = started));

const credentials = () => devnetExpandApi(devnet);

const common = {
	resource: 'chain',
	operation: 'getbalance',
	chainId: '={{ $json.chainId }}',
	address: '={{ $json.wallet }}',
};
/**
 * Version 2 shows the token at the top of the form (it is what is asked) and adds formatted amounts
 * by default; version 1 keeps the token in Additional Fields and formats only when asked.
 */
const balances = { ...common, tokenAddress: '={{ $json.token }}' };
const balancesV1 = { ...common, additionalFields: { tokenAddress: '={{ $json.token }}' } };

test('Get Balance over several wallets, tokens and chains: each item names its chain, address and token beside raw and formatted amounts', async () => {
	const [chainA] = devnet.chains;
	const usdc = chainA.tokens.USDC.address;
	const rows = [];
	for (const chainId of ['31337', '31338']) {
		for (const wallet of chainA.wallets.slice(1, 3)) {
			rows.push(
				{ chainId, wallet: wallet.address, token: usdc },
				{ chainId, wallet: wallet.address, token: '' },
			);
		}
	}
	const result = await runExpand(balances, {
		items: rows,
		typeVersion: 2,
		credentials: credentials(),
	});
	expect(result.error).toBeUndefined();
	const output = result.output('Expand').map((item) => item.json);
	expect(output).toHaveLength(rows.length);
	for (const [index, row] of rows.entries()) {
		expect(output[index].query).toEqual({
			chainId: row.chainId,
			address: row.wallet,
			tokenAddress: row.token || null,
		});
		expect(output[index]).toMatchObject({
			symbol: row.token ? 'USDC' : 'ETH',
			decimals: row.token ? 6 : 18,
		});
		const balance = String(output[index].balance);
		expect(balance).toMatch(/^\d+$/);
		// The formatted amount is the raw one with the decimal point moved, exactly.
		const decimals = row.token ? 6 : 18;
		const [whole, fraction = ''] = String(output[index].balanceFormatted).split('.');
		expect(BigInt(whole + fraction.padEnd(decimals, '0'))).toBe(BigInt(balance));
	}
});

test('version 1 outputs are as they were: no query field; the token still read from Additional Fields', async () => {
	const [chainA] = devnet.chains;
	const result = await runExpand(balancesV1, {
		items: [
			{ chainId: '31337', wallet: chainA.wallets[1].address, token: chainA.tokens.USDC.address },
		],
		typeVersion: 1,
		credentials: credentials(),
	});
	const [{ json }] = result.output('Expand');
	expect(json).not.toHaveProperty('query');
	expect(json).not.toHaveProperty('balanceFormatted');
	expect(json.balance).toBe('9750000000');

	const formatted = await runExpand(
		{ ...balancesV1, formatAmounts: true },
		{
			items: [
				{ chainId: '31337', wallet: chainA.wallets[1].address, token: chainA.tokens.USDC.address },
			],
			typeVersion: 1,
			credentials: credentials(),
		},
	);
	expect(formatted.output('Expand')[0].json).toMatchObject({
		symbol: 'USDC',
		balanceFormatted: '9750',
		balance: '9750000000',
	});
});

test('a balance at a block and a DEX quote echo every input that shaped them: the block, the DEX, the path and the amount quoted', async () => {
	const [chainA] = devnet.chains;
	const usdc = chainA.tokens.USDC.address;
	const wallet = chainA.wallets[1].address;
	const block = String(chainA.deployedAt);
	const atBlock = await runExpand(
		{
			...common,
			chainId: '31337',
			address: wallet,
			tokenAddress: usdc,
			additionalFields: { blockNumber: block },
		},
		{ items: [{}], typeVersion: 2, credentials: credentials() },
	);
	expect(atBlock.error).toBeUndefined();
	expect(atBlock.output('Expand')[0].json.query).toEqual({
		chainId: '31337',
		address: wallet,
		tokenAddress: usdc,
		blockNumber: block,
	});

	const path = `${chainA.weth},${usdc}`;
	const quote = await runExpand(
		{
			resource: 'dex',
			operation: 'getprice',
			dexId: devnet.dexId,
			path,
			amountIn: '1000000000000000000',
			amountsIn: 'smallest',
		},
		{ items: [{}], typeVersion: 2, credentials: credentials() },
	);
	expect(quote.error).toBeUndefined();
	expect(quote.output('Expand')[0].json.query).toEqual({
		dexId: devnet.dexId,
		path: [chainA.weth, usdc],
		amountIn: '1000000000000000000',
	});
});

test('every read of version 2 echoes chain and protocol, and its who and what as null when left empty', async () => {
	const [chainA] = devnet.chains;
	const result = await runExpand(
		{
			resource: 'fungibletoken',
			operation: 'gettokendetails',
			chainId: '31338',
			tokenAddress: chainA.tokens.DAI.address,
		},
		{ items: [{}], typeVersion: 2, credentials: credentials() },
	);
	expect(result.error).toBeUndefined();
	const [{ json }] = result.output('Expand');
	expect(json).toMatchObject({
		symbol: 'DAI',
		decimals: 18,
		query: { chainId: '31338', tokenAddress: [chainA.tokens.DAI.address] },
	});
});
