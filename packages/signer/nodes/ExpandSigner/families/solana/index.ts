import type { Transaction } from '@solana/kit';

export type { Transaction as SolanaTransaction } from '@solana/kit';

import { decodeTransaction } from './decode';
import { type SolanaChainReader, type SolanaEffect, solanaEffect } from './effect';
import type { SolanaAccount } from './keys';

/** A Solana transaction ready for the policy and signing: decoded, and described once (reading token accounts is asynchronous). */
export interface SolanaUnsigned {
	chainId: string;
	transaction: Transaction;
	effect: SolanaEffect;
}

/** Decodes a transaction and describes it for the account that is to sign it. */
export async function prepareSolanaTransaction(
	transaction: Transaction,
	chainId: string,
	account: SolanaAccount,
	reader: SolanaChainReader,
): Promise<SolanaUnsigned> {
	return {
		chainId,
		transaction,
		effect: await solanaEffect(decodeTransaction(transaction), chainId, account.address, reader),
	};
}

export {
	repricedTransaction,
	transferSolTransaction,
	transferTokenTransaction,
	type Lifetime,
} from './build';
export {
	blockhashIsValid,
	finalizedBlockHeight,
	latestLifetime,
	mintDecimals,
	rpcChainReader,
	SOLANA_CHAIN_IDENTITY,
	SOLANA_CHAINS,
	type SolanaRpc,
	UnexpectedRpcAnswer,
} from './chain';
export {
	decodeTransaction,
	messageKind,
	readWireTransaction,
	UndecodableTransaction,
	type DecodedTransaction,
} from './decode';
export { describeSolanaError } from './errors';
export {
	rentExemption,
	TOKEN_ACCOUNT_SIZE,
	type SolanaChainReader,
	type SolanaEffect,
} from './effect';
export { SolanaAccount, type SolanaKeyring, solanaKeyring, solanaPath } from './keys';
export {
	messageBytes,
	NotASigner,
	signatureOf,
	signSolanaMessage,
	type RemoteSolanaSigner,
	signSolanaTransaction,
	signSolanaWith,
	type SolanaSignedTransaction,
	unsignedWireHex,
	wireFromHex,
	transactionId,
	verifiedSignature,
} from './sign';
export { SOLANA_POLICY_FORMAT } from './policyFormat';
