/**
 * The payout run via Safe (examples/safe-payout-run.devnet.json) and its write-back workflow
 * (examples/safe-payout-executed.devnet.json, active) in the running n8n, against the devnet's
 * 2-of-3 Safe and its Transaction Service stand-in: the run proposes and nothing moves; two owners
 * confirm and execute (the devnet's confirmAndExecute), two of the four while n8n is stopped; the
 * balances move exactly and the trigger writes each execution back once; a rerun proposes nothing new;
 * refusals (test/n8n/workflows/safe-refusals.json): over the policy cap, or signed by a key that is
 * neither owner nor delegate, nothing is posted. Called by run.ts in this order.
 */
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';

import { parseUnits } from 'ethers';

import { EXAMPLE_IDS } from '../../playground/playground';
import { importCredentials } from '../../playground/prepare';
import { balanceOf } from '../helpers/chainReads';
import { assert, equal, jsonLines } from '../helpers/checks';
import { pause, until } from '../../playground/wait';
import type { Session } from './session';
import { devnetAccount, devnetSignerKey } from '../helpers/devnetCredentials';

export const SAFE_RUN_ID = EXAMPLE_IDS.safePayoutRunDevnet;
export const SAFE_DONE_ID = EXAMPLE_IDS.safePayoutExecutedDevnet;
const START = 'Start payout run';
const RUN_FILE = 'safe-payout-run.json';
const EXECUTED_FILE = 'safe-payouts-executed.jsonl';

/** The example's stand-in sheet (its "Payout sheet" node): USDC to devnet wallets 13, 14, 15 and 13. */
const ROWS = [
	{ rowId: '1', address: '0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec', amount: '1250' },
	{ rowId: '2', address: '0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097', amount: '980.5' },
	{ rowId: '3', address: '0xcd3B766CCDd6AE721141F452C550Ca635964ce71', amount: '400' },
	{ rowId: '4', address: '0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec', amount: '75.25' },
] as const;
const RUN_ID = 'safe-payroll-2026-11';

interface RunResult {
	runId: string;
	rows: Array<{
		rowId: string;
		payoutId: string;
		status: string;
		safeTxHash: string;
		safeNonce: string;
		units: string;
	}>;
}

interface ExecutedLine {
	safeTxHash: string;
	status: string;
	transactionHash: string;
	blockNumber: number;
}

/** Transactions the stand-in keeps for the Safe (proposed and executed). */
export async function serviceCount(session: Session): Promise<number> {
	const { serviceUrl, address, apiKey } = session.devnet.safe;
	const response = await fetch(
		`${serviceUrl}/api/v1/safes/${address}/multisig-transactions/?limit=1`,
		{ headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} },
	);
	assert(response.ok, `the stand-in lists the Safe's transactions (HTTP ${response.status})`);
	return ((await response.json()) as { count: number }).count;
}

/** USDC of the Safe and of each recipient, and the Safe's nonce. */
export async function holdings(session: Session): Promise<Record<string, string>> {
	const { devnet } = session;
	const chain = devnet.chains.find((entry) => entry.chainId === devnet.safe.chainId)!;
	const usdc = chain.tokens.USDC.address;
	const state: Record<string, string> = {};
	for (const owner of [devnet.safe.address, ...new Set(ROWS.map((row) => row.address))])
		state[owner] = String(await balanceOf(devnet, chain.chainId, owner, usdc));
	state.safeNonce = String(
		BigInt(
			await devnet.rpc<string>(chain.chainId, 'eth_call', [
				{ to: devnet.safe.address, data: '0xaffed0e0' },
				'latest',
			]),
		),
	);
	return state;
}

function jsonFile<T>(file: string): T | undefined {
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as T;
	} catch {
		return undefined;
	}
}

