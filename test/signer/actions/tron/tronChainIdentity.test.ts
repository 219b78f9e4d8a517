/**
 * Expand Signer with Chain Family Tron, through n8n's engine: the full node it reads must show, by its
 * genesis block (wallet/getblockbynum 0), that it serves the chain the item signs for. A node on
 * 127.0.0.1 that answers Tron mainnet's genesis for chain 1001 (Nile), pinned in RPC URLs or named by
 * a lying API's chain/getpublicrpc, is refused before anything else is asked of it, and nothing is
 * signed; the devnet's Nile node passes, checked once per execution.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Devnet, DevnetTron } from '../../../../devnet';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { type Lie, startLyingFront } from '../../../helpers/lyingFront';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { useDevnet } from '../../../helpers/useDevnet';

const CHAIN = '1001';
/** Tron mainnet's genesis block ID: its last 4 bytes, 2b6653dc, are mainnet's chain ID. */
const MAINNET_GENESIS_ID = '00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc';

let devnet: Devnet;
let nile: DevnetTron;
let mainnet: DevnetTron;
useDevnet((started) => {
	devnet = started;
	nile = started.tron.find((chain) => chain.chainId === CHAIN) as DevnetTron;
	mainnet = started.tron.find((chain) => chain.chainId === '1000') as DevnetTron;
});

/** Answers block 0 with mainnet's genesis; everything else as the origin does. */
const mainnetGenesis: Lie = (path, body) =>
	path === '/wallet/getblockbynum' && (body as { num?: unknown } | undefined)?.num === 0
		? { blockID: MAINNET_GENESIS_ID, block_header: { raw_data: {} } }
		: undefined;

/** Transfer TRX of 1 sun per item on chain 1001 from wallet 1; `rpcUrl` pinned in RPC URLs, `apiUrl` the API's base. */
async function transferTrx(
	items: number,
	{ rpcUrl, apiUrl }: { rpcUrl?: string; apiUrl?: string },
): Promise<IDataObject[]> {
	const result = await runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: { items: JSON.stringify(Array.from({ length: items }, () => ({}))) },
			},
			{
				name: 'Sign',
				type: SIGNER,
				parameters: {
					chainFamily: 'tron',
					tronChainId: CHAIN,
					operation: 'transferTrx',
					recipient: nile.wallets[2].address,
					amount: '1',
				} as never,
				continueOnFail: true,
			},
		],
		{
			...devnetCredentials(devnet, apiUrl ? { expand: { baseUrl: apiUrl } } : {}),
			expandTronKeyApi: {
				keyType: 'privateKey',
				privateKey: nile.wallets[1].privateKey,
				...(rpcUrl ? { rpcUrls: `${CHAIN} = ${rpcUrl}` } : {}),
			},
		},
	);
	expect(result.error).toBeUndefined();
	return result.output('Sign').map((item) => item.json);
}

test("a pinned node answering mainnet's genesis for chain 1001 is refused, naming both chain IDs; nothing else is asked of it and nothing is signed", async () => {
	const liar = await startLyingFront(nile.rpcUrl, mainnetGenesis);
	try {
		const [refused] = await transferTrx(1, { rpcUrl: liar.url });
		expect(refused).toEqual({
			error:
				'Refused by the rule "rpcChainId": the node pinned in the credential for chain 1001 answers wallet/getblockbynum 0 with a genesis block whose ID ends in chain ID 0x2b6653dc, not 0xcd8690dc; nothing was sent to it (item 0)',
		});
		expect(liar.asked).toEqual(['/wallet/getblockbynum']);
	} finally {
		await liar.close();
	}
}, 60_000);

test("a lying API's chain/getpublicrpc naming the mainnet's node for chain 1001 is refused; nothing is signed", async () => {
	const mainnetNode = await startLyingFront(mainnet.rpcUrl, () => undefined);
	const api = await startLyingFront(devnet.baseUrl, (path) =>
		path === '/chain/getpublicrpc'
			? { status: 200, msg: 'success', data: { rpc: mainnetNode.url } }
			: undefined,
	);
	try {
		const [refused] = await transferTrx(1, { apiUrl: api.url });
		expect(refused).toEqual({
			error:
				'Refused by the rule "rpcChainId": the node the API gave for chain 1001 answers wallet/getblockbynum 0 with a genesis block whose ID ends in chain ID 0x2b6653dc, not 0xcd8690dc; nothing was sent to it (item 0)',
		});
		expect(mainnetNode.asked).toEqual(['/wallet/getblockbynum']);
		expect(api.asked).toEqual(['/chain/getpublicrpc']);
	} finally {
		await api.close();
		await mainnetNode.close();
	}
}, 60_000);

test('a node answering no genesis block is refused the same way', async () => {
	const liar = await startLyingFront(nile.rpcUrl, (path) =>
		path === '/wallet/getblockbynum' ? {} : undefined,
	);
	try {
		const [refused] = await transferTrx(1, { rpcUrl: liar.url });
		expect(refused).toEqual({
			error:
				'Refused by the rule "rpcChainId": the node pinned in the credential for chain 1001 answers wallet/getblockbynum 0 with no genesis block ID ({}), not one ending in chain ID 0xcd8690dc; nothing was sent to it (item 0)',
		});
		expect(liar.asked).toEqual(['/wallet/getblockbynum']);
	} finally {
		await liar.close();
	}
}, 60_000);

test("the devnet's Nile node shows chain 1001 and is checked once per execution: both items are signed on its blocks", async () => {
	const honest = await startLyingFront(nile.rpcUrl, () => undefined);
	try {
		const signed = await transferTrx(2, { rpcUrl: honest.url });
		for (const item of signed) {
			expect(item.error).toBeUndefined();
			expect(item).toMatchObject({ chainId: CHAIN, from: nile.wallets[1].address });
			expect(item.transactionHash).toMatch(/^[0-9a-f]{64}$/);
		}
		expect(honest.asked.filter((path) => path === '/wallet/getblockbynum')).toHaveLength(1);
		expect(honest.asked[0]).toBe('/wallet/getblockbynum');
	} finally {
		await honest.close();
	}
}, 60_000);
