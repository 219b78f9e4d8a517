/* eslint-disable no-console -- a command-line test runner prints its results */
/**
 * `npm run test:n8n`: the package in the real n8n, installed the way users install it, against the
 * devnet: `--n8n oldest` (default: 2.8.4 on this machine's Node) or `--n8n latest` (the latest
 * release tested, on Node 24 from .cache/node24); see playground/install.ts. Not a jest suite (the
 * default `npx jest` must not start n8n): each check runs in order and the last line is
 * `N passed, N failed`; the exit code is 1 when any check failed. `--only <text>` runs only the checks
 * whose name contains the text.
 * EXPAND_N8N_TEST_PORT sets n8n's port (default: the first free pair from 5790; its task broker takes the next one) and
 * EXPAND_PLAYGROUND_HOME its user folder, so runs side by side do not clash.
 *
 * main() sets up (n8n, the packed packages, the devnet, the Slack stand-in, the user folder) and runs
 * two lists of named checks, each a module of this folder: first with `n8n execute` (the examples
 * against the chains, the month-end valuation at a past block, exactly-once payouts through a kill,
 * the install by hand), then in the started n8n (types, the credential test, the stablecoin payout run,
 * the payout run via Safe, its write-back trigger and its refusals, the payout runs via Fireblocks (with its webhook write-back) and via Turnkey, the USDT payout runs on Tron and TON and the USDC payout run on Stellar through a kill, both payout runs against a lying API, the active examples, the polling triggers through a restart, a deactivation and changed settings).
 */
import * as path from 'node:path';

import { startDevnet } from '../../devnet';
import { ensureN8n, N8N_VERSION, n8nNode, n8nRuntime } from '../../playground/install';
import { instance, type RunningN8n, startN8n } from '../../playground/n8n';
import { packPackages } from '../../playground/pack';
import { USER_FOLDERS } from '../../playground/paths';
import { EXAMPLE_IDS, prepareInstance } from '../../playground/playground';
import { freePorts } from '../../playground/ports';
import { run } from '../../playground/proc';
import { N8nRest } from '../../playground/rest';
import { check, chosenChecks, results } from '../helpers/checks';
import { largeTransferWatch, priceAlert, priceAlertRefused } from './activeExamples';
import {
	FIREBLOCKS_DONE_ID,
	fireblocksOtherRun,
	fireblocksPayoutAgain,
	fireblocksPayoutCompleted,
	fireblocksPayoutCreated,
	turnkeyPayoutRun,
} from './custodyPayout';
import { payoutExample, solanaPayout, treasuryReport } from './examples';
import { firstReleasePayout } from './firstRelease';
import { INSTALL_BY_HAND, installByHand } from './install';
import { exactlyOncePayout, PAYOUT_ONCE } from './payoutOnce';
import { payoutsAgainstLyingApi } from './payoutLies';
import { payoutRunAgain, payoutRunApproved, payoutRunRejected } from './payoutRun';
import { payoutReconciliation } from './reconciliation';
import { credentialTest, nodeAndCredentialTypes } from './registered';
import {
	SAFE_DONE_ID,
	safePayoutAgain,
	SAFE_REFUSALS,
	safePayoutExecuted,
	safePayoutProposed,
	safeProposalsRefused,
} from './safePayout';
import type { Check, Session } from './session';
import { startSink } from './sink';
import {
	BLOCK_LOG,
	BLOCK_LOG_ID,
	chainChange,
	restartAndReactivation,
	TRANSFER_LOG,
	TRANSFER_LOG_ID,
	USDC_EXAMPLE_ID,
	usdcReceivedExample,
	watchedAddressesChange,
} from './triggers';
import { stellarPayoutAgain, stellarPayoutKilled, stellarPayoutResumed } from './stellarPayout';
import { stellarRwaExample } from './stellarRwa';
import { tonPayoutAgain, tonPayoutKilled, tonPayoutResumed } from './tonPayout';
import { tronPayoutAgain, tronPayoutKilled, tronPayoutResumed } from './tronPayout';
import { monthEndValuation } from './valuation';

