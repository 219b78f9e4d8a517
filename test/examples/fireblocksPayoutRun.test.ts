/**
 * The stablecoin payout run via Fireblocks (examples/fireblocks-payout-run.devnet.json, as saved,
 * through n8n-core's engine) against the devnet's Fireblocks stand-in, with the playground's
 * Fireblocks credential (vault account 0, its payees listed, USDC capped per transfer): four
 * transactions created and held for approval, the row off Allowed Recipients refused by the Signer
 * with no request to Fireblocks for it; approved on the devnet, each amount moves once; a rerun
 * creates nothing.
 */
import type { Devnet } from '../../devnet';
import { CUSTODY_CHAIN_ID, fireblocksPayoutKey } from '../../playground/prepare';
// The engine is released after the file's tests.
import '../helpers/n8n';
import { balanceOf } from '../helpers/chainReads';
import { devnetExpandApi } from '../helpers/devnetCredentials';
import { payoutLedger, payoutResults, runApprovedExample } from '../helpers/examplePayoutRun';
import { useDevnet } from '../helpers/useDevnet';

const ledger = payoutLedger('fireblocks-payout-run-');
const RUN_ID = 'fireblocks-payroll-2026-11';
const MALLORY = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ROWS = [
	{ rowId: '1', address: '0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec', units: 1_250_000_000n },
	{ rowId: '2', address: '0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097', units: 980_500_000n },
	{ rowId: '3', address: '0xcd3B766CCDd6AE721141F452C550Ca635964ce71', units: 400_000_000n },
	{ rowId: '4', address: '0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec', units: 75_250_000n },
];

let devnet: Devnet;
useDevnet((started) => {
	devnet = started;
});

const runExample = () =>
	runApprovedExample('fireblocks-payout-run.devnet.json', {
		expandApi: devnetExpandApi(devnet),
		expandFireblocksApi: fireblocksPayoutKey(devnet, ledger),
	});

/** USDC of the vault, each payee and Mallory. */
async function holdings(): Promise<Record<string, string>> {
	const chain = devnet.chains.find((entry) => entry.chainId === CUSTODY_CHAIN_ID)!;
	const vault = devnet.fireblocks.addresses[CUSTODY_CHAIN_ID];
	const state: Record<string, string> = {};
	for (const owner of [vault, ...new Set(ROWS.map((row) => row.address)), MALLORY])
		state[owner] = String(
			await balanceOf(devnet, CUSTODY_CHAIN_ID, owner, chain.tokens.USDC.address),
		);
	return state;
}

/** Creates the stand-in received. */
const creates = () =>
	devnet.fireblocks.requests.filter(
		(request) => request.method === 'POST' && request.path === '/v1/transactions',
	).length;

/** The stand-in's requests that name a payout ID of row `rowId` (its lookups by externalTxId). */
const requestsFor = (rowId: string) =>
	devnet.fireblocks.requests.filter((request) =>
		JSON.stringify(request).includes(`${RUN_ID}-${rowId}`),
	);

let created: Array<Record<string, string>> = [];

test('four transactions created and held for approval, nothing moves; the row off Allowed Recipients refused naming the rule and the address, no request to Fireblocks for it', async () => {
	const before = await holdings();
	const createdBefore = devnet.fireblocks.created;
	const createsBefore = creates();
	const result = await runExample();
	expect(result.error).toBeUndefined();
	const rows = payoutResults(result);
	expect(rows.map((row) => [row.rowId, row.payoutId, row.status, row.fireblocksStatus])).toEqual([
		...ROWS.map((row) => [row.rowId, `${RUN_ID}-${row.rowId}`, 'created', 'PENDING_AUTHORIZATION']),
		['5', `${RUN_ID}-5`, 'refused', ''],
	]);
	expect(rows[4].reason).toContain('"allowedRecipients"');
	expect(rows[4].reason).toContain(MALLORY);
	expect(requestsFor('5')).toEqual([]);
	expect(devnet.fireblocks.created).toBe(createdBefore + 4);
	expect(creates()).toBe(createsBefore + 4);
	expect(await holdings()).toEqual(before);
	created = rows.slice(0, 4);
});

test('approved on the devnet: each amount moves exactly once, the vault pays the total', async () => {
	const before = await holdings();
	for (const row of created) {
		const done = await devnet.fireblocks.approve(row.fireblocksId);
		expect([row.rowId, done.status]).toEqual([row.rowId, 'COMPLETED']);
	}
	const expected = { ...before };
	const vault = devnet.fireblocks.addresses[CUSTODY_CHAIN_ID];
	for (const row of ROWS) {
		expected[row.address] = String(BigInt(expected[row.address]) + row.units);
		expected[vault] = String(BigInt(expected[vault]) - row.units);
	}
	expect(await holdings()).toEqual(expected);
});

test('run again: nothing created, every payee row "created earlier" with its transaction, now COMPLETED; the off-list row refused again', async () => {
	const before = await holdings();
	const createdBefore = devnet.fireblocks.created;
	const createsBefore = creates();
	const result = await runExample();
	expect(result.error).toBeUndefined();
	const rows = payoutResults(result);
	expect(
		rows.map((row) => [row.rowId, row.status, row.fireblocksId, row.fireblocksStatus]),
	).toEqual([
		...created.map((row) => [row.rowId, 'created earlier', row.fireblocksId, 'COMPLETED']),
		['5', 'refused', '', ''],
	]);
	expect(devnet.fireblocks.created).toBe(createdBefore);
	expect(creates()).toBe(createsBefore);
	expect(requestsFor('5')).toEqual([]);
	expect(await holdings()).toEqual(before);
});