/** Starts the run as Execute workflow does and returns what it wrote. */
async function runSafePayout(session: Session): Promise<RunResult> {
	const file = session.out(RUN_FILE);
	rmSync(file, { force: true });
	await session.rest().runManually(SAFE_RUN_ID, START);
	const [result] = await until(
		`the run result (${RUN_FILE})`,
		() => jsonFile<RunResult[]>(file),
		120_000,
	);
	return result;
}

let proposed: RunResult | undefined;

export async function safePayoutProposed(session: Session): Promise<string> {
	const before = await holdings(session);
	const countBefore = await serviceCount(session);
	const result = await runSafePayout(session);
	equal(
		result.rows.map((row) => [row.rowId, row.payoutId, row.status]),
		ROWS.map((row) => [row.rowId, `${RUN_ID}-${row.rowId}`, 'proposed']),
		'every row proposed, with its payout ID',
	);
	equal(
		result.rows.map((row) => row.safeNonce),
		ROWS.map((_row, index) => String(Number(before.safeNonce) + index)),
		"the proposals take the Safe's next nonces, one each",
	);
	equal(new Set(result.rows.map((row) => row.safeTxHash)).size, ROWS.length, 'four safeTxHashes');
	equal(await serviceCount(session), countBefore + ROWS.length, 'the stand-in holds four more');
	equal(await holdings(session), before, 'nothing moved: balances and the Safe nonce unchanged');
	proposed = result;
	return `${ROWS.length} proposals, Safe nonces ${result.rows.map((row) => row.safeNonce).join(', ')}; nothing moved`;
}

export async function safePayoutExecuted(session: Session): Promise<string> {
	assert(proposed, 'the proposals of the previous check');
	const { devnet } = session;
	const chain = devnet.chains.find((entry) => entry.chainId === devnet.safe.chainId)!;
	const before = await holdings(session);
	const file = session.out(EXECUTED_FILE);
	const executions: Record<string, string> = {};
	const execute = async (rows: RunResult['rows']) => {
		for (const row of rows) {
			const executed = await devnet.safe.confirmAndExecute(row.safeTxHash, {
				owners: devnet.safe.owners.slice(0, 2),
			});
			executions[row.safeTxHash.toLowerCase()] = executed.transactionHash.toLowerCase();
		}
	};
	// Two executed while n8n runs, then n8n stops and the other two are executed while it is down.
	await execute(proposed.rows.slice(0, 2));
	await until(
		`two executions in ${EXECUTED_FILE}`,
		() => jsonLines<ExecutedLine>(file).length >= 2,
		60_000,
	);
	await session.restart(() => execute(proposed!.rows.slice(2)));
	const expected = { ...before };
	let total = 0n;
	for (const row of ROWS) {
		const units = parseUnits(row.amount, chain.tokens.USDC.decimals);
		expected[row.address] = String(BigInt(expected[row.address]) + units);
		total += units;
	}
	expected[devnet.safe.address] = String(BigInt(expected[devnet.safe.address]) - total);
	expected.safeNonce = String(Number(before.safeNonce) + ROWS.length);
	equal(
		await holdings(session),
		expected,
		'every recipient received exactly its amount, the Safe paid the total',
	);

	await until(
		`four executions in ${EXECUTED_FILE}`,
		() => jsonLines<ExecutedLine>(file).length >= ROWS.length,
		60_000,
	);
	// Two poll intervals more: an execution written twice would be there by now.
	await pause(2500);
	const lines = jsonLines<ExecutedLine>(file);
	equal(
		lines.map((line) => [line.safeTxHash, line.status, line.transactionHash]),
		proposed.rows.map((row) => [
			row.safeTxHash.toLowerCase(),
			'paid',
			executions[row.safeTxHash.toLowerCase()],
		]),
		'the write-back: each proposal once, in nonce order, paid, with its execution hash',
	);
	for (const line of lines) {
		const receipt = await devnet.rpc<{ status: string; blockNumber: string }>(
			chain.chainId,
			'eth_getTransactionReceipt',
			[line.transactionHash],
		);
		equal(
			[receipt.status, Number(BigInt(receipt.blockNumber))],
			['0x1', line.blockNumber],
			`execution ${line.transactionHash} mined in the block written back`,
		);
	}
	return `${ROWS.length} executions by two owners (2 of them while n8n was down); balances moved exactly; written back once each`;
}

