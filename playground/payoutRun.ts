/**
 * Driving the devnet payout runs (examples/stablecoin-payout-run.devnet.json, and
 * tron-usdt-payout-run.devnet.json) from outside: each writes its approval request to
 * payout-approval.json (tron-payout-approval.json), waits at "Wait for approval" for one of the links
 * in it, and writes its outcome to payout-run.json (tron-payout-run.json), all in the instance's
 * output folder.
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

/** The files a payout run writes in the output folder: the stablecoin run's unless named. */
export interface PayoutRunFiles {
	approval: string;
	result: string;
}
const STABLECOIN_RUN_FILES: PayoutRunFiles = {
	approval: 'payout-approval.json',
	result: 'payout-run.json',
};

/** Starts the run with `start` (the editor's button, or the REST call it makes) and waits for its approval request. */
export async function startPayoutRun(
	outputFile: (name: string) => string,
	start: () => Promise<unknown>,
	files: PayoutRunFiles = STABLECOIN_RUN_FILES,
): Promise<PayoutApprovalRequest> {
	rmSync(outputFile(files.approval), { force: true });
	rmSync(outputFile(files.result), { force: true });
	await start();
	const [request] = await until(
		`the approval request (${files.approval})`,
		() => jsonFile<PayoutApprovalRequest[]>(outputFile(files.approval)),
		120_000,
	);
	return request;
}

/** Answers the approval request through the Wait node's resume link. */
export async function answerApproval(
	request: PayoutApprovalRequest,
	decision: 'approve' | 'reject',
): Promise<void> {
	// n8n saves the waiting execution before it listens for the resume call: retry while it is not waiting yet.
	const url = decision === 'approve' ? request.approveUrl : request.rejectUrl;
	await until(`the Wait node to accept ${url}`, async () => (await fetch(url)).ok, 30_000);
}

/**
 * Starts the run, answers its approval request, and returns the request and what the run wrote.
 */
export async function runPayoutRun(
	outputFile: (name: string) => string,
	start: () => Promise<unknown>,
	decision: 'approve' | 'reject',
	files: PayoutRunFiles = STABLECOIN_RUN_FILES,
): Promise<{ request: PayoutApprovalRequest; result: PayoutRunResult }> {
	const request = await startPayoutRun(outputFile, start, files);
	await answerApproval(request, decision);
	const [result] = await until(
		`the run result (${files.result})`,
		() => jsonFile<PayoutRunResult[]>(outputFile(files.result)),
		120_000,
	);
	return { request, result };
}
