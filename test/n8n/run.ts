/* eslint-disable no-console -- a command-line test runner prints its results */
/**
 * `npm run test:n8n`: the package in the real n8n, installed the way users install it, against the
 * devnet: `--n8n oldest` (default: 2.8.4 on this machine's Node) or `--n8n latest` (the latest
 * release tested, on Node 24 from .cache/node24); see playground/install.ts. Not a jest suite (the
 * default `npx jest` must not start n8n): each check runs in order and the last line is
 * `N passed, N failed`; the exit code is 1 when any check failed.
 * EXPAND_N8N_TEST_PORT sets n8n's port (default: the first free pair from 5790; its task broker takes the next one) and
 * EXPAND_PLAYGROUND_HOME its user folder, so runs side by side do not clash.
 *
 * 1. `n8n execute --id` runs the devnet treasury report and payout examples; their files are checked
 *    against the chains (balances, prices, mined transfers). The Solana payout (SOL and USDC on
 *    chain 901) moves the balances exactly, and run again it pays nobody twice.
 *    A 20-recipient payout with payout IDs is killed (SIGKILL) after some sends and run again: every
 *    recipient is paid exactly once, checked by balances. The month-end valuation at a past block
 *    equals the chains at that block (valuation.ts).
 * 2. n8n runs (`n8n start`): node and credential types, the credential test with a right and a wrong
 *    key, the stablecoin payout run rejected, approved and approved again (payoutRun.ts), the active price alert, large-transfer watch and "USDC received → Slack" example (Slack
 *    is a local stand-in), then the polling triggers exactly once across an n8n restart and a
 *    deactivation while blocks and transfers keep coming, and after a change of watched addresses
 *    or chain (triggers.ts).
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { HDNodeWallet, Interface, formatUnits } from 'ethers';

import { startDevnet } from '../../devnet';
import { ensureN8n, N8N_VERSION, n8nBin, n8nNode, n8nRuntime } from '../../playground/install';
import { type N8nInstance, type RunningN8n, executeWorkflow, instance, n8nEnv, runError, startN8n } from '../../playground/n8n';
import { packPackages } from '../../playground/pack';
import { freePorts } from '../../playground/ports';
import { run, startProcess } from '../../playground/proc';
import { EXAMPLE_IDS, prepareInstance } from '../../playground/playground';
import { EXPAND_CREDENTIAL, importCredentials, PAYOUT_WALLET_INDEX, SOLANA_PAYOUT_WALLET_INDEX } from '../../playground/prepare';
import { N8nRest } from '../../playground/rest';
import { USER_FOLDERS } from '../../playground/paths';
import { assert, check, equal, jsonLines, results } from './check';
import { pause, until } from '../../playground/wait';
import { COMMUNITY_PACKAGES, manualInstall, readsCommunityPackagesVariable } from './install';
import { payoutRunAgain, payoutRunApproved, payoutRunRejected } from './payoutRun';
import { firstReleasePayout } from './firstRelease';
import { startSink } from './sink';
import { monthEndValuation } from './valuation';
import {
	BLOCK_LOG,
	BLOCK_LOG_ID,
	chainChange,
	restartAndReactivation,
	type Session,
	TRANSFER_LOG,
	TRANSFER_LOG_ID,
	USDC_EXAMPLE_ID,
	usdcReceivedExample,
	watchedAddressesChange,
} from './triggers';

const PACKAGE = 'n8n-nodes-expand-network';
const SIGNER_PACKAGE = 'n8n-nodes-expand-network-signer';
const PAYOUT_ONCE_ID = 'expandTestPayoutOnce';
const PAYOUT_ONCE = path.join(__dirname, 'workflows', 'payout-once.json');
const DEVNET_MNEMONIC = 'test test test test test test test test test test test junk';
/** The exactly-once payout pays from hardhat account 12 of the devnet mnemonic (Account Index 12). */
const PAYOUT_ONCE_ACCOUNT = 12;
const erc20 = new Interface(['function balanceOf(address) view returns (uint256)']);
const router = new Interface(['function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)']);

