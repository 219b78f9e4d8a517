/**
 * The custodial payout runs in the running n8n, against the devnet's custodian stand-ins (called by
 * run.ts in this order): via Fireblocks (examples/fireblocks-payout-run.devnet.json) with its
 * completion write-back (examples/fireblocks-payout-completed.devnet.json, active, its production
 * webhook URL subscribed at the stand-in): four transactions created and held, the row off Allowed
 * Recipients refused with no request for it; approved on the devnet, each amount moves once and each
 * genuine status is written back once while duplicate, replayed, out-of-order and forged deliveries
 * write nothing; a rerun, and a run under a new run ID whose create answer is dropped, create no more
 * than one transaction per row. Via Turnkey (examples/turnkey-payout-run.devnet.json): each row
 * signed and sent once, a rerun pays nobody and Turnkey signs nothing new.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { type PayoutRunFiles, runPayoutRun } from '../../playground/payoutRun';
import { EXAMPLE_IDS } from '../../playground/playground';
import { CUSTODY_CHAIN_ID, CUSTODY_PAYEES } from '../../playground/prepare';
import { EXAMPLES } from '../../playground/paths';
import { pause, until } from '../../playground/wait';
import { balanceOf } from '../helpers/chainReads';
import { assert, equal, jsonLines } from '../helpers/checks';
import type { Session } from './session';

const START = 'Start payout run';
const RUN_ID = 'fireblocks-payroll-2026-11';
const RUN_FILE = 'fireblocks-payout-run.json';
const STATUS_FILE = 'fireblocks-payout-statuses.jsonl';
const MALLORY = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
export const FIREBLOCKS_DONE_ID = EXAMPLE_IDS.fireblocksPayoutCompletedDevnet;

/** Both examples' stand-in sheet: USDC to devnet wallets 13, 14, 15 and 13; row 5 to Mallory, off Allowed Recipients. */
const ROWS = [
	{ rowId: '1', address: CUSTODY_PAYEES[0], units: 1_250_000_000n },
	{ rowId: '2', address: CUSTODY_PAYEES[1], units: 980_500_000n },
	{ rowId: '3', address: CUSTODY_PAYEES[2], units: 400_000_000n },
	{ rowId: '4', address: CUSTODY_PAYEES[0], units: 75_250_000n },
];

/**
 * The payout run via Fireblocks under another run ID (its own workflow ID), for the run whose create
 * answer is dropped: it has rows to create. Written once, imported beside the examples.
 */
export const FIREBLOCKS_OTHER_RUN_ID = 'expandTestFbRunOther';
const OTHER_RUN = 'fireblocks-payroll-2026-12';
export function fireblocksOtherRun(): string {
	const saved = readFileSync(path.join(EXAMPLES, 'fireblocks-payout-run.devnet.json'), 'utf8');
	assert(saved.includes(`runId: '${RUN_ID}'`), `the example's Run settings name run ${RUN_ID}`);
	const workflow = JSON.parse(saved.replace(`runId: '${RUN_ID}'`, `runId: '${OTHER_RUN}'`)) as {
		id: string;
		name: string;
		nodes: Array<{ id: string }>;
	};
	workflow.id = FIREBLOCKS_OTHER_RUN_ID;
	workflow.name = `${workflow.name}, run ${OTHER_RUN}`;
	for (const node of workflow.nodes)
		node.id = node.id.replace('expandFbRunDevnet', FIREBLOCKS_OTHER_RUN_ID);
	const dir = path.join(tmpdir(), 'expand-n8n-workflows');
	mkdirSync(dir, { recursive: true });
	const file = path.join(dir, 'fireblocks-payout-run-other.json');
	writeFileSync(file, JSON.stringify(workflow, null, 2));
	return file;
}

interface FireblocksRow {
	rowId: string;
	payoutId: string;
	status: string;
	reason: string;
	fireblocksId: string;
	fireblocksStatus: string;
}

interface StatusLine {
	payoutId: string;
	status: string;
	fireblocksId: string;
	fireblocksStatus: string;
	transactionHash: string;
	eventId: string;
}

function jsonFile<T>(file: string): T | undefined {
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as T;
	} catch {
		return undefined;
	}
}

/** USDC of the paying account, each payee and Mallory on chain 31337. */
async function holdings(session: Session, payer: string): Promise<Record<string, string>> {
	const { devnet } = session;
	const usdc = devnet.chains.find((entry) => entry.chainId === CUSTODY_CHAIN_ID)!.tokens.USDC;
	const state: Record<string, string> = {};
	for (const owner of [payer, ...CUSTODY_PAYEES, MALLORY])
		state[owner] = String(await balanceOf(devnet, CUSTODY_CHAIN_ID, owner, usdc.address));
	return state;
}