export async function safePayoutAgain(session: Session): Promise<string> {
	assert(proposed, 'the proposals of the first check');
	const before = await holdings(session);
	const countBefore = await serviceCount(session);
	const result = await runSafePayout(session);
	equal(
		result.rows.map((row) => [row.status, row.safeTxHash]),
		proposed.rows.map((row) => ['proposed earlier', row.safeTxHash]),
		'every row proposed earlier, with the same safeTxHash',
	);
	equal(await serviceCount(session), countBefore, 'the stand-in holds no new proposal');
	equal(await holdings(session), before, 'nothing moved');
	equal(
		jsonLines<ExecutedLine>(session.out(EXECUTED_FILE)).length,
		ROWS.length,
		'nothing written back again',
	);
	return 'run again: 0 proposals, every row "proposed earlier"';
}

export const SAFE_REFUSALS_ID = 'expandTestSafeRefused';
export const SAFE_REFUSALS = path.join(__dirname, 'workflows', 'safe-refusals.json');
const REFUSALS_FILE = 'safe-refusals.json';
/** The fixture's accounts on the devnet mnemonic: the Safe's delegate, and a wallet neither owner nor delegate. */
const DELEGATE_INDEX = 20;
const STRANGER_INDEX = 3;

export async function safeProposalsRefused(session: Session): Promise<string> {
	const { devnet, n8n } = session;
	const chain = devnet.chains.find((entry) => entry.chainId === devnet.safe.chainId)!;
	const account = (index: number) => devnetAccount(index).address;
	equal(account(DELEGATE_INDEX), devnet.safe.delegate.address, "account 20 is the Safe's delegate");
	await importCredentials(n8n, [
		{
			id: 'expandSafeRefusalKey01',
			name: 'Expand Signing Key (devnet mnemonic, at most 1 ETH per transaction)',
			type: 'expandSignerApi',
			data: devnetSignerKey({ maxPerTransaction: `native@${chain.chainId} = 1` }),
		},
	]);
	const before = await holdings(session);
	const countBefore = await serviceCount(session);
	const file = session.out(REFUSALS_FILE);
	rmSync(file, { force: true });
	await session.rest().runManually(SAFE_REFUSALS_ID, 'Start');
	const items = await until(
		`the refusals (${REFUSALS_FILE})`,
		() => jsonFile<Array<{ error?: string }>>(file),
		60_000,
	);
	equal(items.length, 2, 'one result per proposal');
	equal(
		items[0].error,
		`Refused by the rule "maxPerTransaction": value of 5 (5000000000000000000 in the smallest unit) of the native asset is above the limit of 1 per transaction; nothing was signed (item 0)`,
		'over the cap: refused naming the rule and the value',
	);
	assert(
		new RegExp(
			`^Sender=${account(STRANGER_INDEX)} is not an owner or delegate\\. .* \\(item 1\\)$`,
		).test(items[1].error ?? ''),
		`a key neither owner nor delegate: the stand-in's words reach the item (${items[1].error})`,
	);
	equal(await serviceCount(session), countBefore, 'the stand-in holds no new proposal');
	equal(await holdings(session), before, 'nothing moved');
	const delegate = devnet.safe.delegate.address;
	equal(
		[
			String(
				BigInt(await devnet.rpc<string>(chain.chainId, 'eth_getBalance', [delegate, 'latest'])),
			),
			String(await balanceOf(devnet, chain.chainId, delegate, chain.tokens.USDC.address)),
		],
		['0', '0'],
		"the delegate (n8n's key) holds 0 ETH and 0 USDC",
	);
	return `over the cap refused by the Signer, a stranger key refused by the stand-in (${items[1].error?.split('.')[0]}); 0 posted; the delegate holds 0 ETH, 0 USDC`;
}
