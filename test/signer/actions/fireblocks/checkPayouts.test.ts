/**
 * Check Payouts and List Payouts of Fireblocks (Custodian) payouts, against the devnet's stand-in:
 * pending while held, failed when rejected (nothing moved), mined only when the transaction hash
 * Fireblocks gives is on the chain, from the vault, paying what the payout pays; a Fireblocks that
 * lies about `txHash` (another transaction's, or one the chain does not know) reads unknown, never
 * mined. Wait for Completion writes one `status` journal entry per status change it sees.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { getAddress, JsonRpcProvider } from 'ethers';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { useDevnet } from '../../../helpers/useDevnet';
import { chainOf, createNative, runFireblocks } from './fireblocksRun';

const RECIPIENT = getAddress('0x' + 'c6'.repeat(20));

const ledger = mkdtempSync(join(tmpdir(), 'fireblocks-check-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledger;

let devnet: Devnet;
useDevnet((started) => (devnet = started));
afterAll(() => rmSync(ledger, { recursive: true, force: true }));

const run = async (items: IDataObject[], parameters: INodeParameters, then?: INodeParameters) =>
	await runFireblocks(devnet, ledger, items, parameters, { then });
const provider = () => new JsonRpcProvider(chainOf(devnet).rpcUrl, 31337, { staticNetwork: true });
const vault = () => devnet.fireblocks.addresses['31337'];

/** List Payouts → Check Payouts, the rows of the payouts' create entries. */
async function checked(): Promise<Map<string, IDataObject>> {
	const rows = await run(
		[{}],
		{ operation: 'listPayouts', status: 'signed' },
		{
			operation: 'checkPayouts',
		},
	);
	return new Map(rows.map((row) => [String(row.payoutId), row]));
}

