/**
 * The RWA example on Stellar (examples/stellar-rwa-issue-transfer.devnet.json) with `n8n execute` on the
 * devnet's Stellar testnet (chain 1501): the holder's and the receiver's trustlines, the issuer's
 * authorisation, the issue and the transfer, each signed by its account and confirmed; RWA1 on both
 * trustlines on the ledger, every step's payout mined; issue and transfer signed under the intent the
 * Expand node wrote.
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
	// The Signer held issue and transfer to the intent the Expand node wrote: a payment of RWA1 in stroops.
	equal(
		['Build issue', 'Build transfer'].map((name) => {
			const intent = runData[name][0].data.main[0][0].json.intent as Record<string, unknown>;
			return [intent.effect, intent.token, intent.amount, intent.decimals];
		}),
		[
			['transfer', testnet.rwa.asset, '10000000000', 7],
			['transfer', testnet.rwa.asset, '2500000000', 7],
		],
		"the Expand node's intent of the issue and the transfer",
	);
	equal(
		[outcome.confirmed, outcome.payouts.map((payout) => payout.chainStatus)],
		[true, ['mined', 'mined', 'mined', 'mined', 'mined']],
		'every step checked on the chain',
	);
	return '5 transactions (2 trustlines, the authorisation, issue, transfer) signed, sent and mined; 750 and 250 RWA1';
}
