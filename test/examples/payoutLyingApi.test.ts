/**
 * Both payout examples (their devnet variants, as saved, through n8n-core's engine) against an API
 * that lies about the transactions it builds (devnet/gateway/faults/lies.ts): a form answered with several
 * copies of its transaction, with none, with another form's, or Bob's with none and Alice's with two.
 * The chain's balances and the proposals the Safe service stand-in holds show what each run paid or
 * proposed. First the examples as they paired the Expand outputs with the rows by position
 * (test/examples/positional/, the examples before issue 32): Alice paid twice and Bob nothing, the
 * totals matching the sheet. Then the examples as they are: every lie stops the run before the
 * approval and before anything is signed or proposed, naming the row; nothing moves.
 *
 * The stand-in sheet of three rows replaces the example's (Alice and Bob are the rows the lies aim
 * at), and the approver approves (the Wait node's answer): the rest of each workflow runs as saved.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { getAddress } from 'ethers';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { Devnet } from '../../devnet';
import { readSavedWorkflow, runSavedWorkflow } from '../../scripts/engine/savedWorkflow';
import type { SavedWorkflow } from '../../scripts/engine/savedWorkflow';
import { balanceOf } from '../helpers/chainReads';
// The engine is released after the file's tests.
import '../helpers/n8n';
import type { RunResult } from '../helpers/n8n';
import {
	LIE_MODES,
	type LieMode,
	lieAgainst,
	type Payment,
	paymentsProposedSince,
	proposalsHeld,
} from '../helpers/payoutLies';
import { devnetExpandApi } from '../helpers/devnetCredentials';
import { useDevnet } from '../helpers/useDevnet';

const root = path.join(__dirname, '..', '..');
const LEDGERS = mkdtempSync(path.join(tmpdir(), 'payout-lies-'));
// n8n lets nodes write only below this folder (the Signer's payout ledgers).
process.env.N8N_RESTRICT_FILE_ACCESS_TO = LEDGERS;

const ALICE = getAddress('0x' + 'a1'.repeat(20));
const BOB = getAddress('0x' + 'b0'.repeat(20));
const CAROL = getAddress('0x' + 'c0'.repeat(20));
/** The sheet: USDC to Alice, Bob and Carol (whole units, as the sheet has them, and in the smallest unit). */
const SHEET = [
	{ rowId: '1', name: 'Alice', address: ALICE, amount: '100', units: 100_000_000n },
	{ rowId: '2', name: 'Bob', address: BOB, amount: '250', units: 250_000_000n },
	{ rowId: '3', name: 'Carol', address: CAROL, amount: '40', units: 40_000_000n },
];
const SHEET_TOTAL = SHEET.reduce((sum, row) => sum + row.units, 0n);

interface Example {
	name: string;
	file: string;
	/** The node that signs or proposes, and the Signer credential's key. */
	signer: string;
	key(devnet: Devnet): string;
	/** The node that runs only once the run is approved (the hot-key run asks; the Safe run's owners approve in Safe{Wallet}). */
	approval?: string;
}

const EXAMPLES: Example[] = [
	{
		name: 'stablecoin payout run (hot key)',
		file: 'stablecoin-payout-run.devnet.json',
		signer: 'Sign payouts',
		key: (devnet) => devnet.chains[0].wallets[3].privateKey,
		approval: 'Ask for approval',
	},
	{
		name: 'payout run via Safe (proposals)',
		file: 'safe-payout-run.devnet.json',
		signer: 'Propose to Safe',
		key: (devnet) => devnet.safe.delegate.privateKey,
	},
];

let devnet: Devnet;
useDevnet((started) => (devnet = started));
afterAll(() => {
	rmSync(LEDGERS, { recursive: true, force: true });
});
afterEach(() => {
	devnet.faults.lie = undefined;
});

const usdc = () => devnet.chains[0].tokens.USDC.address;

