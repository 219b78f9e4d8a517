/**
 * The month-end payout reconciliation example (examples/month-end-payout-reconciliation.devnet.json)
 * with `n8n execute`, after the payout examples signed with the devnet wallet 3 credential: one row per
 * entry of the payout journal in its ledger folder, each row's status what the chain says (a mined
 * row's block and fee paid are its receipt's), the summary posted once.
 */
import { readdirSync, readFileSync } from 'node:fs';

import { executeWorkflow, runError } from '../../playground/n8n';
import { EXAMPLE_IDS } from '../../playground/playground';
import { evmLedgerFolder } from '../../playground/prepare';
import { assert, equal } from '../helpers/checks';
import type { Session } from './session';

interface Row {
	seq: number;
	outcome: string;
	chainId: string;
	transactionHash: string;
	chainStatus: string;
	block: string;
	feePaid: string;
	replacedBy: string;
	error?: string;
}

interface Receipt {
	blockNumber: string;
	gasUsed: string;
	effectiveGasPrice: string;
}

export async function payoutReconciliation({ devnet, n8n, slack }: Session): Promise<string> {
	const journal = readdirSync(evmLedgerFolder(n8n)).filter((name) =>
		/^expand-journal-\d+\.json$/.test(name),
	);
	assert(journal.length > 0, 'the payout examples journaled what they signed');
	const messagesBefore = slack.received.length;
	const result = await executeWorkflow(n8n, EXAMPLE_IDS.reconciliationDevnet, {
		EXPAND_SLACK_WEBHOOK_URL: slack.url,
	});
	equal(runError(result), undefined, 'run error');
	const [report] = JSON.parse(
		readFileSync(`${n8n.outputDir}/payout-reconciliation.json`, 'utf8'),
	) as Array<{
		rows: Row[];
		counts: Record<string, number>;
		text: string;
	}>;
	equal(
		report.rows.map((row) => row.seq),
		journal.map((_, index) => index + 1),
		'one row per journal entry, oldest first',
	);
	const receipt = (row: Row, hash: string) =>
		devnet.rpc<Receipt | null>(row.chainId, 'eth_getTransactionReceipt', [hash]);
	for (const row of report.rows) {
		const what = `entry ${row.seq} (${row.transactionHash || row.outcome})`;
		equal(row.error, undefined, `${what} checked`);
		if (row.outcome === 'refused') {
			equal(row.chainStatus, 'refused', `${what} status`);
			continue;
		}
		const own = await receipt(row, row.transactionHash);
		if (row.chainStatus === 'mined') {
			assert(own, `${what} is mined: the chain has its receipt`);
			equal(row.block, BigInt(own.blockNumber).toString(), `${what} block`);
			equal(
				row.feePaid,
				(BigInt(own.gasUsed) * BigInt(own.effectiveGasPrice)).toString(),
				`${what} fee paid`,
			);
		} else {
			equal(own, null, `${what} (${row.chainStatus}) has no receipt on the chain`);
			if (row.chainStatus === 'replaced')
				assert(await receipt(row, row.replacedBy), `${what} replaced by a mined transaction`);
		}
	}
	const sent = slack.received.splice(messagesBefore);
	equal(
		sent.map((body) => (body as { text?: string }).text),
		[report.text],
		'the summary posted once to the Slack stand-in',
	);
	return `${report.rows.length} entries: ${Object.entries(report.counts)
		.map(([status, count]) => `${count} ${status}`)
		.join(', ')}`;
}
