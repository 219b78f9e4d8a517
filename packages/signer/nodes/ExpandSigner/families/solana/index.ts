import type { Transaction } from '@solana/kit';

export type { Transaction as SolanaTransaction } from '@solana/kit';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { ChainFamily, SigningAccount } from '../../policy/vocabulary';
import { decodeTransaction } from './decode';
import { type SolanaChainReader, type SolanaIntent, solanaIntent } from './intent';
import { type SolanaAccount, solanaKeyring } from './keys';
import { signSolanaTransaction } from './sign';

/** A Solana transaction ready for the policy and signing: decoded, and described once (reading token accounts is asynchronous). */
export interface SolanaUnsigned {
	chainId: string;
	transaction: Transaction;
	intent: SolanaIntent;
}

/** Decodes a transaction and describes it for the account that is to sign it. */
export async function prepareSolanaTransaction(
	transaction: Transaction,
	chainId: string,
	account: SolanaAccount,
	reader: SolanaChainReader,
): Promise<SolanaUnsigned> {
	return { chainId, transaction, intent: await solanaIntent(decodeTransaction(transaction), chainId, account.address, reader) };
}

export const solanaFamily = {
	name: 'solana',
	keyring: (credentials: ICredentialDataDecryptedObject) => solanaKeyring(credentials),
	intent(transaction: SolanaUnsigned, account: SigningAccount): SolanaIntent {
		if (transaction.intent.from !== account.address) throw new Error(`The transaction was described for ${transaction.intent.from}, not ${account.address}`);
		return transaction.intent;
	},
	sign: (account: SigningAccount, transaction: SolanaUnsigned) => signSolanaTransaction(account as SolanaAccount, transaction.transaction, transaction.chainId),
} satisfies ChainFamily<SolanaUnsigned>;

export { transferSolTransaction, transferTokenTransaction, type Lifetime } from './build';
export { latestLifetime, mintDecimals, rpcChainReader, SOLANA_CHAIN_IDENTITY, SOLANA_CHAINS, type SolanaRpc, UnexpectedRpcAnswer } from './chain';
export { decodeTransaction, readWireTransaction, UndecodableTransaction, type DecodedTransaction } from './decode';
export { describeSolanaError } from './errors';
export { rentExemption, TOKEN_ACCOUNT_SIZE, type SolanaChainReader, type SolanaIntent } from './intent';
export { SolanaAccount, type SolanaKeyring, solanaKeyring, solanaPath } from './keys';
export { messageBytes, NotASigner, signSolanaMessage, signSolanaTransaction, type SolanaSignedTransaction } from './sign';
export { SOLANA_POLICY_FORMAT } from './policyFormat';
