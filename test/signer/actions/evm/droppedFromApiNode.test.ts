/**
 * A mined payout called `dropped` by the chain node the API names. `dropped` says "nothing was paid by
 * it", and the repeat's refusal said to pay it again under a new payout ID; a lying API names a node
 * that hides the mined transaction (the account's nonce has passed it all the same), and a
 * reconciliation that pays its `dropped` rows again pays twice. Now `dropped` is said only from a node
 * the credential pins in RPC URLs; from the API's node the row reads `droppedUnverified` and the
 * refusal tells to pin the node and check before paying again.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { Wallet } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { startLyingFront } from '../../../helpers/lyingFront';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { devnetCredentials, devnetSignerKey } from '../../../helpers/devnetCredentials';
import { useDevnet } from '../../../helpers/useDevnet';

const CHAIN = '31337';
const ACCOUNT = 13;

const root = mkdtempSync(join(tmpdir(), 'expand-dropped-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = root;

let devnet: Devnet;
useDevnet((started) => (devnet = started));
afterAll(() => {
	rmSync(root, { recursive: true, force: true });
});

const chainNode = () => devnet.chains.find((chain) => chain.chainId === CHAIN)?.rpcUrl ?? '';

/** Runs `parameters` on `items` (and `then` after it) with the signing credential through the API at `api`. */
async function signer(
	api: string,
	parameters: IDataObject,
	items: IDataObject[],
	options: { then?: IDataObject; pinned?: boolean } = {},
): Promise<IDataObject[]> {
	const step = (name: string, stepParameters: IDataObject) => ({
		name,
		type: SIGNER,
		parameters: { accountIndex: ACCOUNT, ...stepParameters } as never,
		continueOnFail: true,
	});
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			step('Sign', parameters),
			...(options.then ? [step('Then', options.then)] : []),
		],
		devnetCredentials(devnet, {
			expand: { baseUrl: api },
			signer: devnetSignerKey({
				payoutLedgerFolder: root,
				requireIntent: 'never',
				...(options.pinned ? { rpcUrls: `${CHAIN} = ${chainNode()}` } : {}),
			}),
		}),
	);
	expect(result.error).toBeUndefined();
	return result.output(options.then ? 'Then' : 'Sign').map((item) => item.json);
}

const SIGN = { operation: 'signTransaction', source: 'input', payoutId: '={{ $json.payoutId }}' };
const LIST_AND_CHECK = [
	{ chainFamily: 'evm', operation: 'listPayouts', status: 'signed' },
	{ chainFamily: 'evm', operation: 'checkPayouts' },
] as const;

test('the API names a node that hides a mined payout: the row is not "dropped" (nothing paid) unless a pinned node says so, so a reconciliation paying dropped rows again pays once', async () => {
	// The chain's node, except that it knows no transaction by its hash.
	const liar = await startLyingFront(chainNode(), (_path, body) => {
		const { id, method } = body as { id: number; method: string };
		return method === 'eth_getTransactionByHash' ? { jsonrpc: '2.0', id, result: null } : undefined;
	});
	const api = await startLyingFront(devnet.baseUrl, (path) =>
		path === '/chain/getpublicrpc'
			? { status: 200, msg: 'success', data: { rpc: liar.url } }
			: undefined,
	);
	const recipient = Wallet.createRandom().address;
	const balance = async () =>
		BigInt(await devnet.rpc<string>(CHAIN, 'eth_getBalance', [recipient, 'latest']));
	const payout = { chainId: CHAIN, to: recipient, value: '1000' };
	try {
		const [paid] = await signer(api.url, SIGN, [{ payoutId: 'inv-1', ...payout }]);
		expect(paid).toMatchObject({ payoutId: 'inv-1', repeat: false });
		await devnet.rpc(CHAIN, 'eth_sendRawTransaction', [paid.rawTransaction]);
		expect(await balance()).toBe(1000n);

		// The reconciliation: List Payouts → Check Payouts, and every row that reads as unpaid paid again.
		const rows = await signer(api.url, LIST_AND_CHECK[0], [{}], { then: LIST_AND_CHECK[1] });
		const again = rows.filter((entry) => entry.chainStatus === 'dropped');
		for (const entry of again) {
			const [repaid] = await signer(api.url, SIGN, [
				{ ...payout, payoutId: `${String(entry.payoutId)}-again` },
			]);
			await devnet.rpc(CHAIN, 'eth_sendRawTransaction', [repaid.rawTransaction]);
		}
		expect(await balance()).toBe(1000n);
		expect(again).toHaveLength(0);
		expect(rows.find((entry) => entry.payoutId === 'inv-1')).toMatchObject({
			chainStatus: 'droppedUnverified',
			statusMessage: `the chain's JSON-RPC node the API names (RPC URLs pins none for chain ${CHAIN}) says it is not on the chain and can never land, and a node that lies can hide a mined transaction: pin the chain's node in the credential's RPC URLs and check again; do not pay it again on this status`,
		});

		// A rerun of the payout ID through the same node is refused without "pay it under a new payout ID".
		const [rerun] = await signer(api.url, SIGN, [{ payoutId: 'inv-1', ...payout }]);
		expect(rerun.error).toBe(
			`Refused by the rule "payoutId": payout ID "inv-1" was signed on ${(rerun.error as string).match(/ signed on (\S+) as /)?.[1] ?? '(no date)'} as ${String(paid.transactionHash)} with nonce ${String(paid.nonce)}, which the chain's JSON-RPC node the API names (RPC URLs pins none for chain ${CHAIN}) says is not on the chain while another transaction has used that nonce; it is not signed again. A node that lies can hide a mined transaction: pin the chain's node in the credential's RPC URLs and run the payout again before you pay it under a new payout ID; nothing was signed (item 0)`,
		);

		// The chain's own node, pinned: mined, and the rerun is a repeat already sent.
		const pinned = await signer(api.url, LIST_AND_CHECK[0], [{}], {
			then: LIST_AND_CHECK[1],
			pinned: true,
		});
		expect(pinned.find((entry) => entry.payoutId === 'inv-1')).toMatchObject({
			chainStatus: 'mined',
			success: 'true',
		});
		const [repeat] = await signer(api.url, SIGN, [{ payoutId: 'inv-1', ...payout }], {
			pinned: true,
		});
		expect(repeat).toMatchObject({ repeat: true, alreadySent: true, chainStatus: 'mined' });
		expect(await balance()).toBe(1000n);
	} finally {
		await api.close();
		await liar.close();
	}
});