/** The example with the test's sheet, approved by the approver: every other node as saved. */
function prepared(file: string): SavedWorkflow {
	const workflow = readSavedWorkflow(file);
	const rows = SHEET.map(({ rowId, name, address, amount }) => ({
		rowId,
		name,
		address,
		token: 'USDC',
		amount,
	}));
	for (const node of workflow.nodes) {
		if (node.name === 'Payout sheet')
			node.parameters = { jsCode: `return ${JSON.stringify(rows)}.map((json) => ({ json }));` };
		if (node.name === 'Wait for approval')
			Object.assign(node, {
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				parameters: { jsCode: "return [{ json: { query: { approved: 'true' } } }];" },
			});
	}
	return workflow;
}

/** A policy as the issue's: the payees listed, Require Intent Always, caps per transaction and execution. */
function credentials(example: Example): Record<string, ICredentialDataDecryptedObject> {
	const cap = (limit: string) => `${usdc()}:6@31337 = ${limit}`;
	return {
		expandApi: devnetExpandApi(devnet),
		expandSignerApi: {
			keyType: 'privateKey',
			privateKey: example.key(devnet),
			payoutLedgerFolder: mkdtempSync(path.join(LEDGERS, 'run-')),
			allowedRecipients: SHEET.map((row) => row.address).join(', '),
			requireIntent: 'always',
			maxPerTransaction: cap('5000'),
			maxPerExecution: cap('10000'),
		},
		expandSafeApi: {
			serviceUrl: devnet.safe.serviceUrl,
			apiKey: devnet.safe.apiKey ?? '',
			maxRequestsPerSecond: 5,
		},
	};
}

const payeeBalances = () =>
	Promise.all(SHEET.map((row) => balanceOf(devnet, '31337', row.address, usdc())));

interface Outcome {
	result: RunResult;
	/** What each payee of the sheet received, by name (smallest unit). */
	received: Record<string, string>;
	/** The payments the proposals the run posted would make. */
	proposed: Payment[];
	/** Whether a node ran in the run. */
	ran(node: string): boolean;
}

async function runExample(
	example: Example,
	file: string,
	mode: LieMode | undefined,
): Promise<Outcome> {
	const [alice, bob] = SHEET.map((row) => ({ address: row.address, units: String(row.units) }));
	const balancesBefore = await payeeBalances();
	const proposalsBefore = await proposalsHeld(devnet);
	devnet.faults.lie = mode && lieAgainst(mode, alice, bob);
	const result = await runSavedWorkflow(prepared(file), credentials(example));
	devnet.faults.lie = undefined;
	const balancesAfter = await payeeBalances();
	const runData = result.run.data.resultData.runData;
	return {
		result,
		received: Object.fromEntries(
			SHEET.map((row, index) => [row.name, String(balancesAfter[index] - balancesBefore[index])]),
		),
		proposed: await paymentsProposedSince(devnet, proposalsBefore),
		ran: (node) => runData[node] !== undefined,
	};
}

const payment = (row: (typeof SHEET)[number]): Payment => ({
	token: getAddress(usdc()),
	recipient: row.address,
	units: String(row.units),
});
const [ALICE_ROW, , CAROL_ROW] = SHEET;
const nothing = { Alice: '0', Bob: '0', Carol: '0' };

/** What the approver saw: the Preflight's totals (the hot-key run's approval message and the Safe run's summary). */
const preflightUsdc = (result: RunResult) =>
	(result.output('Preflight')[0]?.json.totals as Record<string, { units: string }>).USDC.units;

