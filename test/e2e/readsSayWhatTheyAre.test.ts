/** Version 2 reads echo what identifies their result, through n8n-core against the devnet. */
import { type Devnet, startDevnet } from '../../devnet';
import { runExpand } from '../helpers/n8n';

let devnet: Devnet;

beforeAll(async () => {
	devnet = await startDevnet();
});
afterAll(async () => {
	await devnet.stop();
});

const credentials = () => ({ apiKey: devnet.apiKey, baseUrl: devnet.baseUrl, historicalUrl: devnet.historicalUrl });

const common = { resource: 'chain', operation: 'getbalance', chainId: '={{ $json.chainId }}', address: '={{ $json.wallet }}', formatAmounts: true };
/** Version 2 shows the token at the top of the form (it is what is asked); version 1 keeps it in Additional Fields. */
const balances = { ...common, tokenAddress: '={{ $json.token }}' };
const balancesV1 = { ...common, additionalFields: { tokenAddress: '={{ $json.token }}' } };

test('Get Balance over several wallets, tokens and chains: each item names its chain, address and token beside raw and formatted amounts', async () => {
	const [chainA] = devnet.chains;
	const usdc = chainA.tokens.USDC.address;
	const rows = [];
	for (const chainId of ['31337', '31338']) {
		for (const wallet of chainA.wallets.slice(1, 3)) {
			rows.push({ chainId, wallet: wallet.address, token: usdc }, { chainId, wallet: wallet.address, token: '' });
		}
	}
	const result = await runExpand(balances, { items: rows, typeVersion: 2, credentials: credentials() });
	expect(result.error).toBeUndefined();
	const output = result.output('Expand').map((item) => item.json);
	expect(output).toHaveLength(rows.length);
	for (const [index, row] of rows.entries()) {
		expect(output[index].query).toEqual({ chainId: row.chainId, address: row.wallet, tokenAddress: row.token || null });
		expect(output[index]).toMatchObject({ symbol: row.token ? 'USDC' : 'ETH', decimals: row.token ? 6 : 18 });
		expect(output[index].balanceFormatted).toEqual(expect.any(String));
		expect(typeof output[index].balance).toBe('string');
	}
});

test('version 1 outputs are as they were: no query field; the token still read from Additional Fields', async () => {
	const [chainA] = devnet.chains;
	const result = await runExpand(balancesV1, {
		items: [{ chainId: '31337', wallet: chainA.wallets[1].address, token: chainA.tokens.USDC.address }],
		typeVersion: 1,
		credentials: credentials(),
	});
	expect(result.output('Expand')[0].json).not.toHaveProperty('query');
	expect(result.output('Expand')[0].json).toMatchObject({ symbol: 'USDC', balanceFormatted: '9750' });
});