test('the API names a node that says a mined payout reverted (nothing moved): success is not "false" unless a pinned node says so, so a reconciliation paying reverted rows again pays once', async () => {
	const recipient = Wallet.createRandom().address;
	const payout = { chainId: CHAIN, to: recipient, value: '1000' };
	const [paid] = await signer(devnet.baseUrl, SIGN, [{ payoutId: 'inv-2', ...payout }]);
	await devnet.rpc(CHAIN, 'eth_sendRawTransaction', [paid.rawTransaction]);
	const mined = String(paid.transactionHash).toLowerCase();
	const receipt = await devnet.rpc<IDataObject>(CHAIN, 'eth_getTransactionReceipt', [mined]);
	// The chain's node, except that the payout's receipt says it reverted.
	const liar = await startLyingFront(chainNode(), (_path, body) => {
		const { id, method, params } = body as { id: number; method: string; params: string[] };
		return method === 'eth_getTransactionReceipt' && params[0].toLowerCase() === mined
			? { jsonrpc: '2.0', id, result: { ...receipt, status: '0x0' } }
			: undefined;
	});
	const api = await startLyingFront(devnet.baseUrl, (path) =>
		path === '/chain/getpublicrpc'
			? { status: 200, msg: 'success', data: { rpc: liar.url } }
			: undefined,
	);
	const balance = async () =>
		BigInt(await devnet.rpc<string>(CHAIN, 'eth_getBalance', [recipient, 'latest']));
	try {
		const rows = await signer(api.url, LIST_AND_CHECK[0], [{}], { then: LIST_AND_CHECK[1] });
		// The reconciliation pays again what reverted.
		const again = rows.filter((entry) => entry.success === 'false');
		for (const entry of again) {
			const [repaid] = await signer(api.url, SIGN, [
				{ ...payout, payoutId: `${String(entry.payoutId)}-again` },
			]);
			await devnet.rpc(CHAIN, 'eth_sendRawTransaction', [repaid.rawTransaction]);
		}
		expect(await balance()).toBe(1000n);
		expect(rows.find((entry) => entry.payoutId === 'inv-2')).toMatchObject({
			chainStatus: 'mined',
			success: '',
			statusMessage: `the chain's JSON-RPC node the API names (RPC URLs pins none for chain ${CHAIN}) says it reverted, so nothing moved, and a node that lies can say so of a payment that went through: pin the chain's node in the credential's RPC URLs and check again; never pay it again on this status`,
		});
		const pinned = await signer(api.url, LIST_AND_CHECK[0], [{}], {
			then: LIST_AND_CHECK[1],
			pinned: true,
		});
		expect(pinned.find((entry) => entry.payoutId === 'inv-2')).toMatchObject({
			chainStatus: 'mined',
			success: 'true',
			statusMessage: '',
		});
	} finally {
		await api.close();
		await liar.close();
	}
});