describe.each(EXAMPLES)('$name', (example) => {
	const current = path.join(root, 'examples', example.file);
	const positional = path.join(__dirname, 'positional', example.file);
	const hotKey = example.approval !== undefined;

	test('with an honest API, every row is paid (or proposed) exactly its amount, each result on its own row', async () => {
		const { result, received, proposed } = await runExample(example, current, undefined);
		expect(result.error).toBeUndefined();
		if (hotKey) {
			expect(received).toEqual({ Alice: '100000000', Bob: '250000000', Carol: '40000000' });
			const rows = result.output('Payout results').map((item) => item.json);
			expect(rows.map((row) => [row.rowId, row.address, row.status])).toEqual(
				SHEET.map((row) => [row.rowId, row.address, 'paid']),
			);
		} else {
			expect(received).toEqual(nothing);
			expect(proposed).toEqual(SHEET.map(payment));
			const rows = result.output('Proposal results').map((item) => item.json);
			expect(rows.map((row) => [row.rowId, row.address, row.status])).toEqual(
				SHEET.map((row) => [row.rowId, row.address, 'proposed']),
			);
		}
	});

	test('the examples as they paired by position: Bob answered with no transaction and Alice with two pays Alice twice and Bob nothing, the totals matching the sheet', async () => {
		const { result, received, proposed } = await runExample(
			example,
			positional,
			'dropOneDoubleAnother',
		);
		// With issue 32's node guard merged, the Expand node itself refuses an answer with no or several transactions.
		if (result.error && result.run.data.resultData.lastNodeExecuted === 'Build transfers') {
			expect({ received, proposed }).toEqual({ received: nothing, proposed: [] });
			return;
		}
		expect(result.error).toBeUndefined();
		expect(preflightUsdc(result)).toBe(String(SHEET_TOTAL));
		if (hotKey) {
			expect(received).toEqual({ Alice: '200000000', Bob: '0', Carol: '40000000' });
			// The results claim every row paid, Bob's with the second payment to Alice.
			expect(result.output('Payout results').map((item) => item.json.status)).toEqual([
				'paid',
				'paid',
				'paid',
			]);
		} else {
			expect(received).toEqual(nothing);
			expect(proposed).toEqual([payment(ALICE_ROW), payment(ALICE_ROW), payment(CAROL_ROW)]);
		}
	});

	/** Where each lie is caught, naming the rows: what the run's error says. */
	const REFUSALS: Record<LieMode, RegExp[]> = {
		multiply: [/5 transactions for 3 rows/, /row 1 \(Alice\) has 3 transactions, not one/],
		drop: [/2 transactions for 3 rows/, /row 2 \(Bob\) has 0 transactions, not one/],
		swap: [
			new RegExp(`row 1 \\(Alice\\), the transaction's recipient is "${BOB}"`, 'i'),
			/row 1 \(Alice\), the transaction's amount is "250000000", the row's "100000000"/,
			new RegExp(`row 2 \\(Bob\\), the transaction's recipient is "${ALICE}"`, 'i'),
		],
		dropOneDoubleAnother: [
			/row 1 \(Alice\) has 2 transactions, not one/,
			/row 2 \(Bob\) has 0 transactions, not one/,
		],
	};

	test.each(LIE_MODES)(
		'lying API (%s): the run stops before the approval and before anything is signed or proposed; nobody is paid or proposed anything',
		async (mode) => {
			const outcome = await runExample(example, current, mode);
			const { result } = outcome;
			expect({ received: outcome.received, proposed: outcome.proposed }).toEqual({
				received: nothing,
				proposed: [],
			});
			expect(outcome.ran(example.signer)).toBe(false);
			if (example.approval) expect(outcome.ran(example.approval)).toBe(false);
			const stoppedAt = result.run.data.resultData.lastNodeExecuted;
			// The example's own guard; or, with issue 32's node guard merged, the Expand node before it.
			expect(['One transfer per row', 'Build transfers']).toContain(stoppedAt);
			if (stoppedAt === 'One transfer per row') {
				expect(result.error?.message).toMatch(
					/^Payout run refused before anything is signed or proposed\. /,
				);
				for (const refusal of REFUSALS[mode]) expect(result.error?.message).toMatch(refusal);
				// n8n's Code node shows only what follows the message's last colon.
				expect(result.error?.message).not.toContain(':');
			}
		},
	);
});
