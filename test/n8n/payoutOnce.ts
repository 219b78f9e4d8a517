/**
 * Exactly-once payouts through a crash: `n8n execute` of a 20-recipient payout with payout IDs is
 * killed (SIGKILL, no clean-up) after some sends and run again in a new process: every recipient is
 * paid exactly once, checked by balances, and a third run changes nothing.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

import { n8nBin, n8nNode } from '../../playground/install';
import { executeWorkflow, n8nEnv, runError } from '../../playground/n8n';
import { importCredentials } from '../../playground/prepare';
import { startProcess } from '../../playground/proc';
import { balanceOf } from '../helpers/chainReads';
import { assert, equal } from '../helpers/checks';
import type { Session } from './session';
import { devnetAccount, devnetSignerKey } from '../helpers/devnetCredentials';

export const PAYOUT_ONCE_ID = 'expandTestPayoutOnce';
export const PAYOUT_ONCE = path.join(__dirname, 'workflows', 'payout-once.json');
/** The payout pays from hardhat account 12 of the devnet mnemonic (Account Index 12). */
const PAYOUT_ONCE_ACCOUNT = 12;

export async function exactlyOncePayout({ devnet, n8n, out }: Session): Promise<string> {
	const chainA = devnet.chains[0];
	const ledger = out('payout-ledger');
	mkdirSync(ledger, { recursive: true });
	await importCredentials(n8n, [
		{
			id: 'expandSignerLedger01',
			name: 'Expand Signing Key (devnet mnemonic, payout ledger)',
			type: 'expandSignerApi',
			data: devnetSignerKey({ payoutLedgerFolder: ledger, allowedChainIds: chainA.chainId }),
		},
	]);
	const sender = devnetAccount(PAYOUT_ONCE_ACCOUNT).address;
	const recipients = Array.from({ length: 20 }, (_, index) => ({
		to: `0x${(0xe000 + index).toString(16).padStart(40, '0')}`,
		value: 1000000000000000n + BigInt(index),
	}));
	const sent = async () =>
		Number(
			BigInt(
				await devnet.rpc<string>(chainA.chainId, 'eth_getTransactionCount', [sender, 'latest']),
			),
		);
	const startNonce = await sent();
	for (const recipient of recipients)
		equal(
			String(await balanceOf(devnet, chainA.chainId, recipient.to, 'native')),
			'0',
			`${recipient.to} unpaid before`,
		);

	// First run: `n8n execute` in its own process group, killed with SIGKILL (no clean-up, as in a crash) after a few sends.
	const first = startProcess(
		n8nNode(),
		[n8nBin(), 'execute', `--id=${PAYOUT_ONCE_ID}`, '--rawOutput'],
		{ env: { ...process.env, ...n8nEnv(n8n) } },
	);
	const deadline = Date.now() + 120_000;
	while ((await sent()) - startNonce < 5) {
		if (Date.now() > deadline || first.exitCode() !== undefined)
			throw new Error('the first run did not send 5 payouts (within 120 s, before it ended)');
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	process.kill(-(first.process.pid as number), 'SIGKILL');
	await first.exited;
	await first.stop();
	const paidBeforeKill = (await sent()) - startNonce;
	assert(
		paidBeforeKill >= 5 && paidBeforeKill < 20,
		`killed in the middle: ${paidBeforeKill} of 20 sent`,
	);
	equal(
		readdirSync(ledger).filter((file) => file.startsWith('expand-payout-')).length,
		20,
		'ledger files written before the sends (all 20 signed)',
	);
	// Each automatic nonce was claimed before it was signed (the folder also holds the nonce claims, and beside each the record of its transaction).
	equal(
		readdirSync(ledger).filter((file) => /^expand-nonce-.*-\d+\.json$/.test(file)).length,
		20,
		'nonce claims of the 20 signed payouts',
	);

	// n8n again (a new process), the same workflow run again.
	const rerun = await executeWorkflow(n8n, PAYOUT_ONCE_ID);
	equal(runError(rerun), undefined, 'rerun error');
	const signed = (
		rerun.data.resultData.runData.Sign as Array<{
			data: { main: Array<Array<{ json: { repeat: boolean; alreadySent: boolean } }>> };
		}>
	)[0].data.main[0].map((item) => item.json);
	equal(
		signed.filter((item) => item.repeat).length,
		20,
		'every payout of the rerun is a repeat of the first run',
	);
	const alreadySent = signed.filter((item) => item.alreadySent).length;
	assert(
		alreadySent >= paidBeforeKill,
		`the rerun knew the ${paidBeforeKill} sent ones (${alreadySent} already on the chain)`,
	);

	for (const recipient of recipients)
		equal(
			String(await balanceOf(devnet, chainA.chainId, recipient.to, 'native')),
			String(recipient.value),
			`${recipient.to} paid exactly once`,
		);
	equal((await sent()) - startNonce, 20, 'the sender sent exactly 20 transactions');

	// A third run changes nothing.
	const third = await executeWorkflow(n8n, PAYOUT_ONCE_ID);
	equal(runError(third), undefined, 'third run error');
	equal((await sent()) - startNonce, 20, 'still exactly 20 after a third run');
	return `(${paidBeforeKill} sent before the kill, ${alreadySent} already on the chain at the rerun, ${20 - alreadySent} sent by the rerun)`;
}
