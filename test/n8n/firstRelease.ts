/**
 * A payout saved on the first release (test/compat/0.1.0/workflows/payout.devnet.904f474.json:
 * Expand version 1 with From, To, Token Address and Gas under Additional Fields, and the Signer under
 * its first package) upgraded as docs/upgrading.md says: the signer package's migration, then
 * `n8n import:workflow` over the example of the same ID, then `n8n execute`. Every recipient gets
 * exactly the amount the first release paid.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';

import { executeWorkflow, n8nCli, runError } from '../../playground/n8n';
import { run } from '../../playground/proc';
import { PAYOUT_WALLET_INDEX } from '../../playground/prepare';
import { balanceOf } from '../helpers/chainReads';
import { assert, equal } from '../helpers/checks';
import type { Session } from './session';

const ROOT = path.join(__dirname, '..', '..');
const SAVED = path.join(ROOT, 'test', 'compat', '0.1.0', 'workflows', 'payout.devnet.904f474.json');
const MIGRATION = path.join(ROOT, 'packages', 'signer', 'bin', 'migrate-workflows.js');
const ID = 'expandPayoutDevnet';

export async function firstReleasePayout({ devnet, n8n }: Session): Promise<void> {
	const [chain] = devnet.chains;
	const usdc = chain.tokens.USDC.address;
	const balance = (owner: string) => balanceOf(devnet, chain.chainId, owner, usdc);
	const sender = chain.wallets[PAYOUT_WALLET_INDEX].address;
	const recipients = [5, 6, 7].map((index) => chain.wallets[index].address);

	const dir = path.join(n8n.outputDir, 'first-release');
	mkdirSync(dir, { recursive: true });
	const file = path.join(dir, 'workflows.json');
	copyFileSync(SAVED, file);
	const { stdout } = await run(process.execPath, [MIGRATION, file], { capture: true });
	assert(stdout.includes('1 node(s) renamed'), `the migration renamed the Signer node: ${stdout}`);
	await n8nCli(n8n, ['import:workflow', `--input=${file}`]);

	const before = await Promise.all([sender, ...recipients].map(balance));
	const result = await executeWorkflow(n8n, ID);
	equal(runError(result), undefined, 'run error');
	const after = await Promise.all([sender, ...recipients].map(balance));
	equal(
		recipients.map((_, index) => String(after[index + 1] - before[index + 1])),
		['125500000', '80000000', '42125000'],
		'recipient balance changes',
	);
	equal(String(before[0] - after[0]), '247625000', 'sender balance change');
	const transfer = (
		result.data.resultData.runData as Record<
			string,
			Array<{ data: { main: Array<Array<{ json: Record<string, string> }>> } }>
		>
	).Transfer[0].data.main[0];
	equal(
		transfer.map((item) => item.json.from),
		recipients.map(() => sender),
		'From read from Additional Fields',
	);
}
