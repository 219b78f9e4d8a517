/**
 * A Turnkey payout's webhooks name their payout: the Signer signs through the devnet's Turnkey
 * stand-in, labels the activity in its ledger, and the stand-in's own signed ACTIVITY_UPDATES
 * deliveries reach Expand Signer Trigger (a receiver running the node as n8n does), which reads the
 * label and emits the payout ID, chain and account; an activity the Signer did not ask for is emitted
 * as not one of its payouts.
 */
import { Transaction, Wallet } from 'ethers';
import type { INode } from 'n8n-workflow';

import type { Devnet } from '../../../devnet';
import { PayoutJournal } from '../../../packages/signer/nodes/ExpandSigner/ledger/journal';
import { SharedFolder } from '../../../packages/signer/nodes/ExpandSigner/ledger/sharedFolder';
import { forgetJwks } from '../../../packages/signer/nodes/ExpandSigner/trigger/jwks';
import { devnetCredentials } from '../../helpers/devnetCredentials';
import { ledgerFolder } from '../../helpers/ledgerFolder';
import { signAndSend } from '../../helpers/signAndSend';
import { useDevnet } from '../../helpers/useDevnet';
import { turnkeyKey } from '../actions/turnkey/turnkeyRun';
import { type Receiver, startReceiver } from './webhookRun';

const CHAIN = '31337';
const folder = ledgerFolder('turnkey-payout-events-');

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const evmKey = () => turnkeyKey(devnet, devnet.turnkey.accounts.evm, folder);

let receiver: Receiver;
beforeAll(async () => {
	forgetJwks();
	// The JWKS URL is left empty: the credential's Base URL's default, the stand-in's own JWKS.
	receiver = await startReceiver(
		{ custodian: 'turnkey', chainFamily: 'evm' },
		{ expandSignerApi: evmKey() },
	);
	devnet.turnkey.subscribe(`${receiver.url}/webhook/custodian`);
});
afterAll(async () => {
	devnet.turnkey.unsubscribe(`${receiver.url}/webhook/custodian`);
	await devnet.turnkey.webhooksIdle();
	await receiver.stop();
});
beforeEach(() => {
	devnet.turnkey.requireConsensus = false;
});

const pay = async (payoutId: string | undefined, to: string) =>
	await signAndSend(
		[{ payoutId: payoutId ?? '' }],
		{
			operation: 'signTransaction',
			source: 'fields',
			chainId: CHAIN,
			to,
			value: '1000',
			...(payoutId ? { payoutId: '={{ $json.payoutId }}' } : {}),
		} as never,
		devnetCredentials(devnet, { signer: evmKey() }),
	);

const emittedFor = (activityId: string) =>
	receiver.emitted.flat().filter((item) => item.json.transactionId === activityId);

const node = { name: 'reader' } as INode;
async function journal() {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const {
		getFileSystemHelperFunctions,
	} = require('n8n-core/dist/execution-engine/node-execution-context/utils/file-system-helper-functions');
	return await new PayoutJournal(
		node,
		new SharedFolder(node, getFileSystemHelperFunctions(node), folder),
		{ family: 'evm', workflowId: '', executionId: '', node: '' },
	).entries(0);
}

test("a Turnkey payout's webhooks, delivered by the stand-in, arrive with its payout ID, chain and account, each status once", async () => {
	const payee = Wallet.createRandom().address;
	const before = devnet.turnkey.activities().length;
	const paid = await pay('tk-hook-1', payee);
	expect(paid.sent[0].transactionHash).toBe(paid.signed[0].transactionHash);
	await devnet.turnkey.webhooksIdle();
	const activity = devnet.turnkey.activities()[before];
	const items = emittedFor(activity.id);
	expect(items.map((item) => item.json.status)).toEqual([
		'ACTIVITY_STATUS_CREATED',
		'ACTIVITY_STATUS_COMPLETED',
	]);
	for (const item of items)
		expect(item.json).toMatchObject({
			custodian: 'turnkey',
			transactionId: activity.id,
			payoutId: 'tk-hook-1',
			knownPayout: true,
			chainId: CHAIN,
			account: devnet.turnkey.accounts.evm,
			operation: 'signTransaction',
		});
	const entries = (await journal()).filter(
		(entry) => 'custodianId' in entry && entry.custodianId === activity.id,
	);
	// The Signer's entries (its status seen at the answer, its signature) and the trigger's, one per
	// status, in whichever order the two executions reached the journal.
	const written = entries.map(
		(entry) => 'node' in entry && `${entry.node} ${entry.outcome} ${entry.custodianStatus}`,
	);
	expect([...written].sort()).toEqual([
		'Custodian Events status ACTIVITY_STATUS_COMPLETED',
		'Custodian Events status ACTIVITY_STATUS_CREATED',
		'Sign signed ACTIVITY_STATUS_COMPLETED',
		'Sign status ACTIVITY_STATUS_COMPLETED',
	]);
	for (const entry of entries)
		expect(entry).toMatchObject({
			payoutId: 'tk-hook-1',
			chainId: CHAIN,
			account: devnet.turnkey.accounts.evm,
		});
	expect(receiver.warnings).toEqual([]);
});