/** With `n8n execute`, before n8n starts. */
const EXECUTE_CHECKS: Check[] = [
	{
		name: 'treasury report: every balance equals the chain, formatted exactly, priced by the DEX; a 429 (Retry-After) waited out and retried',
		run: treasuryReport,
	},
	{
		name: 'payout: three USDC transfers signed in n8n, mined, with the exact amounts',
		run: payoutExample,
	},
	{
		name: 'a payout saved on the first release (From, To, Token Address, Gas in Additional Fields; the Signer in the first package), migrated and imported over the example, pays the same amounts',
		run: firstReleasePayout,
	},
	{
		name: 'Solana payout: SOL and USDC signed in n8n and sent on chain 901, balances moved exactly; run again, nobody is paid twice',
		run: solanaPayout,
	},
	{
		name: 'month-end valuation at a past time: every row equals the chain at that block, priced by the DEX, the total exact, the summary posted',
		run: monthEndValuation,
	},
	{
		name: 'exactly-once payout: n8n killed after some of 20 sends, run again: every recipient paid once (balances)',
		run: exactlyOncePayout,
	},
	{
		name: 'month-end payout reconciliation: one row per journal entry of the payouts signed above, each as the chain has it (block and fee paid of the mined ones), the summary posted',
		run: payoutReconciliation,
	},
	{
		name: 'RWA on Stellar: trustlines, the issuer’s authorisation, issue and transfer, each signed by its account in n8n, sent and mined; the asset on the holder’s and the receiver’s trustlines',
		run: stellarRwaExample,
	},
	{ name: INSTALL_BY_HAND, run: installByHand },
];

