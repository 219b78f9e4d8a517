/**
 * Fireblocks requests go through the core's paced send (nodes/shared/transport, reached through the
 * signer's door): Max Requests per Second paces every execution using the credential together, a 429
 * is retried after its Retry-After, a read after a 5xx, and a create's 5xx is never sent blindly again:
 * the payout is looked up by its externalTxId first.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { getAddress } from 'ethers';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { useDevnet } from '../../../helpers/useDevnet';
import { createNative, runFireblocks } from './fireblocksRun';

const RECIPIENT = getAddress('0x' + 'c8'.repeat(20));

const ledger = mkdtempSync(join(tmpdir(), 'fireblocks-transport-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledger;

let devnet: Devnet;
useDevnet((started) => (devnet = started));
afterAll(() => rmSync(ledger, { recursive: true, force: true }));

const run = async (items: IDataObject[], parameters: INodeParameters, policy: IDataObject = {}) =>
	await runFireblocks(devnet, ledger, items, parameters, { policy });
const since = (start: number) => devnet.fireblocks.requests.slice(start);

beforeAll(async () => {
	devnet.fireblocks.autoApprove = false;
	await run([{}], createNative('fbx-known', RECIPIENT, '1000'));
});

test("a create's 5xx is followed by a lookup, and only then by the one create that lands", async () => {
	const start = devnet.fireblocks.requests.length;
	devnet.fireblocks.faults.createServerErrors = 1;
	const [out] = await run([{}], createNative('fbx-5xx', RECIPIENT, '1000'));
	expect(out).toMatchObject({ created: true, status: 'PENDING_AUTHORIZATION' });
	expect(
		since(start)
			.filter((request) => request.path.startsWith('/v1/transactions'))
			.map((request) => `${request.method} ${request.status}`),
	).toEqual(['GET 404', 'POST 500', 'GET 404', 'POST 200', 'GET 200']);
	expect(
		devnet.fireblocks.transactions().filter((tx) => tx.externalTxId === 'fbx-5xx'),
	).toHaveLength(1);
});

test('a read answered 5xx is tried again; a 429 waits its Retry-After', async () => {
	const start = devnet.fireblocks.requests.length;
	devnet.fireblocks.faults.serverErrors = 1;
	const [read] = await run([{}], { operation: 'getTransaction', payoutId: 'fbx-known' });
	expect(read).toMatchObject({ status: 'PENDING_AUTHORIZATION' });
	expect(since(start).map((request) => `${request.method} ${request.status}`)).toEqual([
		'GET 500',
		'GET 200',
	]);
	const before = devnet.fireblocks.requests.length;
	devnet.fireblocks.faults.tooManyRequests = 1;
	devnet.fireblocks.faults.retryAfterSeconds = 1;
	const started = Date.now();
	const [again] = await run([{}], { operation: 'getTransaction', payoutId: 'fbx-known' });
	expect(Date.now() - started).toBeGreaterThanOrEqual(950);
	expect(again).toMatchObject({ status: 'PENDING_AUTHORIZATION' });
	expect(since(before).map((request) => request.status)).toEqual([429, 200]);
});

test('Max Requests per Second paces two executions with the credential together', async () => {
	const items = [{}, {}, {}];
	const read = { operation: 'getTransaction', payoutId: 'fbx-known' };
	const start = devnet.fireblocks.requests.length;
	const started = Date.now();
	// Six reads at 3 per second, from two executions at once: at least 5 gaps of a third of a second.
	const outs = await Promise.all([
		run(items, read, { maxRequestsPerSecond: 3 }),
		run(items, read, { maxRequestsPerSecond: 3 }),
	]);
	expect(Date.now() - started).toBeGreaterThanOrEqual(1600);
	expect(outs.flat().every((json) => json.status === 'PENDING_AUTHORIZATION')).toBe(true);
	expect(since(start)).toHaveLength(6);
});
