import type { IExecuteFunctions } from 'n8n-workflow';

import {
	ChainClient,
	getMultisigTransaction,
	listMultisigTransactions,
	SAFE_API_CREDENTIAL,
	type SafeApiCredentials,
	verifiedExecution,
} from '../../core';
import type { CheckedRow, PayoutCheck } from '../checkPayouts.operation';
import { safeApiOf } from './safe';
import { confirmedExecution, safeNonce } from './safeExecution';
import type { EvmSession } from './session';

/** Transactions of one Safe nonce read from the Safe API to find the one executed in its place. */
const SAME_NONCE_LIMIT = 20;

/**
 * Where a Safe proposal stands. The chain decides: while the Safe's nonce has not passed the
 * proposal's, it is `proposed` (or `notPosted` when the Safe API does not hold it); once it has, the
 * Safe API's silence says nothing (`executedOrReplaced`), and the
 * proposal is `executed` only when the execution transaction the Safe API names holds the Safe's
 * ExecutionSuccess or ExecutionFailure for its safeTxHash (the trigger's check, nodes/shared/safe), and
 * `replaced` only when another transaction of its nonce is so confirmed. Without the Safe API
 * credential on the node, a passed nonce is `executedOrReplaced`: the chain alone does not say which.
 */
export async function checkSafeProposal(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
	row: CheckedRow,
): Promise<PayoutCheck> {
	const client = new ChainClient(this, row.chainId, itemIndex, session.rpcUrls);
	const onChain = await safeNonce.call(this, itemIndex, client, row.chainId, row.account);
	const nonce = BigInt(row.nonce);
	const pending = onChain <= nonce;
	if (!this.getNode().credentials?.[SAFE_API_CREDENTIAL])
		return pending
			? {
					chainStatus: 'proposed',
					statusMessage: `The Safe's nonce is ${onChain}: nonce ${nonce} is not executed yet. Without a Safe API credential on this node, whether the Safe API holds the proposal is not checked`,
				}
			: {
					chainStatus: 'executedOrReplaced',
					statusMessage: `The Safe's nonce is ${onChain}, past this proposal's ${nonce}: it was executed, or another transaction of nonce ${nonce} was. Add the Safe API credential to Check Payouts to tell which`,
				};
	const credentials = await safeApiOf.call(this, session, itemIndex, 'Check Payouts');
	const stored = await getMultisigTransaction.call(
		this,
		credentials,
		row.transactionHash,
		itemIndex,
	);
	// Once the nonce has passed, a service that does not hold the proposal says nothing of whether it was paid.
	if (!stored)
		return pending
			? {
					chainStatus: 'notPosted',
					statusMessage:
						'The Safe API does not hold the proposal: run the payout again with the same payout ID to post it',
				}
			: {
					chainStatus: 'executedOrReplaced',
					statusMessage: `The Safe API does not hold the proposal, but the Safe's nonce is ${onChain}, past this proposal's ${nonce}: it was executed, or another transaction of its nonce was; the chain alone does not say which`,
				};
	if (pending)
		return {
			chainStatus: 'proposed',
			statusMessage: `Awaiting the Safe's owners: ${stored.confirmations.length} of ${stored.confirmationsRequired ?? '?'} confirmations; the Safe's nonce is ${onChain}`,
		};
	let doubt = '';
	if (stored.isExecuted) {
		const asked = { chainId: row.chainId, safe: row.account, safeTxHash: row.transactionHash };
		const confirmed = await confirmedExecution.call(
			this,
			itemIndex,
			client,
			asked,
			stored,
			onChain,
		);
		if (typeof confirmed !== 'string')
			return {
				chainStatus: 'executed',
				executionTransactionHash: confirmed.transactionHash,
				block: confirmed.blockNumber.toString(),
				success: confirmed.successful,
				feePaid: confirmed.feePaid.toString(),
			};
		doubt = `; the Safe API says it was executed, but the chain does not confirm it: ${confirmed}`;
	}
	const replacement = await confirmedReplacement.call(this, itemIndex, client, credentials, row);
	if (replacement) return replacement;
	return {
		chainStatus: 'executedOrReplaced',
		statusMessage: `The Safe's nonce is ${onChain}, past this proposal's ${nonce}, but the chain confirms no execution the Safe API names for nonce ${nonce}${doubt}`,
	};
}

/** Another transaction of the proposal's nonce that the Safe API lists executed and the chain confirms. */
async function confirmedReplacement(
	this: IExecuteFunctions,
	itemIndex: number,
	client: ChainClient,
	credentials: SafeApiCredentials,
	row: CheckedRow,
): Promise<PayoutCheck | undefined> {
	const page = await listMultisigTransactions.call(
		this,
		credentials,
		row.account,
		{ executed: true, nonce: row.nonce, limit: SAME_NONCE_LIMIT },
		itemIndex,
	);
	for (const other of page.results) {
		if (other.nonce !== row.nonce) continue;
		if (other.safeTxHash.toLowerCase() === row.transactionHash.toLowerCase()) continue;
		const verified = await verifiedExecution(client, row.chainId, row.account, other);
		if (typeof verified === 'string') continue;
		return {
			chainStatus: 'replaced',
			replacedBy: other.safeTxHash,
			executionTransactionHash: verified.receipt.transactionHash,
			block: String(verified.blockNumber),
		};
	}
	return undefined;
}