/** In the started n8n; `webSocket`: whether its Node.js has the built-in WebSocket the ticker stream needs. */
const startedChecks = (webSocket: boolean): Check[] => [
	{
		name: 'n8n lists the nodes and credentials of both packages, the Expand AI-tool variant (no Signer tool)',
		run: nodeAndCredentialTypes,
	},
	{
		name: 'credential test: succeeds with the devnet key, fails clearly with a wrong one',
		run: credentialTest,
	},
	{
		name: 'stablecoin payout run, rejected at the approval step: nothing signed, nothing sent',
		run: payoutRunRejected,
	},
	{
		name: 'stablecoin payout run, approved: preflight totals, every row paid exactly once on the chain, hashes and blocks written back',
		run: payoutRunApproved,
	},
	{
		name: 'stablecoin payout run, approved again: nobody paid twice (payout IDs)',
		run: payoutRunAgain,
	},
	{
		name: 'payout run via Safe: 4 rows proposed by the delegate key, nothing moves',
		run: safePayoutProposed,
	},
	{
		name: 'payout run via Safe: two owners confirm and execute (two of the four while n8n is stopped); balances move exactly and the Safe Transaction Executed trigger writes each execution hash back once',
		run: safePayoutExecuted,
	},
	{
		name: 'payout run via Safe, run again: nothing new proposed (same safeTxHashes, the stand-in holds no more)',
		run: safePayoutAgain,
	},
	{
		name: "Propose to Safe refused: over the credential's cap by the Signer, a key neither owner nor delegate by the stand-in (its words on the item); nothing posted; the delegate holds nothing",
		run: safeProposalsRefused,
	},
	{
		name: 'custodial payout run via Fireblocks: 4 rows created at the stand-in, all held at PENDING_AUTHORIZATION, nothing moves; the row off Allowed Recipients refused by the Signer naming the rule, no request to Fireblocks for it',
		run: fireblocksPayoutCreated,
	},
	{
		name: 'custodial payout run via Fireblocks, approved on the devnet: each amount moves exactly once; Expand Signer Trigger writes each genuine status back at most once (each payout COMPLETED once) while a duplicate, a replayed, an out-of-order and a forged delivery write no status twice and nothing forged',
		run: fireblocksPayoutCompleted,
	},
	{
		name: 'custodial payout run via Fireblocks, run again, and a new run whose create answer the stand-in drops: nothing new created, one transaction per row',
		run: fireblocksPayoutAgain,
	},
	{
		name: 'custodial payout run via Turnkey: each row signed by Turnkey and sent once, the off-list row refused before Turnkey; run again, nobody paid and nothing signed',
		run: turnkeyPayoutRun,
	},
	{
		name: 'USDT payout run on Tron, approved: n8n killed (SIGKILL) while it sends',
		run: tronPayoutKilled,
	},
	{
		name: 'USDT payout run on Tron, run again after the kill: every payee row paid exactly once to the unit (balances on the stand-in), the row off Allowed Recipients refused by the Signer naming the rule and the address',
		run: tronPayoutResumed,
	},
	{
		name: 'USDT payout run on Tron, run once more: nobody paid (payout IDs)',
		run: tronPayoutAgain,
	},
	{
		name: 'USDT payout run on TON, approved: n8n killed (SIGKILL) once every row is signed and two messages are sent',
		run: tonPayoutKilled,
	},
	{
		name: 'USDT payout run on TON, run again after the kill: the unsent messages sent in seqno order, every payee row paid exactly once to the unit (balances on the TVM), the row off Allowed Recipients refused by the Signer naming the rule and the address',
		run: tonPayoutResumed,
	},
	{
		name: 'USDT payout run on TON, run once more: nobody paid (payout IDs)',
		run: tonPayoutAgain,
	},
	{
		name: 'USDC payout run on Stellar, approved: n8n killed (SIGKILL) once every row is signed and two transactions are sent',
		run: stellarPayoutKilled,
	},
	{
		name: 'USDC payout run on Stellar, run again after the kill: the unsent transactions sent in sequence order, every payee row paid exactly once to the unit (balances on the ledger), the row off Allowed Recipients refused by the Signer naming the rule and the account',
		run: stellarPayoutResumed,
	},
	{
		name: 'USDC payout run on Stellar, run once more: nobody paid (payout IDs)',
		run: stellarPayoutAgain,
	},
	{
		name: 'both payout runs against an API answering Erin with no transaction and Frank with two: stopped at One transfer per row naming both rows, before the approval and any signing; nothing paid, nothing proposed',
		run: payoutsAgainstLyingApi,
	},
	webSocket
		? {
				name: 'price alert (active): mined blocks start executions with the DEX price of WETH',
				run: priceAlert,
			}
		: {
				name: 'price alert (active) on Node 20: Ticker Price refuses to activate and names the requirement',
				run: priceAlertRefused,
			},
	{
		name: 'large-transfer watch (active): exactly the large transfers of watched wallets',
		run: largeTransferWatch,
	},
	{
		name: '"USDC received → Slack" example (active): one message with the sender, the amount in USDC and the transaction',
		run: usdcReceivedExample,
	},
	{
		name: 'New Block and Token Transfer exactly once through an n8n restart and a deactivation while blocks and transfers keep coming',
		run: restartAndReactivation,
	},
	{
		name: 'Token Transfer: changed watched addresses (unpublish, edit, publish) keep the position; the new filter applies from the next block',
		run: watchedAddressesChange,
	},
	{
		name: "New Block: a changed chain starts afresh at the new chain's head, also when changed back",
		run: chainChange,
	},
];