/** `before` with each row paid once from `payer`. */
function paidOnce(before: Record<string, string>, payer: string): Record<string, string> {
	const after = { ...before };
	for (const row of ROWS) {
		after[row.address] = String(BigInt(after[row.address]) + row.units);
		after[payer] = String(BigInt(after[payer]) - row.units);
	}
	return after;
}

const vaultOf = (session: Session) => session.devnet.fireblocks.addresses[CUSTODY_CHAIN_ID];

/** The creates the stand-in received (POST /v1/transactions). */
const creates = (session: Session) =>
	session.devnet.fireblocks.requests.filter(
		(request) => request.method === 'POST' && request.path === '/v1/transactions',
	).length;

/** The stand-in's requests naming row `rowId`'s payout ID of `runId` (its lookups by externalTxId). */
const requestsFor = (session: Session, runId: string, rowId: string) =>
	session.devnet.fireblocks.requests.filter((request) =>
		request.path.includes(encodeURIComponent(`${runId}-${rowId}`)),
	);

/** The completion workflow's production webhook URL: the trigger's webhookId and path. */
function completionUrl(session: Session): string {
	const saved = JSON.parse(
		readFileSync(path.join(EXAMPLES, 'fireblocks-payout-completed.devnet.json'), 'utf8'),
	) as { nodes: Array<{ type: string; webhookId?: string }> };
	const trigger = saved.nodes.find((node) => node.type.endsWith('.expandSignerTrigger'));
	assert(
		trigger?.webhookId,
		'the completion workflow has an Expand Signer Trigger with a webhookId',
	);
	return `http://127.0.0.1:${session.n8n.port}/webhook/${trigger.webhookId}/custodian`;
}

async function runFireblocks(session: Session, workflowId: string): Promise<FireblocksRow[]> {
	const file = session.out(RUN_FILE);
	rmSync(file, { force: true });
	await session.rest().runManually(workflowId, START);
	const [result] = await until(
		`the run result (${RUN_FILE})`,
		() => jsonFile<Array<{ rows: FireblocksRow[] }>>(file),
		120_000,
	);
	return result.rows;
}

let created: FireblocksRow[] = [];

export async function fireblocksPayoutCreated(session: Session): Promise<string> {
	const { fireblocks } = session.devnet;
	const url = completionUrl(session);
	const subscribed = await fetch(`${fireblocks.url}/devnet/webhooks`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ url }),
	});
	assert(subscribed.ok, `the stand-in subscribes ${url} (HTTP ${subscribed.status})`);
	const vault = vaultOf(session);
	const before = await holdings(session, vault);
	const createdBefore = fireblocks.created;
	const createsBefore = creates(session);
	const rows = await runFireblocks(session, EXAMPLE_IDS.fireblocksPayoutRunDevnet);
	equal(
		rows.map((row) => [row.rowId, row.payoutId, row.status, row.fireblocksStatus]),
		[
			...ROWS.map((row) => [
				row.rowId,
				`${RUN_ID}-${row.rowId}`,
				'created',
				'PENDING_AUTHORIZATION',
			]),
			['5', `${RUN_ID}-5`, 'refused', ''],
		],
		'rows 1 to 4 created at Fireblocks and held at PENDING_AUTHORIZATION, row 5 refused',
	);
	assert(
		rows[4].reason.includes('"allowedRecipients"') && rows[4].reason.includes(MALLORY),
		`row 5 refused naming the rule and the address (${rows[4].reason})`,
	);
	equal(requestsFor(session, RUN_ID, '5'), [], 'no request to Fireblocks names row 5');
	equal(fireblocks.created - createdBefore, ROWS.length, 'the stand-in created exactly 4');
	equal(creates(session) - createsBefore, ROWS.length, 'exactly 4 creates were sent');
	equal(new Set(rows.slice(0, 4).map((row) => row.fireblocksId)).size, 4, 'four transactions');
	equal(await holdings(session, vault), before, 'nothing moved');
	created = rows.slice(0, 4);
	return `4 created (${created.map((row) => row.fireblocksId.slice(0, 8)).join(', ')}), held at PENDING_AUTHORIZATION; row 5 refused (${rows[4].reason.split(':')[0]}), 0 requests for it; nothing moved`;
}

