/**
 * The RWA example on Stellar (examples/stellar-rwa-issue-transfer.devnet.json) with `n8n execute` on the
 * devnet's Stellar testnet (chain 1501): the holder's and the receiver's trustlines, the issuer's
 * authorisation, the issue and the transfer, each signed by its account and confirmed; RWA1 on both
 * trustlines on the ledger, every step's payout mined.
 */
import { executeWorkflow, runError } from '../../playground/n8n';
import { EXAMPLE_IDS } from '../../playground/playground';
import { stellarPayoutChain } from '../../playground/prepare';
import { equal } from '../helpers/checks';
import type { Session } from './session';

const HOLDER = 1;
const RECEIVER = 2;

export async function stellarRwaExample({ devnet, n8n }: Session): Promise<string> {
	const testnet = stellarPayoutChain(devnet);
	const line = (account: number) =>
		testnet.chain.account(testnet.wallets[account].publicKey)?.trustlines.get(testnet.rwa.asset);
	equal([line(HOLDER), line(RECEIVER)], [undefined, undefined], 'no RWA1 trustline before');
	const result = await executeWorkflow(n8n, EXAMPLE_IDS.stellarRwaDevnet);
	equal(runError(result), undefined, 'run error');
	equal(
		[HOLDER, RECEIVER].map((account) => [
			String(line(account)?.balance),
			line(account)?.authorized,
		]),
		[
			['7500000000', true],
			['2500000000', true],
		],
		'RWA1 (stroops) on the holder and the receiver, authorised by the issuer',
	);
	const runData = result.data.resultData.runData as Record<
		string,
		Array<{ data: { main: Array<Array<{ json: Record<string, unknown> }>> } }>
	>;
	const outcome = runData.Result[0].data.main[0][0].json as {
		confirmed: boolean;
		payouts: Array<{ chainStatus: string }>;
	};
	equal(
		[outcome.confirmed, outcome.payouts.map((payout) => payout.chainStatus)],
		[true, ['mined', 'mined', 'mined', 'mined', 'mined']],
		'every step checked on the chain',
	);
	return '5 transactions (2 trustlines, the authorisation, issue, transfer) signed, sent and mined; 750 and 250 RWA1';
}