test('a payout held for consensus: its approval, in Turnkey, reaches the trigger with the payout; the rerun signs it and nothing is emitted twice', async () => {
	const payee = Wallet.createRandom().address;
	const before = devnet.turnkey.activities().length;
	devnet.turnkey.requireConsensus = true;
	const held = await pay('tk-hook-consensus', payee);
	expect(held.signed[0].error).toMatch(/holds sign-transaction activity/);
	const activity = devnet.turnkey.activities()[before];
	devnet.turnkey.approve(activity.id);
	await devnet.turnkey.webhooksIdle();
	expect(emittedFor(activity.id).map((item) => item.json.status)).toEqual([
		'ACTIVITY_STATUS_CREATED',
		'ACTIVITY_STATUS_CONSENSUS_NEEDED',
		'ACTIVITY_STATUS_COMPLETED',
	]);
	expect(emittedFor(activity.id).map((item) => item.json.payoutId)).toEqual([
		'tk-hook-consensus',
		'tk-hook-consensus',
		'tk-hook-consensus',
	]);
	devnet.turnkey.requireConsensus = false;
	const rerun = await pay('tk-hook-consensus', payee);
	expect(rerun.sent[0].transactionHash).toBe(rerun.signed[0].transactionHash);
	await devnet.turnkey.webhooksIdle();
	expect(emittedFor(activity.id)).toHaveLength(3);
	expect(devnet.turnkey.activities()).toHaveLength(before + 1);
});

test('an item without a payout ID is labelled with its chain and account; an activity the Signer did not ask for is emitted as no payout of its own', async () => {
	const payee = Wallet.createRandom().address;
	const before = devnet.turnkey.activities().length;
	const paid = await pay(undefined, payee);
	expect(paid.signed[0].transactionHash).toBeDefined();
	await devnet.turnkey.webhooksIdle();
	const mine = devnet.turnkey.activities()[before];
	expect(emittedFor(mine.id).at(-1)?.json).toMatchObject({
		status: 'ACTIVITY_STATUS_COMPLETED',
		payoutId: '',
		knownPayout: true,
		chainId: CHAIN,
		account: devnet.turnkey.accounts.evm,
	});

	// Another client of the organization signs through Turnkey's API, not through n8n.
	const body = JSON.stringify({
		type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
		timestampMs: String(Date.now()),
		organizationId: devnet.turnkey.organizationId,
		parameters: {
			signWith: devnet.turnkey.accounts.evm,
			unsignedTransaction: Transaction.from({
				to: payee,
				value: 1n,
				nonce: 999,
				gasLimit: 21000n,
				gasPrice: 1n,
				chainId: BigInt(CHAIN),
			}).unsignedSerialized.slice(2),
			type: 'TRANSACTION_TYPE_ETHEREUM',
		},
	});
	const response = await fetch(`${devnet.turnkey.url}/public/v1/submit/sign_transaction`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', 'X-Stamp': devnet.turnkey.stamp(body) },
		body,
	});
	const { activity } = (await response.json()) as { activity: { id: string } };
	await devnet.turnkey.webhooksIdle();
	const foreign = emittedFor(activity.id);
	expect(foreign.length).toBeGreaterThan(0);
	for (const item of foreign)
		expect(item.json).toMatchObject({
			payoutId: '',
			knownPayout: false,
			chainId: '',
			account: '',
		});
});