describe('Fireblocks (Custodian) Check Payouts', () => {
	beforeAll(() => {
		devnet.fireblocks.autoApprove = false;
	});
	afterEach(() => devnet.fireblocks.faults.tamperedAnswers.clear());

	it('pending while held, failed when rejected, mined when the chain shows it; a lying txHash reads unknown', async () => {
		const [held] = await run([{}], createNative('fbc-held', RECIPIENT, '1000'));
		const [rejected] = await run([{}], createNative('fbc-rejected', RECIPIENT, '2000'));
		const [mined] = await run([{}], createNative('fbc-mined', RECIPIENT, '3000'));
		const [liarOther] = await run([{}], createNative('fbc-lie-other', RECIPIENT, '4000'));
		const [liarNone] = await run([{}], createNative('fbc-lie-none', RECIPIENT, '5000'));
		const [liarMissing] = await run([{}], createNative('fbc-lie-missing', RECIPIENT, '6000'));
		devnet.fireblocks.reject(String(rejected.fireblocksId), 'not today');
		const done = await devnet.fireblocks.approve(String(mined.fireblocksId));
		expect(done.status).toBe('COMPLETED');
		for (const liar of [liarOther, liarNone, liarMissing])
			await devnet.fireblocks.approve(String(liar.fireblocksId));
		// Fireblocks answers COMPLETED with the hash of another payout's transaction, a hash the chain
		// does not know, and no hash at all.
		devnet.fireblocks.faults.tamperedAnswers.set('fbc-lie-other', { txHash: done.txHash });
		devnet.fireblocks.faults.tamperedAnswers.set('fbc-lie-none', {
			txHash: '0x' + 'ab'.repeat(32),
		});
		devnet.fireblocks.faults.tamperedAnswers.set('fbc-lie-missing', { txHash: '' });

		const rows = await checked();
		expect(rows.get('fbc-held')).toMatchObject({
			chainStatus: 'pending',
			custodian: 'fireblocks',
			custodianId: held.fireblocksId,
			custodianStatus: 'PENDING_AUTHORIZATION',
			statusMessage: expect.stringMatching(/PENDING_AUTHORIZATION/),
		});
		expect(rows.get('fbc-rejected')).toMatchObject({
			chainStatus: 'failed',
			custodianId: rejected.fireblocksId,
			custodianStatus: 'REJECTED',
			executionTransactionHash: '',
		});
		const receipt = await provider().getTransactionReceipt(String(done.txHash));
		expect(rows.get('fbc-mined')).toMatchObject({
			chainStatus: 'mined',
			success: 'true',
			block: String(receipt?.blockNumber),
			executionTransactionHash: done.txHash,
			custodianId: mined.fireblocksId,
			custodianStatus: 'COMPLETED',
		});
		expect(rows.get('fbc-lie-other')).toMatchObject({
			chainStatus: 'unknown',
			custodianStatus: 'COMPLETED',
			statusMessage: expect.stringMatching(
				new RegExp(`^completed at Fireblocks but not on the chain: ${String(done.txHash)} calls`),
			),
		});
		expect(rows.get('fbc-lie-none')).toMatchObject({
			chainStatus: 'unknown',
			statusMessage: expect.stringMatching(
				/^completed at Fireblocks but not on the chain: the chain's node does not know 0x(ab){32}/,
			),
		});
		expect(rows.get('fbc-lie-missing')).toMatchObject({
			chainStatus: 'unknown',
			statusMessage: expect.stringMatching(
				/^completed at Fireblocks but not on the chain: Fireblocks gives no transaction hash/,
			),
		});
		// No row of a lying answer says mined.
		for (const id of ['fbc-lie-other', 'fbc-lie-none', 'fbc-lie-missing'])
			expect(rows.get(id)?.chainStatus).not.toBe('mined');
	});

	it('List Payouts shows the custodian, its transaction ID and status on the payout journal entries', async () => {
		const [created] = await run([{}], createNative('fbc-list', RECIPIENT, '7000'));
		const rows = (await run([{}], { operation: 'listPayouts', status: 'all' })).filter(
			(row) => row.payoutId === 'fbc-list',
		);
		expect(rows.map((row) => row.outcome)).toEqual(['signed', 'status']);
		expect(rows[0]).toMatchObject({
			kind: 'custodianTransaction',
			custodian: 'fireblocks',
			account: vault(),
			chainId: '31337',
		});
		expect(rows[1]).toMatchObject({
			kind: 'custodianTransaction',
			custodian: 'fireblocks',
			custodianId: created.fireblocksId,
			custodianStatus: 'PENDING_AUTHORIZATION',
		});
	});

	it('Wait for Completion journals each status change it sees once, after the status of the create', async () => {
		const statusEntries = async (payoutId: string) =>
			(await run([{}], { operation: 'listPayouts', status: 'all' })).filter(
				(row) => row.payoutId === payoutId && row.outcome === 'status',
			);
		// Create Transaction waiting: approved after a few polls that see no change.
		const creating = run([{}], {
			...createNative('fbc-wait-create', RECIPIENT, '8000'),
			waitForCompletion: true,
			timeoutSeconds: 60,
		});
		await new Promise((resolve) => setTimeout(resolve, 5000));
		const id = String(
			devnet.fireblocks.transactions().find((tx) => tx.externalTxId === 'fbc-wait-create')?.id,
		);
		await devnet.fireblocks.approve(id);
		const [created] = await creating;
		expect(created).toMatchObject({ status: 'COMPLETED', timedOut: false });
		const entries = await statusEntries('fbc-wait-create');
		const words = entries.map((entry) => entry.custodianStatus);
		expect(words[0]).toBe('PENDING_AUTHORIZATION');
		expect(words[words.length - 1]).toBe('COMPLETED');
		expect(new Set(words).size).toBe(words.length);
		for (const entry of entries)
			expect(entry).toMatchObject({
				custodian: 'fireblocks',
				custodianId: id,
				kind: 'custodianTransaction',
			});
		expect(created.statusEntry).toBe(entries[entries.length - 1].seq);

		// Get Transaction waiting on another payout: its changes, none for the polls that saw none.
		const [other] = await run([{}], createNative('fbc-wait-get', RECIPIENT, '9000'));
		const getting = run([{}], {
			operation: 'getTransaction',
			payoutId: 'fbc-wait-get',
			waitForCompletion: true,
			timeoutSeconds: 60,
		});
		await new Promise((resolve) => setTimeout(resolve, 4500));
		devnet.fireblocks.reject(String(other.fireblocksId));
		const [got] = await getting;
		expect(got).toMatchObject({ status: 'REJECTED', timedOut: false });
		const gotEntries = await statusEntries('fbc-wait-get');
		expect(gotEntries.map((entry) => entry.custodianStatus)).toEqual([
			'PENDING_AUTHORIZATION',
			'REJECTED',
		]);
		expect(gotEntries[1]).toMatchObject({
			operation: 'getTransaction',
			chainId: '31337',
			custodianId: other.fireblocksId,
			account: vault(),
		});
	});
});