const WORKFLOWS = [
	'treasury-report.devnet.json',
	'payout.devnet.json',
	'solana-payout.devnet.json',
	'price-alert.devnet.json',
	'large-transfer-watch.devnet.json',
	'usdc-received-slack.devnet.json',
	'stablecoin-payout-run.devnet.json',
	'month-end-valuation.devnet.json',
	'month-end-payout-reconciliation.devnet.json',
	'safe-payout-run.devnet.json',
	'safe-payout-executed.devnet.json',
	'fireblocks-payout-run.devnet.json',
	'fireblocks-payout-completed.devnet.json',
	'turnkey-payout-run.devnet.json',
	'tron-usdt-payout-run.devnet.json',
	'ton-usdt-payout-run.devnet.json',
	'stellar-usdc-payout-run.devnet.json',
	'stellar-rwa-issue-transfer.devnet.json',
	BLOCK_LOG,
	TRANSFER_LOG,
	PAYOUT_ONCE,
	SAFE_REFUSALS,
	fireblocksOtherRun(),
];
const PUBLISHED = [
	EXAMPLE_IDS.priceAlertDevnet,
	EXAMPLE_IDS.transferWatchDevnet,
	USDC_EXAMPLE_ID,
	SAFE_DONE_ID,
	FIREBLOCKS_DONE_ID,
	BLOCK_LOG_ID,
	TRANSFER_LOG_ID,
];

/** What the Node.js that runs n8n prints for `expression`. */
async function runtime(expression: string): Promise<string> {
	return (await run(n8nNode(), ['-p', expression], { capture: true })).stdout.trim();
}

async function runChecks(checks: Check[], session: Session): Promise<void> {
	for (const entry of chosenChecks(checks)) await check(entry.name, () => entry.run(session));
}

async function main(): Promise<void> {
	const started = Date.now();
	await ensureN8n();
	const installed = Date.now();
	const tarballs = await packPackages({ build: !process.argv.includes('--no-build') });
	const devnet = await startDevnet();
	const port = process.env.EXPAND_N8N_TEST_PORT
		? Number(process.env.EXPAND_N8N_TEST_PORT)
		: await freePorts(5790, 2);
	const n8n = instance(path.join(USER_FOLDERS, 'e2e'), port);
	const slack = await startSink();
	let running: RunningN8n | undefined;
	let rest: N8nRest | undefined;
	const start = async () => {
		running = await startN8n(n8n, { env: { EXPAND_SLACK_WEBHOOK_URL: slack.url } });
		rest = new N8nRest(running.url);
		await rest.setupOwnerAndLogin();
	};
	const session: Session = {
		devnet,
		n8n,
		tarballs,
		slack,
		out: (file) => path.join(n8n.outputDir, file),
		rest: () => rest as N8nRest,
		restart: async (whileDown) => {
			await running?.stop();
			running = undefined;
			await whileDown();
			await start();
		},
		crash: async () => {
			const pid = running?.process.pid;
			// n8n runs in its own process group (playground/n8n.ts): the group is n8n and its task runners.
			if (pid) process.kill(-pid, 'SIGKILL');
			await running?.stop();
			running = undefined;
			await start();
		},
	};

	try {
		console.log(
			`n8n ${N8N_VERSION} in ${path.relative(process.cwd(), n8nRuntime().dir)} on Node ${await runtime('process.versions.node')} (${Math.round((installed - started) / 1000)} s); preparing ${n8n.userFolder}`,
		);
		await prepareInstance(n8n, tarballs, devnet, { workflows: WORKFLOWS, publish: PUBLISHED });
		console.log('Examples through `n8n execute --id`:');
		await runChecks(EXECUTE_CHECKS, session);
		console.log('n8n start:');
		await start();
		await runChecks(startedChecks((await runtime('typeof WebSocket')) === 'function'), session);
	} catch (error) {
		results.push({ name: 'setup', ok: false, ms: 0 });
		console.log(`  ✗ setup\n    ${String((error as Error)?.stack ?? error)}`);
	} finally {
		await running?.stop();
		await slack.close();
		await devnet.stop();
	}
	const failed = results.filter((result) => !result.ok).length;
	console.log(
		`\nreal n8n e2e: ${Math.round((Date.now() - started) / 1000)} s (n8n install ${Math.round((installed - started) / 1000)} s); n8n log: ${path.join(n8n.userFolder, 'n8n.log')}`,
	);
	console.log(`${results.length - failed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
}

main().catch((error) => {
	console.error(error);
	console.log('0 passed, 1 failed');
	process.exit(1);
});
