/**
 * A multiplied answer through a custodian: an API answering one form item with several transactions
 * (the Expand side bypassed: copies of one built item, each under its own payout ID, as a workflow
 * that numbers its rows would give them). The Signer binds at most one transaction per form item; the
 * copies must be refused before the custodian sees them: Fireblocks gets one create, Turnkey one sign
 * request, also when the first copy's request is held for consensus or its answer is lost (the
 * request reached the custodian, so the form item is taken by it), and across executions.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { getAddress } from 'ethers';
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../../devnet';
import { devnetExpandApi } from '../../helpers/devnetCredentials';
import { EXPAND, ITEMS, runPipeline } from '../../helpers/n8n';
import { useDevnet } from '../../helpers/useDevnet';
import { fireblocksCredential } from '../actions/fireblocks/fireblocksRun';
import {
	runSigner,
	signRequests as signRequestsOf,
	solanaUsdcFromTurnkey,
	turnkeyKey,
} from '../actions/turnkey/turnkeyRun';

const CHAIN = '31337';
const RECIPIENT = getAddress('0x' + 'e7'.repeat(20));

const root = mkdtempSync(join(tmpdir(), 'expand-custodian-form-item-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = root;

let devnet: Devnet;
useDevnet((started) => (devnet = started));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let folders = 0;
const freshFolder = () => mkdtempSync(join(root, `ledger-${folders++}-`));

const usdc = () => devnet.chains.find((chain) => chain.chainId === CHAIN)!.tokens.USDC.address;

/** Expand (version 2) builds one transfer of `form`: the item with its intent and form item. */
async function builtOf(form: INodeParameters): Promise<IDataObject> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{}]) } },
			{
				name: 'Build',
				type: EXPAND,
				typeVersion: 2,
				parameters: { resource: 'fungibletoken', operation: 'transfer', ...form },
			},
		],
		{ expandApi: devnetExpandApi(devnet) },
	);
	if (result.error) throw result.error;
	const [item] = result.output('Build');
	expect(item.json.error).toBeUndefined();
	expect((item.json.intent as IDataObject).formItem).toBeDefined();
	return item.json;
}

/** One 1 USDC transfer from `from` to RECIPIENT, built. */
const built = (from: string) =>
	builtOf({ chainId: CHAIN, from, to: RECIPIENT, tokenAddress: usdc(), amount: '1', gas: '80000' });

/** `count` copies of one built item, each under its own payout ID. */
const copies = (item: IDataObject, prefix: string, count: number, from = 0) =>
	Array.from({ length: count }, (_, index) => ({ ...item, payoutId: `${prefix}-${from + index}` }));

const sign = (
	items: IDataObject[],
	parameters: INodeParameters,
	key: Record<string, ICredentialDataDecryptedObject>,
) => runSigner(devnet, items, parameters, key);

const secondCopy = (index: number) =>
	new RegExp(
		`^Refused by the rule "oneTransactionPerFormItem": form item 0 of node "Build" in execution \\S+ asked for one transaction and .*; this is another \\(payout ID "[^"]+"\\), which an API answering one form item with several transactions would make; nothing was signed \\(item ${index}\\)$`,
	);

describe('Fireblocks: one create per form item', () => {
	const creates = () =>
		devnet.fireblocks.requests.filter(
			(request) => request.method === 'POST' && request.path === '/v1/transactions',
		).length;
	const fireblocks = (ledger: string) => ({
		expandFireblocksApi: fireblocksCredential(devnet, ledger),
	});
	const CREATE = {
		chainFamily: 'fireblocks',
		operation: 'createTransaction',
		source: 'input',
		payoutId: '={{ $json.payoutId }}',
	};

	test('three copies of one form item in one execution, then a fourth in another: one create, the others refused naming the form item', async () => {
		devnet.fireblocks.autoApprove = false;
		const ledger = freshFolder();
		const item = await built(devnet.fireblocks.addresses[CHAIN]);
		const before = creates();
		const out = await sign(copies(item, 'fb-copy', 3), CREATE, fireblocks(ledger));
		expect(out[0].error).toBeUndefined();
		expect(out[0]).toMatchObject({ created: true, status: 'PENDING_AUTHORIZATION' });
		expect(out[1].error).toMatch(secondCopy(1));
		expect(out[2].error).toMatch(secondCopy(2));
		expect(creates()).toBe(before + 1);
		const [later] = await sign(copies(item, 'fb-copy', 1, 3), CREATE, fireblocks(ledger));
		expect(later.error).toMatch(secondCopy(0));
		expect(creates()).toBe(before + 1);
		// The first copy's rerun is its repeat: nothing new.
		const [rerun] = await sign(copies(item, 'fb-copy', 1), CREATE, fireblocks(ledger));
		expect(rerun).toMatchObject({ repeat: true, created: false });
		expect(creates()).toBe(before + 1);
	});
});

