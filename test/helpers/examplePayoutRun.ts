/**
 * What the tests of the payout-run examples share: the folder the Signer's payout ledger lives in
 * (the only one n8n lets nodes write to), the example run as saved with the approver's answer in
 * place of the wait for it, and the rows of its Payout results.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { readSavedWorkflow, runSavedWorkflow } from '../../scripts/engine/savedWorkflow';
import type { RunResult } from './n8n';

/** A fresh ledger folder, removed after the file's tests; n8n lets nodes write only below its parent. */
export function payoutLedger(prefix: string): string {
	const folder = mkdtempSync(path.join(tmpdir(), prefix));
	process.env.N8N_RESTRICT_FILE_ACCESS_TO = folder;
	afterAll(() => rmSync(folder, { recursive: true, force: true }));
	const ledger = path.join(folder, 'ledger');
	mkdirSync(ledger);
	return ledger;
}

/** The example (a file under examples/) as saved, the approver's answer in place of the wait for it. */
export async function runApprovedExample(
	example: string,
	credentials: Record<string, ICredentialDataDecryptedObject>,
): Promise<RunResult> {
	const workflow = readSavedWorkflow(path.join(__dirname, '..', '..', 'examples', example));
	for (const node of workflow.nodes)
		if (node.name === 'Wait for approval')
			Object.assign(node, {
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				parameters: { jsCode: "return [{ json: { query: { approved: 'true' } } }];" },
			});
	return await runSavedWorkflow(workflow, credentials);
}

/** The run's Payout results, one row per sheet row. */
export const payoutResults = (result: RunResult) =>
	result.output('Payout results').map((item) => item.json as Record<string, string>);

/** Each row's ID and status. */
export const payoutStatuses = (result: RunResult) =>
	payoutResults(result).map((row) => [row.rowId, row.status]);

/** The examples' five rows on the first run: four payees paid, the fifth (off the list) refused. */
export const FOUR_PAID_ONE_REFUSED = [
	['1', 'paid'],
	['2', 'paid'],
	['3', 'paid'],
	['4', 'paid'],
	['5', 'refused'],
];

/** The same rows run again: the payees paid earlier, the fifth refused again. */
export const FOUR_PAID_EARLIER_ONE_REFUSED = [
	['1', 'paid earlier'],
	['2', 'paid earlier'],
	['3', 'paid earlier'],
	['4', 'paid earlier'],
	['5', 'refused'],
];
