import type { IExecuteFunctions } from 'n8n-workflow';

import { formatUnits, itemError } from '../../core';
import { messageStatuses, signedSeqno, TON_CHAINS, type TonAccount } from '../../families/ton';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import type { CheckedRow, PayoutCheck } from '../checkPayouts.operation';
import { nodeOf } from './fields';
import type { TonSession } from './session';
import { lifetimeOf, ownSignedTransfer } from './signing';

const HASH = /^[0-9a-f]{64}$/;

/** How many accounts of the credential are searched for the row's wallet. */
const SEARCHED_ACCOUNTS = 20;

/** The credential's account whose wallet on `chainId` is `address`, among the first SEARCHED_ACCOUNTS. */
function accountWithAddress(
	session: TonSession,
	chainId: string,
	address: string,
): TonAccount | undefined {
	for (let index = 0; index < SEARCHED_ACCOUNTS; index++) {
		let account: TonAccount;
		try {
			account = session.keyring.account(index, chainId);
		} catch {
			return undefined;
		}
		if (account.address === address) return account;
	}
	return undefined;
}

/**
 * Where a TON message stands: in a wallet transaction (this one: `mined`, with its transaction's lt,
 * fee and whether it succeeded; another signature of the payout: `replaced`), else `pending` while
 * the wallet can still accept it, `dropped` once it never can (families/ton/status.ts), `unknown`
 * when the node's answers show neither. Signatures are believed only from payout ledger bytes the
 * account signed; their seqno and valid_until are read from the same bytes.
 */
export async function checkTonPayout(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TonSession,
	row: CheckedRow,
	generations: LedgerEntry[],
): Promise<PayoutCheck> {
	const own = row.transactionHash.toLowerCase();
	if (!TON_CHAINS[row.chainId] || !HASH.test(own))
		throw itemError(
			this.getNode(),
			itemIndex,
			`Check Payouts reads the entries List Payouts gives: a TON entry has a TON chain ID and a 64-hex-digit message hash; got "${row.chainId.slice(0, 20)}" and "${own.slice(0, 70)}"`,
		);
	const account = accountWithAddress(session, row.chainId, row.account);
	const signed = account
		? generations
				.map((entry) => ownSignedTransfer(entry, account))
				.filter((transfer) => transfer !== undefined)
		: [];
	if (!signed.some((transfer) => transfer.transactionHash === own))
		return {
			chainStatus: 'unknown',
			statusMessage:
				"The payout ledger holds no signed bytes of this message that the credential's key signed (it has no payout ID, or its wallet is not among the credential's first accounts), so its seqno and valid_until are not known: check it by hand. Never read this as unpaid",
		};
	const node = nodeOf.call(this, itemIndex, session, row.chainId);
	const statuses = await messageStatuses(
		node,
		row.account,
		signed.map(lifetimeOf),
		Math.floor(Date.now() / 1000),
		(body) => (account ? signedSeqno(body, account) : undefined),
	);
	const landedAt = statuses.findIndex((status) => status.kind === 'landed');
	const landed = statuses[landedAt];
	if (landed?.kind === 'landed') {
		const { transactionHash } = signed[landedAt];
		if (transactionHash !== own)
			return { chainStatus: 'replaced', replacedBy: transactionHash, block: landed.landed.lt };
		const { success, fee, lt, utime } = landed.landed;
		return {
			chainStatus: 'mined',
			block: lt,
			success,
			feePaid: fee.toString(),
			...(success === false
				? {
						statusMessage: `The wallet accepted it in transaction ${lt} at ${new Date(utime * 1000).toISOString()}, which failed (fee ${formatUnits(fee.toString(), 9)} TON): what it sends did not go out; its payout ID stays bound to it, pay it under a new payout ID once you know why`,
					}
				: {}),
		};
	}
	const status = statuses[signed.findIndex((transfer) => transfer.transactionHash === own)];
	switch (status.kind) {
		case 'expired':
			return {
				chainStatus: 'dropped',
				statusMessage: `It was never accepted and never can be: ${status.why}. Nothing was paid by it`,
			};
		case 'pending':
			return {
				chainStatus: 'pending',
				statusMessage: `It is not accepted yet and can still be: ${status.why}`,
			};
		default:
			return {
				chainStatus: 'unknown',
				statusMessage: `The chain's node cannot show where it stands: ${status.kind === 'unknown' ? status.why : ''}. Never read this as unpaid`,
			};
	}
}
