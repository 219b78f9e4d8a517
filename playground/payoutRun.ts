/**
 * Driving the devnet stablecoin payout run (examples/stablecoin-payout-run.devnet.json) from outside:
 * it writes its approval request to payout-approval.json, waits at "Wait for approval" for one of the
 * links in it, and writes its outcome to payout-run.json, all in the instance's output folder.
 */
import { readFileSync, rmSync } from 'node:fs';

import { until } from './wait';

export interface PayoutApprovalRequest {
	approveUrl: string;
	rejectUrl: string;
	text: string;
	totals: Record<string, { units: string; amount: string }>;
}

export interface PayoutRunResult {
	runId: string;
	approved: boolean;
	rows: Array<{
		rowId: string;
		address: string;
		token: string;
		units: string;
		payoutId: string;
		status: string;
		transactionHash: string;
		blockNumber: string;
	}>;
}

/** A JSON file a workflow writes, once it is there and complete. */
function jsonFile<T>(file: string): T | undefined {
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as T;
	} catch {
		return undefined;
	}
}

/**
 * Starts the run with `start` (the editor's button, or the REST call it makes), answers its approval
 * request, and returns the request and what the run wrote.
 */
export async function runPayoutRun(
	outputFile: (name: string) => string,
	start: () => Promise<unknown>,
	decision: 'approve' | 'reject',
): Promise<{ request: PayoutApprovalRequest; result: PayoutRunResult }> {
	const [approvalFile, resultFile] = [
		outputFile('payout-approval.json'),
		outputFile('payout-run.json'),
	];
	rmSync(approvalFile, { force: true });
	rmSync(resultFile, { force: true });
	await start();
	const [request] = await until(
		'the approval request (payout-approval.json)',
		() => jsonFile<PayoutApprovalRequest[]>(approvalFile),
		120_000,
	);
	// n8n saves the waiting execution before it listens for the resume call: retry while it is not waiting yet.
	const url = decision === 'approve' ? request.approveUrl : request.rejectUrl;
	await until(`the Wait node to accept ${url}`, async () => (await fetch(url)).ok, 30_000);
	const [result] = await until(
		'the run result (payout-run.json)',
		() => jsonFile<PayoutRunResult[]>(resultFile),
		120_000,
	);
	return { request, result };
}