/** The version of the Node.js that runs n8n, and whether it has a built-in WebSocket. */
async function nodeVersion(): Promise<string> {
	return (await run(n8nNode(), ['-p', 'process.versions.node'], { capture: true })).stdout.trim();
}
async function runtimeHasWebSocket(): Promise<boolean> {
	return (await run(n8nNode(), ['-p', 'typeof WebSocket'], { capture: true })).stdout.trim() === 'function';
}

async function main(): Promise<void> {
	const started = Date.now();
	await ensureN8n();
	const installed = Date.now();
	const tarballs = await packPackages({ build: !process.argv.includes('--no-build') });
	const devnet = await startDevnet();
	const port = process.env.EXPAND_N8N_TEST_PORT ? Number(process.env.EXPAND_N8N_TEST_PORT) : await freePorts(5790, 2);
	const n8n: N8nInstance = instance(path.join(USER_FOLDERS, 'e2e'), port);
	const out = (file: string) => path.join(n8n.outputDir, file);
	const [chainA, chainB] = devnet.chains;
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
		out,
		slack,
		rest: () => rest as N8nRest,
		restart: async (whileDown) => {
			await running?.stop();
			running = undefined;
			await whileDown();
			await start();
		},
	};

	const balanceOf = async (chainId: string, owner: string, token: string) =>
		BigInt(
			token === 'native'
				? await devnet.rpc<string>(chainId, 'eth_getBalance', [owner, 'latest'])
				: await devnet.rpc<string>(chainId, 'eth_call', [{ to: token, data: erc20.encodeFunctionData('balanceOf', [owner]) }, 'latest']),
		);
	const quote = async (chainId: string, token: string, decimals: number) => {
		const chain = devnet.chains.find((entry) => entry.chainId === chainId)!;
		const data = router.encodeFunctionData('getAmountsOut', [10n ** BigInt(decimals), [token, chain.tokens.USDC.address]]);
		const [amounts] = router.decodeFunctionResult('getAmountsOut', await devnet.rpc<string>(chainId, 'eth_call', [{ to: chain.uniswapV2.router, data }, 'latest']));
		return Number(formatUnits(amounts[1] as bigint, chain.tokens.USDC.decimals));
	};

	try {
		console.log(`n8n ${N8N_VERSION} in ${path.relative(process.cwd(), n8nRuntime().dir)} on Node ${await nodeVersion()} (${Math.round((installed - started) / 1000)} s); preparing ${n8n.userFolder}`);
		await prepareInstance(n8n, tarballs, devnet, {
			workflows: [
				'treasury-report.devnet.json',
				'payout.devnet.json',
				'solana-payout.devnet.json',
				'price-alert.devnet.json',
				'large-transfer-watch.devnet.json',
				'usdc-received-slack.devnet.json',
				'stablecoin-payout-run.devnet.json',
				'month-end-valuation.devnet.json',
				BLOCK_LOG,
				TRANSFER_LOG,
				PAYOUT_ONCE,
			],
			publish: [EXAMPLE_IDS.priceAlertDevnet, EXAMPLE_IDS.transferWatchDevnet, USDC_EXAMPLE_ID, BLOCK_LOG_ID, TRANSFER_LOG_ID],
		});

		console.log('Examples through `n8n execute --id`:');
		await check('treasury report: every balance equals the chain, formatted exactly, priced by the DEX; a 429 (Retry-After) waited out and retried', async () => {
			// The retry waits through n8n-workflow of the n8n that runs (2.41 has no sleepWithAbort: nodes/shared/sleep.ts).
			devnet.faults.failNext('/chain/getbalance', 'rateLimit');
			const rateLimited = () => devnet.faults.received.some((call) => call.path === '/chain/getbalance' && call.fault === 'rateLimit');
			let result: Awaited<ReturnType<typeof executeWorkflow>>;
			let answered429 = false;
			try {
				result = await executeWorkflow(n8n, EXAMPLE_IDS.treasuryDevnet);
				answered429 = rateLimited();
			} finally {
				// A run that never reached the API leaves the 429 pending: take it here, not in a later check's balance read.
				if (!rateLimited()) await fetch(`${devnet.baseUrl}/chain/getbalance`, { headers: { 'x-api-key': devnet.apiKey } }).catch(() => undefined);
			}
			equal(runError(result), undefined, 'run error');
			assert(answered429, 'one balance read was answered 429 with Retry-After');
			const [report] = JSON.parse(readFileSync(out('treasury-report.json'), 'utf8')) as Array<{
				rows: Array<{ chainId: string; wallet: string; address: string; asset: string; tokenAddress: string; balance: string; amount: string; usdPrice: number; usdValue: number }>;
				walletTotals: Record<string, number>;
				total: number;
			}>;
			equal(report.rows.length, 2 * 3 * 5, 'rows (2 chains × 3 wallets × native and 4 tokens)');
			for (const row of report.rows) {
				const chain = devnet.chains.find((entry) => entry.chainId === row.chainId)!;
				const token = Object.values(chain.tokens).find((entry) => entry.address === row.tokenAddress);
				const decimals = token?.decimals ?? 18;
				equal(row.balance, String(await balanceOf(row.chainId, row.address, row.tokenAddress)), `${row.chainId} ${row.wallet} ${row.asset} balance`);
				const exact = formatUnits(BigInt(row.balance), decimals).replace(/\.0$/, '');
				equal(row.amount, exact, `${row.chainId} ${row.wallet} ${row.asset} formatted amount`);
				equal(row.asset, token?.symbol ?? row.asset, 'symbol');
				const price = token?.symbol === 'USDC' ? 1 : await quote(row.chainId, token?.address ?? chain.weth, decimals);
				equal(row.usdPrice, Math.round(price * 100) / 100, `${row.chainId} ${row.asset} USD price`);
			}
			// What the fixtures hold (devnet/README.md): wallets 1-3 got 10,000 USDC, 5,000 DAI and 100 LINK; wallet 1 sent wallet 2 250 USDC.
			const amount = (chainId: string, wallet: string, asset: string) =>
				report.rows.find((row) => row.chainId === chainId && row.wallet === wallet && row.asset === asset)?.amount;
			for (const chainId of [chainA.chainId, chainB.chainId]) {
				equal(
					['USDC', 'DAI', 'LINK'].map((asset) => amount(chainId, 'Treasury', asset)),
					['9750', '5000', '100'],
					`chain ${chainId} Treasury (wallet 1) tokens`,
				);
				equal(amount(chainId, 'Operations', 'USDC'), '10250', `chain ${chainId} Operations (wallet 2) USDC`);
			}
			const sum = Object.values(report.walletTotals).reduce((total, value) => total + value, 0);
			assert(Math.abs(sum - report.total) < 0.05, `wallet totals ${sum} add up to the total ${report.total}`);
		});

		await check('payout: three USDC transfers signed in n8n, mined, with the exact amounts', async () => {
			const usdc = chainA.tokens.USDC.address;
			const sender = chainA.wallets[PAYOUT_WALLET_INDEX].address;
			const recipients = [5, 6, 7].map((index) => chainA.wallets[index].address);
			const before = await Promise.all([sender, ...recipients].map((address) => balanceOf(chainA.chainId, address, usdc)));
			const result = await executeWorkflow(n8n, EXAMPLE_IDS.payoutDevnet);
			equal(runError(result), undefined, 'run error');
			const [payout] = JSON.parse(readFileSync(out('payout.json'), 'utf8')) as Array<{
				allMined: boolean;
				payments: Array<{ to: string; units: string; transactionHash: string; mined: boolean }>;
			}>;
			equal(payout.payments.map((payment) => payment.to), recipients, 'recipients');
			equal(payout.payments.map((payment) => payment.units), ['125500000', '80000000', '42125000'], 'amounts in the smallest unit');
			assert(payout.allMined, 'the workflow saw every transaction mined');
			for (const payment of payout.payments) {
				const receipt = await devnet.rpc<{ status: string; from: string; to: string } | null>(chainA.chainId, 'eth_getTransactionReceipt', [payment.transactionHash]);
				assert(receipt && receipt.status === '0x1', `${payment.transactionHash} is mined and succeeded`);
				equal(receipt.from.toLowerCase(), sender.toLowerCase(), 'signed by the payout wallet');
				equal(receipt.to.toLowerCase(), usdc.toLowerCase(), 'a USDC transfer');
			}
			const after = await Promise.all([sender, ...recipients].map((address) => balanceOf(chainA.chainId, address, usdc)));
			equal(
				recipients.map((_, index) => String(after[index + 1] - before[index + 1])),
				payout.payments.map((payment) => payment.units),
				'recipient balance changes',
			);
			equal(String(before[0] - after[0]), String(125500000n + 80000000n + 42125000n), 'sender balance change');
		});


		await check('a payout saved on the first release (From, To, Token Address, Gas in Additional Fields; the Signer in the first package), migrated and imported over the example, pays the same amounts', () =>
			firstReleasePayout(devnet, n8n),
		);

		await check('Solana payout: SOL and USDC signed in n8n and sent on chain 901, balances moved exactly; run again, nobody is paid twice', async () => {
			const solana = devnet.solana;
			const balance = async (owner: string, mint = '') => {
				const query = new URLSearchParams({ chainId: solana.chainId, address: owner, ...(mint ? { tokenAddress: mint } : {}) });
				const reply = await fetch(`${devnet.baseUrl}/chain/getbalance?${query}`, { headers: { 'x-api-key': devnet.apiKey } });
				return BigInt(((await reply.json()) as { data: { balance: string } }).data.balance);
			};
			const mint = solana.usdc.address;
			const sender = solana.wallets[SOLANA_PAYOUT_WALLET_INDEX].address;
			const [alice, bob, carol] = [2, 3, 4].map((index) => solana.wallets[index].address);
			// The example's rows (examples/solana-payout.devnet.json), in the smallest units.
			const expected = [
				{ owner: alice, mint: '', amount: 1_500_000_000n },
				{ owner: bob, mint: '', amount: 250_000_000n },
				{ owner: alice, mint, amount: 125_500_000n },
				{ owner: carol, mint, amount: 42_125_000n },
			];
			const holdings = () => Promise.all([...expected.map((entry) => balance(entry.owner, entry.mint)), balance(sender), balance(sender, mint)]);
			const before = await holdings();
			const result = await executeWorkflow(n8n, EXAMPLE_IDS.solanaPayoutDevnet);
			equal(runError(result), undefined, 'run error');
			const after = await holdings();
			// Alice's SOL and USDC are separate balances; each row is checked on its own asset.
			expected.forEach((entry, index) => equal(String(after[index] - before[index]), String(entry.amount), `${entry.owner} ${entry.mint ? 'USDC' : 'SOL'} received`));
			const runData = result.data.resultData.runData as Record<string, Array<{ data: { main: Array<Array<{ json: Record<string, string | boolean> }>> } }>>;
			const signed = ['Sign SOL', 'Sign USDC'].flatMap((name) => runData[name][0].data.main[0].map((item) => item.json));
			const costs = signed.reduce((total, item) => total + BigInt(item.feeLamports as string) + BigInt(item.rentLamports as string), 0n);
			equal(signed.filter((item) => item.recipientTokenAccountCreated === true).length, 1, "Carol's USDC account created (her first USDC)");
			equal(String(before[4] - after[4]), String(1_750_000_000n + costs), 'sender SOL: the payouts, the fees and the rent of the new account');
			equal(String(before[5] - after[5]), '167625000', 'sender USDC');

			const rerun = await executeWorkflow(n8n, EXAMPLE_IDS.solanaPayoutDevnet);
			equal(runError(rerun), undefined, 'rerun error');
			const repeats = ['Sign SOL', 'Sign USDC'].flatMap((name) => (rerun.data.resultData.runData as typeof runData)[name][0].data.main[0].map((item) => item.json));
			equal(repeats.map((item) => [item.payoutId, item.repeat, item.alreadySent]), signed.map((item) => [item.payoutId, true, true]), 'every payout of the rerun is a landed repeat');
			equal((rerun.data.resultData.runData as typeof runData).Send, undefined, 'nothing sent by the rerun');
			equal((await holdings()).map(String), after.map(String), 'balances unchanged by the rerun');
		});

		await check('month-end valuation at a past time: every row equals the chain at that block, priced by the DEX, the total exact, the summary posted', () =>
			monthEndValuation(devnet, n8n, slack),
		);

		await check('exactly-once payout: n8n killed after some of 20 sends, run again: every recipient paid once (balances)', async () => {
			const ledger = out('payout-ledger');
			mkdirSync(ledger, { recursive: true });
			await importCredentials(n8n, [
				{
					id: 'expandSignerLedger01',
					name: 'Expand Signing Key (devnet mnemonic, payout ledger)',
					type: 'expandSignerApi',
					data: { keyType: 'mnemonic', mnemonic: DEVNET_MNEMONIC, derivationPath: "m/44'/60'/0'/0/{index}", payoutLedgerFolder: ledger, allowedChainIds: chainA.chainId },
				},
			]);
			const sender = HDNodeWallet.fromPhrase(DEVNET_MNEMONIC, undefined, `m/44'/60'/0'/0/${PAYOUT_ONCE_ACCOUNT}`).address;
			const recipients = Array.from({ length: 20 }, (_, index) => ({ to: `0x${(0xe000 + index).toString(16).padStart(40, '0')}`, value: 1000000000000000n + BigInt(index) }));
			const sent = async () => Number(BigInt(await devnet.rpc<string>(chainA.chainId, 'eth_getTransactionCount', [sender, 'latest'])));
			const startNonce = await sent();
			for (const recipient of recipients) equal(String(await balanceOf(chainA.chainId, recipient.to, 'native')), '0', `${recipient.to} unpaid before`);

			// First run: `n8n execute` in its own process group, killed with SIGKILL (no clean-up, as in a crash) after a few sends.
			const first = startProcess(n8nNode(), [n8nBin(), 'execute', `--id=${PAYOUT_ONCE_ID}`, '--rawOutput'], { env: { ...process.env, ...n8nEnv(n8n) } });
			const deadline = Date.now() + 120_000;
			while ((await sent()) - startNonce < 5) {
				if (Date.now() > deadline || first.exitCode() !== undefined) throw new Error('the first run did not send 5 payouts (within 120 s, before it ended)');
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
			process.kill(-(first.process.pid as number), 'SIGKILL');
			await first.exited;
			await first.stop();
			const paidBeforeKill = (await sent()) - startNonce;
			assert(paidBeforeKill >= 5 && paidBeforeKill < 20, `killed in the middle: ${paidBeforeKill} of 20 sent`);
			equal(readdirSync(ledger).filter((file) => file.startsWith('expand-payout-')).length, 20, 'ledger files written before the sends (all 20 signed)');
			// Each automatic nonce was claimed before it was signed (the folder also holds the nonce claims).
			equal(readdirSync(ledger).filter((file) => file.startsWith('expand-nonce-')).length, 20, 'nonce claims of the 20 signed payouts');

			// n8n again (a new process), the same workflow run again.
			const rerun = await executeWorkflow(n8n, PAYOUT_ONCE_ID);
			equal(runError(rerun), undefined, 'rerun error');
			const signed = (rerun.data.resultData.runData.Sign as Array<{ data: { main: Array<Array<{ json: { repeat: boolean; alreadySent: boolean } }>> } }>)[0].data.main[0].map((item) => item.json);
			equal(signed.filter((item) => item.repeat).length, 20, 'every payout of the rerun is a repeat of the first run');
			const alreadySent = signed.filter((item) => item.alreadySent).length;
			assert(alreadySent >= paidBeforeKill, `the rerun knew the ${paidBeforeKill} sent ones (${alreadySent} already on the chain)`);

			for (const recipient of recipients) equal(String(await balanceOf(chainA.chainId, recipient.to, 'native')), String(recipient.value), `${recipient.to} paid exactly once`);
			equal((await sent()) - startNonce, 20, 'the sender sent exactly 20 transactions');
			console.log(`    (${paidBeforeKill} sent before the kill, ${alreadySent} already on the chain at the rerun, ${20 - alreadySent} sent by the rerun)`);

			// A third run changes nothing.
			const third = await executeWorkflow(n8n, PAYOUT_ONCE_ID);
			equal(runError(third), undefined, 'third run error');
			equal((await sent()) - startNonce, 20, 'still exactly 20 after a third run');
		});

		const declares = readsCommunityPackagesVariable(N8N_VERSION);
		await check(
			`install by hand: \`npm install --omit=dev --omit=peer\` of both tarballs in .n8n/nodes (the Docker example's command) loads the nodes${declares ? "; n8n reads N8N_COMMUNITY_PACKAGES declaring both packages and looks the versions up on the npm registry" : ''}`,
			async () => {
				const logged = await manualInstall(tarballs, declares);
				if (!declares) return;
				// Until the package is on the npm registry, n8n finds no such version there: the declaration is read and acted on, the install cannot succeed.
				const ref = `'${PACKAGE}@${JSON.parse(COMMUNITY_PACKAGES)[0].version}'`;
				const outcome = [`Installed community package ${ref} from env`, `Failed to install community package ${ref} from env: Package version does not exist`].find((line) => logged.includes(line));
				assert(outcome, `n8n installed the declared package from the registry or found it unpublished there; it logged:\n${logged || '(nothing about community packages)'}`);
				console.log(`    (N8N_COMMUNITY_PACKAGES=${COMMUNITY_PACKAGES}: "${outcome}")`);
			},
		);

		console.log('n8n start:');
		await start();

		await check('n8n lists the nodes and credentials of both packages, the Expand AI-tool variant (no Signer tool)', async () => {
			const nodes = (await rest!.nodeTypes()).map((node) => node.name);
			const expected = [...['expand', 'expandTrigger', 'expandTool'].map((name) => `${PACKAGE}.${name}`), `${SIGNER_PACKAGE}.expandSigner`];
			for (const type of expected) assert(nodes.includes(type), `${type} in /types/nodes.json`);
			assert(!nodes.includes(`${SIGNER_PACKAGE}.expandSignerTool`), 'the Signer is not offered to AI agents');
			const credentials = (await rest!.credentialTypes()).map((credential) => credential.name);
			for (const name of ['expandApi', 'expandSignerApi', 'expandSolanaKeyApi']) assert(credentials.includes(name), `${name} in /types/credentials.json`);
		});

		await check('credential test: succeeds with the devnet key, fails clearly with a wrong one', async () => {
			const data = { apiKey: devnet.apiKey, baseUrl: devnet.baseUrl, historicalUrl: devnet.historicalUrl, streamUrl: devnet.streamUrl };
			const good = await rest!.testCredential({ ...EXPAND_CREDENTIAL, data });
			equal(good.status, 'OK', `status (${good.message})`);
			// The editor's Test on a saved credential whose form was edited: its id with the form's data (n8n 2.41 requires the id).
			const bad = await rest!.testCredential({ ...EXPAND_CREDENTIAL, data: { ...data, apiKey: 'not-a-devnet-key' } });
			equal(bad.status, 'Error', 'status with a wrong key');
			assert(/forbidden/i.test(bad.message), `the message says why: "${bad.message}"`);
			const offline = await rest!.testCredential({ ...EXPAND_CREDENTIAL, data: { ...data, baseUrl: 'http://127.0.0.1:9' } });
			equal(offline.status, 'Error', 'status with an unreachable base URL');
		});

		await check('stablecoin payout run, rejected at the approval step: nothing signed, nothing sent', () => payoutRunRejected(session));
		await check('stablecoin payout run, approved: preflight totals, every row paid exactly once on the chain, hashes and blocks written back', () =>
			payoutRunApproved(session),
		);
		await check('stablecoin payout run, approved again: nobody paid twice (payout IDs)', () => payoutRunAgain(session));

		// The stream runs on the runtime's own WebSocket, which Node 20 (the oldest n8n's) lacks.
		if (!(await runtimeHasWebSocket()))
			await check('price alert (active) on Node 20: Ticker Price refuses to activate and names the requirement', async () => {
				const error = await rest!.activationError(EXAMPLE_IDS.priceAlertDevnet);
				assert(error?.includes('Ticker Price needs the WebSocket client built into Node.js 22 and later'), `the activation error names the requirement: ${error}`);
			});
		else await check('price alert (active): mined blocks start executions with the DEX price of WETH', async () => {
			const head = Number(BigInt(await devnet.rpc<string>(chainA.chainId, 'eth_blockNumber')));
			await devnet.mine(chainA.chainId, 1);
			await pause(300);
			await devnet.mine(chainA.chainId, 1);
			const alerts = await until('two alerts after the mined blocks', () => {
				const lines = jsonLines<{ symbol: string; price: string; blockNumber: number }>(out('price-alerts.jsonl')).filter((line) => line.blockNumber > head);
				return lines.length >= 2 && lines;
			});
			assert(alerts.every((alert) => alert.symbol === 'WETH'), 'only WETH passes the IF (LINK is below 1,000)');
			equal(Number(alerts[0].price), await quote(chainA.chainId, chainA.weth, 18), 'price');
			const executions = await rest!.executions(EXAMPLE_IDS.priceAlertDevnet);
			assert(executions.results.some((execution) => execution.mode === 'trigger' && execution.status === 'success'), 'successful trigger executions in n8n');
		});

		const sendNative = async (from: string, to: string, ether: bigint) =>
			devnet.rpc<string>(chainA.chainId, 'eth_sendTransaction', [{ from, to, value: `0x${(ether * 10n ** 18n).toString(16)}` }]);
		const watched = () => jsonLines<{ hash: string; value: string }>(out('large-transfers.jsonl'));

		await check('large-transfer watch (active): exactly the large transfers of watched wallets', async () => {
			const large = await sendNative(chainA.wallets[1].address, chainA.wallets[8].address, 2n);
			const small = await devnet.rpc<string>(chainA.chainId, 'eth_sendTransaction', [{ from: chainA.wallets[2].address, to: chainA.wallets[8].address, value: '0x6f05b59d3b20000' }]);
			const unwatched = await sendNative(chainA.wallets[7].address, chainA.wallets[8].address, 3n);
			const incoming = await sendNative(chainA.wallets[8].address, chainA.wallets[3].address, 5n);
			await devnet.mine(chainA.chainId, 1);
			await until('both large transfers in the file', () => watched().length >= 2);
			await pause(2000);
			equal(watched().map((line) => line.hash), [large, incoming], 'transfers written (not the 0.5 ETH one, not the unwatched wallets)');
			equal(watched().map((line) => line.value), ['2000000000000000000', '5000000000000000000'], 'values');
			assert(![small, unwatched].some((hash) => watched().some((line) => line.hash === hash)), 'filtered transfers absent');
		});

		await check('"USDC received → Slack" example (active): one message with the sender, the amount in USDC and the transaction', () => usdcReceivedExample(session));
		await check(
			'New Block and Token Transfer exactly once through an n8n restart and a deactivation while blocks and transfers keep coming',
			() => restartAndReactivation(session),
		);
		await check('Token Transfer: changed watched addresses (unpublish, edit, publish) keep the position; the new filter applies from the next block', () =>
			watchedAddressesChange(session),
		);
		await check("New Block: a changed chain starts afresh at the new chain's head, also when changed back", () => chainChange(session));
	} catch (error) {
		results.push({ name: 'setup', ok: false, ms: 0 });
		console.log(`  ✗ setup\n    ${String((error as Error)?.stack ?? error)}`);
	} finally {
		await running?.stop();
		await slack.close();
		await devnet.stop();
	}
	const failed = results.filter((result) => !result.ok).length;
	console.log(`\nreal n8n e2e: ${Math.round((Date.now() - started) / 1000)} s (n8n install ${Math.round((installed - started) / 1000)} s); n8n log: ${path.join(n8n.userFolder, 'n8n.log')}`);
	console.log(`${results.length - failed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
}

main().catch((error) => {
	console.error(error);
	console.log('0 passed, 1 failed');
	process.exit(1);
});