export async function fireblocksPayoutCompleted(session: Session): Promise<string> {
	assert(created.length === 4, 'the transactions of the previous check');
	const { devnet } = session;
	const { fireblocks } = devnet;
	const url = completionUrl(session);
	const vault = vaultOf(session);
	const before = await holdings(session, vault);
	const faults = ['badSignature', 'duplicate', 'outOfOrder', 'replay'] as const;
	const hashes: Record<string, string> = {};
	for (const [index, row] of created.entries()) {
		await fireblocks.webhooksIdle();
		fireblocks.webhookFaults[faults[index]] = 1;
		const done = await fireblocks.approve(row.fireblocksId);
		equal(done.status, 'COMPLETED', `transaction ${row.fireblocksId} completed`);
		hashes[row.payoutId] = String(done.txHash).toLowerCase();
	}
	await fireblocks.webhooksIdle();
	equal(await holdings(session, vault), paidOnce(before, vault), 'each amount moved exactly once');

	const file = session.out(STATUS_FILE);
	const completed = () =>
		jsonLines<StatusLine>(file).filter((line) => line.fireblocksStatus === 'COMPLETED').length;
	await until(`four COMPLETED lines in ${STATUS_FILE}`, () => completed() >= 4, 60_000);
	// A delivery written twice would be there by now.
	await pause(2000);
	const lines = jsonLines<StatusLine>(file);
	const ours = fireblocks.delivered.filter((delivery) => delivery.url === url);
	for (const kind of faults)
		assert(
			ours.some((delivery) => delivery.kind === kind),
			`the stand-in delivered a ${kind} event to n8n`,
		);
	const forged = new Set(ours.filter((d) => d.kind === 'badSignature').map((d) => d.eventId));
	const late = new Set(ours.filter((d) => d.kind === 'outOfOrder').map((d) => d.eventId));
	// The genuine deliveries: in order, with a true signature, answered 2xx; by event ID, their transaction and place.
	const genuine = new Map<string, { transaction: string; status: string; at: number }>();
	ours.forEach((delivery, at) => {
		if (delivery.kind !== 'event' || delivery.status < 200 || delivery.status >= 300) return;
		const { data } = JSON.parse(delivery.body) as { data: { id: string; status: string } };
		if (!genuine.has(delivery.eventId))
			genuine.set(delivery.eventId, { transaction: data.id, status: data.status, at });
	});
	const written = lines.map((line) => line.eventId);
	equal(new Set(written).size, written.length, 'each event written at most once');
	const strays = written.filter((eventId) => !genuine.has(eventId));
	equal(
		strays,
		[],
		'every line is a genuine delivery: none from a duplicate, a replay, a late or a forged one',
	);
	// n8n runs webhook executions side by side: a status whose execution ran after a newer one of its transaction
	// is out of order by then and writes nothing, as the trigger promises; any other genuine status is written.
	const superseded = [...genuine.entries()].filter(([eventId]) => !written.includes(eventId));
	for (const [eventId, missed] of superseded)
		assert(
			written.some((other) => {
				const event = genuine.get(other)!;
				return event.transaction === missed.transaction && event.at > missed.at;
			}),
			`event ${eventId} (${missed.status} of ${missed.transaction}) is written, or a newer status of its transaction is`,
		);
	for (const eventId of forged)
		assert(!written.includes(eventId), `the forged event ${eventId} wrote nothing`);
	const lateWritten = [...late].filter((eventId) => written.includes(eventId)).length;
	equal(
		created.map((row) =>
			lines
				.filter((line) => line.payoutId === row.payoutId && line.fireblocksStatus === 'COMPLETED')
				.map((line) => [line.status, line.fireblocksId, line.transactionHash.toLowerCase()]),
		),
		created.map((row) => [['paid', row.fireblocksId, hashes[row.payoutId]]]),
		'each payout written back paid exactly once, with its Fireblocks transaction and chain hash',
	);
	for (const row of created) {
		const statuses = lines
			.filter((line) => line.payoutId === row.payoutId)
			.map((line) => line.fireblocksStatus);
		equal(new Set(statuses).size, statuses.length, `payout ${row.payoutId}: each status once`);
		const receipt = await devnet.rpc<{ status: string }>(
			CUSTODY_CHAIN_ID,
			'eth_getTransactionReceipt',
			[hashes[row.payoutId]],
		);
		equal(receipt?.status, '0x1', `payout ${row.payoutId}'s transaction mined`);
	}
	return `4 approved: balances moved exactly; ${lines.length} status lines (overtaken in n8n by a newer status: ${superseded.map(([, missed]) => missed.status).join(', ') || 'none'}), 4 COMPLETED once each; ${ours.filter((d) => d.kind !== 'event').length} faulty deliveries (duplicate, replayed, out of order, forged) wrote no status twice and nothing forged (the late one ${lateWritten ? 'ran before its newer status in n8n, written once' : 'wrote nothing'})`;
}

