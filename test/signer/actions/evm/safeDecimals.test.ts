/**
 * The whole units of a Safe proposal follow the token's decimals on the pinned node, on the devnet:
 * an Expand API whose getpublicrpc names a node that answers USDC's decimals() with 9 makes Propose
 * to Safe show a 1,000 USDC payout as 1 (in its output and its journal row: what a Slack message to
 * the owners would say) while the signing credential pins no node; with the chain's node pinned in
 * RPC URLs the lying node is asked nothing and both say 1000 at 6 decimals. Decimals written in the
 * policy (a limit line's `token:decimals`) are the policy's word: unpinned, they are used and the node
 * is not asked.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { getAddress, Interface } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../../../devnet';
import { startLyingFront } from '../../../helpers/lyingFront';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { devnetCredentials, devnetSignerKey } from '../../../helpers/devnetCredentials';
import { proposeNode } from '../../../helpers/safeProposals';

const CHAIN = '31337';
const RECIPIENT = getAddress('0x' + 'e5'.repeat(20));
const DECIMALS_SELECTOR = '0x313ce567';

const ledger = mkdtempSync(join(tmpdir(), 'safe-decimals-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledger;

let devnet: Devnet;
let lying: Awaited<ReturnType<typeof startLyingFront>>;
let api: Awaited<ReturnType<typeof startLyingFront>>;
/** How often the lying node was asked USDC's decimals(). */
let decimalsAsked = 0;
const chain = () => devnet.chains.find((entry) => entry.chainId === CHAIN)!;
const usdc = () => chain().tokens.USDC.address;

beforeAll(async () => {
	devnet = await startDevnet();
	// USDC's decimals() is 9 on this node; everything else is the chain's.
	lying = await startLyingFront(chain().rpcUrl, (_path, body) => {
		const { id, method, params } = body as { id: number; method: string; params: IDataObject[] };
		const decimals =
			method === 'eth_call' &&
			params[0]?.data === DECIMALS_SELECTOR &&
			String(params[0]?.to).toLowerCase() === usdc().toLowerCase();
		if (!decimals) return undefined;
		decimalsAsked++;
		return { jsonrpc: '2.0', id, result: `0x${(9).toString(16).padStart(64, '0')}` };
	});
	api = await startLyingFront(devnet.baseUrl, (path) =>
		path === '/chain/getpublicrpc'
			? { status: 200, msg: 'success', data: { rpc: lying.url } }
			: undefined,
	);
});
afterAll(async () => {
	await Promise.all([lying.close(), api.close()]);
	await devnet.stop();
	rmSync(ledger, { recursive: true, force: true });
});

/** Proposes a 1,000 USDC payout of the Safe, then lists the journal; the credential pins `pinned` for the chain, if given. */
async function proposeAndList(payoutId: string, pinned?: string, policy: IDataObject = {}) {
	const result = await runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: {
					items: JSON.stringify([
						{
							chainId: CHAIN,
							to: usdc(),
							value: '0',
							data: new Interface(['function transfer(address,uint256)']).encodeFunctionData(
								'transfer',
								[RECIPIENT, 1_000_000_000n],
							),
							payoutId,
						},
					]),
				},
			},
			proposeNode(devnet, { payoutId: '={{ $json.payoutId }}' }, false),
			{ name: 'List', type: SIGNER, parameters: { operation: 'listPayouts' } },
		],
		devnetCredentials(devnet, {
			expand: { baseUrl: api.url },
			signer: devnetSignerKey({
				payoutLedgerFolder: ledger,
				...(pinned ? { rpcUrls: `${CHAIN} = ${pinned}` } : {}),
				...policy,
			}),
			safe: { maxRequestsPerSecond: 0 },
		}),
	);
	expect(result.error).toBeUndefined();
	const [proposal] = result.output('Propose').map((item) => item.json);
	const row = result
		.output('List')
		.map((item) => item.json)
		.find((entry) => entry.payoutId === payoutId && entry.outcome !== 'refused');
	return { proposal, row: row as IDataObject };
}

test('unpinned, the lying node makes 1,000 USDC read as 1; pinned, the output and the journal say 1000 at 6 decimals and the lying node is asked nothing', async () => {
	const lied = await proposeAndList('decimals-unpinned');
	expect(lied.proposal.movements).toEqual([
		expect.objectContaining({ amount: '1', amountRaw: '1000000000', decimals: 9 }),
	]);
	expect(lied.row).toMatchObject({ amount: '1000000000', amountWhole: '1', decimals: '9' });
	expect(lying.asked).toContain('eth_call');

	lying.asked.length = 0;
	const pinned = await proposeAndList('decimals-pinned', chain().rpcUrl);
	expect(pinned.proposal.movements).toEqual([
		expect.objectContaining({ amount: '1000', amountRaw: '1000000000', decimals: 6 }),
	]);
	expect(pinned.row).toMatchObject({ amount: '1000000000', amountWhole: '1000', decimals: '6' });
	expect(lying.asked).toEqual([]);
});

test("unpinned, a limit line's decimals are used: 1,000 USDC reads as 1000 and the lying node is not asked for decimals", async () => {
	const before = decimalsAsked;
	const written = await proposeAndList('decimals-policy', undefined, {
		maxPerTransaction: `${usdc()}:6 = 5000`,
		requireIntent: 'never',
	});
	expect(written.proposal.error).toBeUndefined();
	expect(written.proposal.movements).toEqual([
		expect.objectContaining({ amount: '1000', amountRaw: '1000000000', decimals: 6 }),
	]);
	expect(written.row).toMatchObject({ amount: '1000000000', amountWhole: '1000', decimals: '6' });
	expect(decimalsAsked).toBe(before);
});
