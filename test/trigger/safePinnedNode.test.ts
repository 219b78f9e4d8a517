/**
 * Safe Transaction Executed reads the chain from the node the Safe API credential pins (RPC URL), on
 * the devnet: an Expand API whose getpublicrpc names a lying node (the Safe's nonce() always 0, so
 * every execution is hidden and a paid row is never marked paid) hides the Safe's payment while
 * nothing is pinned; with the devnet's node pinned the lying node is asked nothing and the payment
 * is emitted. A pinned node of another chain, and a pinned URL that is not http(s), are refused.
 */
import { Contract, Interface, JsonRpcProvider, parseUnits, Wallet } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../devnet';
import { SAFE_INTERFACE } from '../../devnet/safe/artifacts';
import {
	execTransactionArgs,
	safeTxHash,
	signSafeTx,
	sortedSignatures,
} from '../../devnet/safe/safeTx';
import { NONCE_SELECTOR } from '../../nodes/shared/safe/contract';
import { startLyingFront } from '../helpers/lyingFront';
import { activateTrigger, type ActiveTrigger } from '../helpers/n8n';
import { devnetExpandApi } from '../helpers/devnetCredentials';
import { safeCall } from '../helpers/safeCall';

const ERC20 = new Interface(['function transfer(address to, uint256 amount) returns (bool)']);
const RECIPIENT = '0x' + 'd4'.repeat(20);

let devnet: Devnet;
let lying: Awaited<ReturnType<typeof startLyingFront>>;
let api: Awaited<ReturnType<typeof startLyingFront>>;
let honest: Awaited<ReturnType<typeof startLyingFront>>;
const active: ActiveTrigger[] = [];

const chain = () => devnet.chains.find((entry) => entry.chainId === devnet.safe.chainId)!;
const answer = (id: unknown, result: unknown) => ({ jsonrpc: '2.0', id, result });

beforeAll(async () => {
	devnet = await startDevnet();
	// The lying node: the Safe's nonce() is 0 at every block, as if it had never executed anything.
	lying = await startLyingFront(chain().rpcUrl, (_path, body) => {
		const { id, method, params } = body as { id: number; method: string; params: IDataObject[] };
		return method === 'eth_call' && params[0]?.data === NONCE_SELECTOR
			? answer(id, `0x${'0'.repeat(64)}`)
			: undefined;
	});
	// The Expand API, except that its getpublicrpc names the lying node.
	api = await startLyingFront(devnet.baseUrl, (path) =>
		path === '/chain/getpublicrpc'
			? { status: 200, msg: 'success', data: { rpc: lying.url } }
			: undefined,
	);
	// The devnet's own node, through a front that only records what it is asked.
	honest = await startLyingFront(chain().rpcUrl, () => undefined);
});
afterEach(async () => {
	await Promise.all(active.splice(0).map((trigger) => trigger.close()));
});
afterAll(async () => {
	await Promise.all([lying.close(), api.close(), honest.close()]);
	await devnet.stop();
});

/** A USDC payment of the Safe, signed by two owners and executed by the first; returns its safeTxHash. */
async function payFromSafe(amount: string): Promise<string> {
	const { address, chainId, owners } = devnet.safe;
	const provider = new JsonRpcProvider(chain().rpcUrl, Number(chainId), { staticNetwork: true });
	try {
		const safe = new Contract(address, SAFE_INTERFACE, new Wallet(owners[0].privateKey, provider));
		const tx = safeCall(
			chain().tokens.USDC.address,
			ERC20.encodeFunctionData('transfer', [RECIPIENT, parseUnits(amount, 6)]),
			await safe.nonce(),
		);
		const signatures = await Promise.all(
			owners.slice(0, 2).map(async (owner) => ({
				owner: owner.address,
				signature: await signSafeTx(owner.privateKey, chainId, address, tx),
			})),
		);
		const sent = await safe.execTransaction(
			...execTransactionArgs(tx, sortedSignatures(signatures)),
		);
		await sent.wait();
		return safeTxHash(chainId, address, tx);
	} finally {
		provider.destroy();
	}
}

/** Fetch Test Event through the lying API, with the Safe API credential's RPC URL as given. */
async function fetchTestEvent(rpcUrl?: string) {
	const trigger = await activateTrigger(
		{
			event: 'safeTransactionExecuted',
			chainId: devnet.safe.chainId,
			safeAddress: devnet.safe.address,
			pollIntervalSeconds: 1,
		},
		{
			expandApi: devnetExpandApi(devnet, { baseUrl: api.url }),
			expandSafeApi: {
				serviceUrl: devnet.safe.serviceUrl,
				apiKey: '',
				maxRequestsPerSecond: 0,
				...(rpcUrl !== undefined ? { rpcUrl } : {}),
			},
		},
		'manual',
	);
	active.push(trigger);
	return trigger;
}

test('unpinned, the lying node the API names hides the payment; pinned, the lying node is asked nothing and the payment is emitted', async () => {
	const hash = await payFromSafe('250');

	const unpinned = await fetchTestEvent();
	await expect(unpinned.manual()).rejects.toThrow(
		`${devnet.safe.address} has executed no transaction on chain ${devnet.safe.chainId} yet`,
	);
	expect(lying.asked).toContain('eth_call');

	lying.asked.length = 0;
	api.asked.length = 0;
	const pinned = await fetchTestEvent(honest.url);
	await pinned.manual();
	expect(pinned.emitted.flat().map((item) => item.json)).toEqual([
		expect.objectContaining({ safeTxHash: hash, successful: true, nonce: 0 }),
	]);
	expect(lying.asked).toEqual([]);
	expect(api.asked).not.toContain('/chain/getpublicrpc');
	expect(honest.asked).toEqual(
		expect.arrayContaining([
			'eth_chainId',
			'eth_blockNumber',
			'eth_call',
			'eth_getTransactionReceipt',
		]),
	);
});

test('a pinned node of another chain is refused before it is asked anything else; a pinned URL that is not http(s) is refused without showing it', async () => {
	lying.asked.length = 0;
	const otherChain = await startLyingFront(chain().rpcUrl, (_path, body) => {
		const { id, method } = body as { id: number; method: string };
		return method === 'eth_chainId' ? answer(id, '0x1') : undefined;
	});
	try {
		const trigger = await fetchTestEvent(otherChain.url);
		await expect(trigger.manual()).rejects.toThrow(
			`Refused by the rule "rpcChainId": the JSON-RPC node pinned in the credential for chain ${devnet.safe.chainId} answers eth_chainId 1; nothing was sent to it`,
		);
		expect(otherChain.asked).toEqual(['eth_chainId']);
		expect(lying.asked).not.toContain('eth_chainId');
	} finally {
		await otherChain.close();
	}
	await expect(fetchTestEvent('ftp://node.example/secret-key')).rejects.toThrow(
		'The Safe API credential\'s field "RPC URL" must be an http(s) URL (https://…) of a JSON-RPC node of the Safe\'s chain, or empty',
	);
});