export async function fireblocksPayoutAgain(session: Session): Promise<string> {
	assert(created.length === 4, 'the transactions of the first check');
	const { fireblocks } = session.devnet;
	const vault = vaultOf(session);
	const before = await holdings(session, vault);
	const createdBefore = fireblocks.created;
	const createsBefore = creates(session);
	const again = await runFireblocks(session, EXAMPLE_IDS.fireblocksPayoutRunDevnet);
	equal(
		again.map((row) => [row.rowId, row.status, row.fireblocksId, row.fireblocksStatus]),
		[
			...created.map((row) => [row.rowId, 'created earlier', row.fireblocksId, 'COMPLETED']),
			['5', 'refused', '', ''],
		],
		'run again: every row created earlier (the same transaction, COMPLETED), row 5 refused',
	);
	equal(fireblocks.created, createdBefore, 'the rerun created nothing');
	equal(creates(session), createsBefore, 'the rerun sent no create');

	// A new run ID, the stand-in processing a create and dropping its answer.
	fireblocks.faults.dropCreateAnswers = 1;
	const other = await runFireblocks(session, FIREBLOCKS_OTHER_RUN_ID);
	equal(fireblocks.faults.dropCreateAnswers, 0, "the stand-in dropped a create's answer");
	equal(
		other.map((row) => [row.rowId, row.payoutId, row.fireblocksStatus]),
		[
			...ROWS.map((row) => [row.rowId, `${OTHER_RUN}-${row.rowId}`, 'PENDING_AUTHORIZATION']),
			['5', `${OTHER_RUN}-5`, ''],
		],
		'the new run: rows 1 to 4 held at Fireblocks, row 5 refused',
	);
	equal(fireblocks.created - createdBefore, ROWS.length, 'one transaction per row, none twice');
	const ids = other.slice(0, 4).map((row) => row.fireblocksId);
	equal(new Set(ids).size, 4, 'four distinct transactions');
	const byExternalId = fireblocks
		.transactions()
		.filter((tx) => String(tx.externalTxId).startsWith(`${OTHER_RUN}-`));
	equal(byExternalId.length, ROWS.length, 'the stand-in holds one transaction per payout ID');
	const posts = creates(session) - createsBefore;
	const rerun = await runFireblocks(session, FIREBLOCKS_OTHER_RUN_ID);
	equal(
		rerun.map((row) => [row.status, row.fireblocksId]),
		[...ids.map((id) => ['created earlier', id]), ['refused', '']],
		'the new run again: every row created earlier',
	);
	equal(fireblocks.created - createdBefore, ROWS.length, 'and nothing more created');
	equal(requestsFor(session, OTHER_RUN, '5'), [], 'no request to Fireblocks names row 5');
	equal(await holdings(session, vault), before, 'nothing moved');
	return `rerun: 0 created; a new run with a create answer dropped: ${ROWS.length} created (${posts} creates sent, statuses ${other
		.slice(0, 4)
		.map((row) => row.status)
		.join(', ')}), its rerun 0`;
}

const TURNKEY_FILES: PayoutRunFiles = {
	approval: 'turnkey-payout-approval.json',
	result: 'turnkey-payout-run.json',
};

async function runTurnkey(session: Session) {
	const { result } = await runPayoutRun(
		session.out,
		() => session.rest().runManually(EXAMPLE_IDS.turnkeyPayoutRunDevnet, START),
		'approve',
		TURNKEY_FILES,
	);
	return result.rows as Array<(typeof result.rows)[number] & { reason: string }>;
}

export async function turnkeyPayoutRun(session: Session): Promise<string> {
	const { turnkey } = session.devnet;
	const payer = turnkey.accounts.evm;
	const counts = () => [turnkey.activities().length, turnkey.signatures];
	const before = await holdings(session, payer);
	const [activities, signatures] = counts();
	const rows = await runTurnkey(session);
	equal(
		rows.map((row) => [row.rowId, row.status]),
		[...ROWS.map((row) => [row.rowId, 'paid']), ['5', 'refused']],
		'rows 1 to 4 paid, row 5 refused',
	);
	assert(
		rows[4].reason.includes('"allowedRecipients"') && rows[4].reason.includes(MALLORY),
		`row 5 refused naming the rule and the address (${rows[4].reason})`,
	);
	equal(counts(), [activities + 4, signatures + 4], 'Turnkey: 4 activities, 4 signatures');
	equal(await holdings(session, payer), paidOnce(before, payer), 'each amount moved exactly once');

	const again = await runTurnkey(session);
	equal(
		again.map((row) => [row.rowId, row.status, row.transactionHash]),
		[
			...rows.slice(0, 4).map((row) => [row.rowId, 'paid earlier', row.transactionHash]),
			['5', 'refused', ''],
		],
		'run again: every row paid earlier with the same transaction, row 5 refused',
	);
	equal(counts(), [activities + 4, signatures + 4], 'Turnkey signed nothing new');
	equal(await holdings(session, payer), paidOnce(before, payer), 'nobody paid twice');
	return `4 signed by Turnkey and sent once, row 5 refused before Turnkey; run again: 0 activities, 0 signatures, nobody paid`;
}