describe('Turnkey (EVM): one sign request per form item', () => {
	const signRequests = () => signRequestsOf(devnet).length;
	const turnkey = (ledger: string) => ({
		expandSignerApi: turnkeyKey(devnet, devnet.turnkey.accounts.evm, ledger, {
			rpcUrls: `${CHAIN} = ${devnet.chains.find((chain) => chain.chainId === CHAIN)!.rpcUrl}`,
		}),
	});
	const SIGN = { operation: 'signTransaction', source: 'input', payoutId: '={{ $json.payoutId }}' };

	afterEach(() => {
		devnet.turnkey.requireConsensus = false;
	});

	test('three copies signed at once: one sign request, the others refused', async () => {
		const ledger = freshFolder();
		const item = await built(devnet.turnkey.accounts.evm);
		const before = signRequests();
		const out = await sign(copies(item, 'tk-copy', 3), SIGN, turnkey(ledger));
		expect(out[0].error).toBeUndefined();
		expect(out[1].error).toMatch(secondCopy(1));
		expect(out[2].error).toMatch(secondCopy(2));
		expect(signRequests()).toBe(before + 1);
		// Sent, so its nonce is no longer held for the account's next payouts.
		await devnet.rpc(CHAIN, 'eth_sendRawTransaction', [out[0].rawTransaction]);
	});

	test('the first copy held for consensus: the other copies are refused before any request to Turnkey, in that execution and the next; approved, the first copy alone is signed', async () => {
		const ledger = freshFolder();
		const item = await built(devnet.turnkey.accounts.evm);
		devnet.turnkey.requireConsensus = true;
		const before = signRequests();
		const activities = devnet.turnkey.activities().length;
		const out = await sign(copies(item, 'tk-held', 3), SIGN, turnkey(ledger));
		expect(out[0].error).toMatch(/holds sign-transaction activity .* for consensus/);
		expect(out[1].error).toMatch(secondCopy(1));
		expect(out[2].error).toMatch(secondCopy(2));
		expect(signRequests()).toBe(before + 1);
		const [later] = await sign(copies(item, 'tk-held', 1, 3), SIGN, turnkey(ledger));
		expect(later.error).toMatch(secondCopy(0));
		expect(signRequests()).toBe(before + 1);
		expect(devnet.turnkey.activities()).toHaveLength(activities + 1);
		devnet.turnkey.approve(devnet.turnkey.activities()[activities].id);
		devnet.turnkey.requireConsensus = false;
		const [rerun] = await sign(copies(item, 'tk-held', 1), SIGN, turnkey(ledger));
		expect(rerun.error).toBeUndefined();
		expect(rerun).toMatchObject({ repeat: false, payoutId: 'tk-held-0' });
		expect(devnet.turnkey.activities()).toHaveLength(activities + 1);
		await devnet.rpc(CHAIN, 'eth_sendRawTransaction', [rerun.rawTransaction]);
	}, 30_000);

	test('copies carrying their own nonces (no nonce claim between them), the first held for consensus: one sign request', async () => {
		const ledger = freshFolder();
		const item = await built(devnet.turnkey.accounts.evm);
		const next = Number(
			BigInt(
				await devnet.rpc<string>(CHAIN, 'eth_getTransactionCount', [
					devnet.turnkey.accounts.evm,
					'pending',
				]),
			),
		);
		devnet.turnkey.requireConsensus = true;
		const before = signRequests();
		const activities = devnet.turnkey.activities().length;
		const items = copies(item, 'tk-nonces', 3).map((copy, index) => ({
			...copy,
			nonce: next + index,
		}));
		const out = await sign(items, SIGN, turnkey(ledger));
		expect(out[0].error).toMatch(/holds sign-transaction activity .* for consensus/);
		expect(out[1].error).toMatch(secondCopy(1));
		expect(out[2].error).toMatch(secondCopy(2));
		expect(signRequests()).toBe(before + 1);
		for (const activity of devnet.turnkey.activities().slice(activities))
			devnet.turnkey.reject(activity.id);
	}, 30_000);

	test("the first copy's answer lost: the other copies are refused before any request to Turnkey; the rerun picks the first up", async () => {
		const ledger = freshFolder();
		const item = await built(devnet.turnkey.accounts.evm);
		devnet.turnkey.faults.dropNextSignAnswer(3);
		const before = signRequests();
		const out = await sign(copies(item, 'tk-lost', 2), SIGN, turnkey(ledger));
		expect(out[0].error).toMatch(/Turnkey did not answer \/public\/v1\/submit\/sign_transaction/);
		expect(out[1].error).toMatch(secondCopy(1));
		expect(signRequests()).toBe(before + 3);
		const [rerun] = await sign(copies(item, 'tk-lost', 1), SIGN, turnkey(ledger));
		expect(rerun.error).toBeUndefined();
		expect(signRequests()).toBe(before + 4);
		await devnet.rpc(CHAIN, 'eth_sendRawTransaction', [rerun.rawTransaction]);
	}, 30_000);
});

describe('Turnkey (Solana): one sign request per form item', () => {
	test('three copies, the first held for consensus: one sign request, the others refused, in that execution and the next', async () => {
		const ledger = freshFolder();
		const item = await builtOf({ ...solanaUsdcFromTurnkey(devnet), amountsIn: 'smallest' });
		const signRequests = () => signRequestsOf(devnet).length;
		const key = {
			expandSolanaKeyApi: turnkeyKey(devnet, devnet.turnkey.accounts.solana, ledger),
		};
		const SIGN = {
			chainFamily: 'solana',
			solanaChainId: devnet.solana.chainId,
			operation: 'signTransaction',
			payoutId: '={{ $json.payoutId }}',
		};
		devnet.turnkey.requireConsensus = true;
		try {
			const before = signRequests();
			const activities = devnet.turnkey.activities().length;
			const out = await sign(copies(item, 'tk-sol-held', 3), SIGN, key);
			expect(out[0].error).toMatch(/holds sign-transaction activity .* for consensus/);
			expect(out[1].error).toMatch(secondCopy(1));
			expect(out[2].error).toMatch(secondCopy(2));
			expect(signRequests()).toBe(before + 1);
			const [later] = await sign(copies(item, 'tk-sol-held', 1, 3), SIGN, key);
			expect(later.error).toMatch(secondCopy(0));
			expect(signRequests()).toBe(before + 1);
			for (const activity of devnet.turnkey.activities().slice(activities))
				devnet.turnkey.reject(activity.id);
		} finally {
			devnet.turnkey.requireConsensus = false;
		}
	}, 30_000);
});
