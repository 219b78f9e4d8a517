/**
 * Expand Signer Trigger against real HTTP on 127.0.0.1: custodians' events signed here with keys
 * published by a JWKS server, delivered to a receiver that runs the node as n8n does; the payout
 * journal read back from the ledger folder.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';

import type { INode } from 'n8n-workflow';

import { PayoutJournal } from '../../../packages/signer/nodes/ExpandSigner/ledger/journal';
import { SharedFolder } from '../../../packages/signer/nodes/ExpandSigner/ledger/sharedFolder';
import { forgetJwks } from '../../../packages/signer/nodes/ExpandSigner/trigger/jwks';
import { ledgerFolder } from '../../helpers/ledgerFolder';
import {
	deliver,
	edKeys,
	fireblocksDelivery,
	fireblocksEventBody,
	JwksServer,
	type Receiver,
	rsaKeys,
	startReceiver,
	turnkeyDelivery,
	turnkeyEventBody,
} from './webhookRun';

const root = ledgerFolder('custodian-events-');
let folders = 0;
const newFolder = () => mkdtempSync(join(root, `ledger-${++folders}-`));

const rsa = rsaKeys();
const rsaOther = rsaKeys();
const ed = edKeys();
let jwks: JwksServer;
const receivers: Receiver[] = [];

beforeAll(async () => {
	jwks = await new JwksServer().start();
	jwks.publish('fb-1', rsa.publicKey, { alg: 'RS512' });
	jwks.publish('tk-1', ed.publicKey, { alg: 'EdDSA' });
});
afterAll(async () => {
	for (const receiver of receivers) await receiver.stop();
	await jwks.stop();
});
beforeEach(() => forgetJwks());

async function fireblocksReceiver(folder: string, extra: object = {}) {
	const receiver = await startReceiver(
		{ custodian: 'fireblocks', jwksUrl: jwks.url, ...extra },
		{ expandFireblocksApi: { baseUrl: 'http://127.0.0.1:9', payoutLedgerFolder: folder } },
	);
	receivers.push(receiver);
	return receiver;
}

async function turnkeyReceiver(folder: string) {
	const receiver = await startReceiver(
		{ custodian: 'turnkey', chainFamily: 'evm', jwksUrl: jwks.url },
		{ expandSignerApi: { keyType: 'turnkey', payoutLedgerFolder: folder } },
	);
	receivers.push(receiver);
	return receiver;
}

const node = { name: 'reader' } as INode;
const fileHelpers = () => {
	// The folder's records read back as the Signer reads them, through n8n-core's own file helpers.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const {
		getFileSystemHelperFunctions,
	} = require('n8n-core/dist/execution-engine/node-execution-context/utils/file-system-helper-functions');
	return getFileSystemHelperFunctions(node);
};
async function journalOf(folder: string) {
	const journal = new PayoutJournal(node, new SharedFolder(node, fileHelpers(), folder), {
		family: 'test',
		workflowId: '',
		executionId: '',
		node: '',
	});
	return await journal.entries(0);
}

const statuses = (receiver: Receiver) => receiver.emitted.flat().map((item) => item.json.status);

describe('Fireblocks', () => {
	test('a genuine event emits once and is journalled once; its duplicate emits nothing', async () => {
		const folder = newFolder();
		const receiver = await fireblocksReceiver(folder);
		const body = fireblocksEventBody('tx-1', 'PENDING_AUTHORIZATION', { externalTxId: 'payout-7' });
		const delivery = fireblocksDelivery(body, 'fb-1', rsa.privateKey);
		expect((await deliver(receiver.url, delivery)).status).toBe(200);
		expect((await deliver(receiver.url, delivery)).status).toBe(200);
		expect(receiver.emitted).toHaveLength(1);
		const [item] = receiver.emitted[0];
		expect(item.json).toMatchObject({
			custodian: 'fireblocks',
			eventId: body.id,
			eventType: 'transaction.status.updated',
			transactionId: 'tx-1',
			payoutId: 'payout-7',
			status: 'PENDING_AUTHORIZATION',
			amount: '12.5',
			assetId: 'ETH_DEVNET',
			journalEntry: 1,
		});
		const entries = await journalOf(folder);
		expect(entries).toHaveLength(1);
		expect(entries[0]).toMatchObject({
			outcome: 'status',
			kind: 'custodianTransaction',
			custodian: 'fireblocks',
			custodianId: 'tx-1',
			custodianStatus: 'PENDING_AUTHORIZATION',
			payoutId: 'payout-7',
		});
		expect(receiver.warnings).toEqual([]);
	});

	test('statuses in order emit each with the previous one; an older status after a newer emits nothing', async () => {
		const folder = newFolder();
		const receiver = await fireblocksReceiver(folder);
		for (const status of ['SUBMITTED', 'PENDING_AUTHORIZATION', 'COMPLETED', 'CONFIRMING'])
			await deliver(
				receiver.url,
				fireblocksDelivery(fireblocksEventBody('tx-2', status), 'fb-1', rsa.privateKey),
			);
		expect(statuses(receiver)).toEqual(['SUBMITTED', 'PENDING_AUTHORIZATION', 'COMPLETED']);
		expect(receiver.emitted[2][0].json).toMatchObject({
			previousStatus: 'PENDING_AUTHORIZATION',
			txHash: `0x${'ab'.repeat(32)}`,
		});
		// A second terminal status (same rank) after COMPLETED is out of order too.
		await deliver(
			receiver.url,
			fireblocksDelivery(fireblocksEventBody('tx-2', 'FAILED'), 'fb-1', rsa.privateKey),
		);
		expect(statuses(receiver)).toHaveLength(3);
		expect(
			(await journalOf(folder)).map((entry) => 'custodianStatus' in entry && entry.custodianStatus),
		).toEqual(['SUBMITTED', 'PENDING_AUTHORIZATION', 'COMPLETED']);
	});

	test('a forged delivery is refused with 401, logged with its reason, and runs nothing', async () => {
		const folder = newFolder();
		const receiver = await fireblocksReceiver(folder);
		const genuine = fireblocksDelivery(
			fireblocksEventBody('tx-3', 'COMPLETED'),
			'fb-1',
			rsa.privateKey,
		);
		const tampered = { ...genuine, body: genuine.body.replace('12.5', '125.0') };
		const wrongKey = fireblocksDelivery(
			fireblocksEventBody('tx-3', 'COMPLETED'),
			'fb-1',
			rsaOther.privateKey,
		);
		const unknownKid = fireblocksDelivery(
			fireblocksEventBody('tx-3', 'COMPLETED'),
			'fb-nope',
			rsa.privateKey,
		);
		const missing = { body: genuine.body, headers: {} };
		const hs256 = {
			body: genuine.body,
			headers: {
				'Fireblocks-Webhook-Signature': `${Buffer.from('{"alg":"HS256","kid":"fb-1"}').toString('base64url')}..AAAA`,
			},
		};
		for (const delivery of [tampered, wrongKey, unknownKid, missing, hs256])
			expect(await deliver(receiver.url, delivery)).toMatchObject({ status: 401 });
		expect(receiver.executions).toBe(0);
		expect(receiver.emitted).toEqual([]);
		expect(await journalOf(folder)).toEqual([]);
		expect(receiver.warnings).toEqual([
			'Expand Signer Trigger refused a fireblocks webhook: the signature does not verify with key "fb-1"',
			'Expand Signer Trigger refused a fireblocks webhook: the signature does not verify with key "fb-1"',
			'Expand Signer Trigger refused a fireblocks webhook: no key "fb-nope" in the JWKS',
			'Expand Signer Trigger refused a fireblocks webhook: the Fireblocks-Webhook-Signature header is missing',
			'Expand Signer Trigger refused a fireblocks webhook: the JWS algorithm is "HS256", not RS512',
		]);
		for (const warning of receiver.warnings) expect(warning).not.toContain('12.5');
	});

	test('an event created outside the replay window is refused and runs nothing', async () => {
		const receiver = await fireblocksReceiver(newFolder(), { replayWindow: 60 });
		const old = fireblocksEventBody('tx-4', 'COMPLETED', { createdAt: Date.now() - 120_000 });
		expect(
			await deliver(receiver.url, fireblocksDelivery(old, 'fb-1', rsa.privateKey)),
		).toMatchObject({ status: 401 });
		expect(receiver.executions).toBe(0);
		expect(receiver.warnings[0]).toMatch(
			/is outside the replay window \(12\d s from now, window 60 s\)/,
		);
	});

	test('two processes sharing the ledger receive the same event: it is emitted once', async () => {
		const folder = newFolder();
		const [one, two] = [await fireblocksReceiver(folder), await fireblocksReceiver(folder)];
		const delivery = fireblocksDelivery(
			fireblocksEventBody('tx-5', 'BROADCASTING'),
			'fb-1',
			rsa.privateKey,
		);
		await Promise.all([
			deliver(one.url, delivery),
			deliver(two.url, delivery),
			deliver(one.url, delivery),
		]);
		expect(one.executions + two.executions).toBe(3);
		expect([...statuses(one), ...statuses(two)]).toEqual(['BROADCASTING']);
		expect(await journalOf(folder)).toHaveLength(1);
	});

	test('a rotated key (a new kid) is fetched from the JWKS and verifies', async () => {
		const receiver = await fireblocksReceiver(newFolder());
		await deliver(
			receiver.url,
			fireblocksDelivery(fireblocksEventBody('tx-6', 'SUBMITTED'), 'fb-1', rsa.privateKey),
		);
		const fetched = jwks.fetches;
		const rotated = rsaKeys();
		jwks.publish('fb-2', rotated.publicKey, { alg: 'RS512' });
		await new Promise((resolve) => setTimeout(resolve, 1100));
		const answer = await deliver(
			receiver.url,
			fireblocksDelivery(fireblocksEventBody('tx-6', 'QUEUED'), 'fb-2', rotated.privateKey),
		);
		expect(answer.status).toBe(200);
		expect(jwks.fetches).toBe(fetched + 1);
		expect(statuses(receiver)).toEqual(['SUBMITTED', 'QUEUED']);
	});

	test('without a payout ledger the receiver refuses to take events, saying why', async () => {
		const receiver = await startReceiver(
			{ custodian: 'fireblocks', jwksUrl: jwks.url },
			{ expandFireblocksApi: { baseUrl: 'sandbox' } },
		);
		receivers.push(receiver);
		const answer = await deliver(
			receiver.url,
			fireblocksDelivery(fireblocksEventBody('tx-7', 'SUBMITTED'), 'fb-1', rsa.privateKey),
		);
		expect(answer.status).toBe(503);
		expect(receiver.executions).toBe(0);
		expect(receiver.warnings[0]).toMatch(/The credential has no payout ledger/);
	});
});

describe('Turnkey', () => {
	test('a genuine activity status emits once and is journalled; duplicates, replays and forgeries do nothing', async () => {
		const folder = newFolder();
		const receiver = await turnkeyReceiver(folder);
		const genuine = turnkeyDelivery(
			turnkeyEventBody('act-1', 'ACTIVITY_STATUS_CONSENSUS_NEEDED'),
			'tk-1',
			ed.privateKey,
		);
		expect((await deliver(receiver.url, genuine)).status).toBe(200);
		expect((await deliver(receiver.url, genuine)).status).toBe(200);
		expect(receiver.emitted).toHaveLength(1);
		expect(receiver.emitted[0][0].json).toMatchObject({
			custodian: 'turnkey',
			eventId: genuine.headers['X-Turnkey-Event-Id'],
			eventType: 'ACTIVITY_UPDATES',
			transactionId: 'act-1',
			payoutId: '',
			status: 'ACTIVITY_STATUS_CONSENSUS_NEEDED',
			journalEntry: 1,
		});
		const stale = turnkeyDelivery(
			turnkeyEventBody('act-1', 'ACTIVITY_STATUS_COMPLETED'),
			'tk-1',
			ed.privateKey,
			{
				timestampMs: Date.now() - 301_000,
			},
		);
		const tampered = {
			...genuine,
			headers: { ...genuine.headers, 'X-Turnkey-Event-Id': 'other-event' },
		};
		const noSignature = { ...genuine, headers: { ...genuine.headers, 'X-Turnkey-Signature': '' } };
		for (const delivery of [stale, tampered, noSignature])
			expect(await deliver(receiver.url, delivery)).toMatchObject({ status: 401 });
		expect(receiver.warnings).toEqual([
			expect.stringMatching(
				/^Expand Signer Trigger refused a turnkey webhook: event .* is outside the replay window/,
			),
			'Expand Signer Trigger refused a turnkey webhook: the signature does not verify with key "tk-1"',
			'Expand Signer Trigger refused a turnkey webhook: the header x-turnkey-signature is missing',
		]);
		const completed = turnkeyDelivery(
			turnkeyEventBody('act-1', 'ACTIVITY_STATUS_COMPLETED'),
			'tk-1',
			ed.privateKey,
		);
		const older = turnkeyDelivery(
			turnkeyEventBody('act-1', 'ACTIVITY_STATUS_PENDING'),
			'tk-1',
			ed.privateKey,
		);
		await deliver(receiver.url, completed);
		await deliver(receiver.url, older);
		expect(statuses(receiver)).toEqual([
			'ACTIVITY_STATUS_CONSENSUS_NEEDED',
			'ACTIVITY_STATUS_COMPLETED',
		]);
		const entries = await journalOf(folder);
		expect(
			entries.map(
				(entry) =>
					'custodianStatus' in entry && [entry.custodian, entry.custodianId, entry.custodianStatus],
			),
		).toEqual([
			['turnkey', 'act-1', 'ACTIVITY_STATUS_CONSENSUS_NEEDED'],
			['turnkey', 'act-1', 'ACTIVITY_STATUS_COMPLETED'],
		]);
	});

	test('a JWKS server that is down: nothing is emitted, and the log says the JWKS could not be fetched', async () => {
		const down = await new JwksServer().start();
		const url = down.url;
		await down.stop();
		const receiver = await startReceiver(
			{ custodian: 'turnkey', chainFamily: 'evm', jwksUrl: url },
			{ expandSignerApi: { keyType: 'turnkey', payoutLedgerFolder: newFolder() } },
		);
		receivers.push(receiver);
		const answer = await deliver(
			receiver.url,
			turnkeyDelivery(
				turnkeyEventBody('act-2', 'ACTIVITY_STATUS_COMPLETED'),
				'tk-1',
				ed.privateKey,
			),
		);
		expect(answer.status).toBe(401);
		expect(receiver.executions).toBe(0);
		expect(receiver.warnings).toEqual([
			`Expand Signer Trigger refused a turnkey webhook: the JWKS at ${url} could not be fetched (ECONNREFUSED)`,
		]);
	});
});
