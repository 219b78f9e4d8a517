import { type DecodedTransaction, decodeRawDataHex } from './decode';
import { tronEffect } from './effect';
import type { TronAccount } from './keys';
import { checkOwnTransaction } from './sign';
import type { TransactionEffect } from '../../policy/vocabulary';

/** A Tron transaction ready for the policy and signing: decoded from its bytes, and what it does. */
export interface TronUnsigned {
	chainId: string;
	decoded: DecodedTransaction;
	effect: TransactionEffect;
}

/** Decodes raw_data_hex (refusing what it cannot read exactly) and describes it, for the account that owns it. */
export function prepareTronTransaction(
	rawDataHex: string,
	chainId: string,
	account: TronAccount,
	now: number,
): TronUnsigned {
	const decoded = decodeRawDataHex(rawDataHex, now);
	checkOwnTransaction(decoded, account);
	return { chainId, decoded, effect: tronEffect(decoded, chainId) };
}

export { base58Address, hexAddress, isTronAddress } from './address';
export {
	referenceBlock,
	transactionTimestamp,
	transferTrc20Transaction,
	transferTrxTransaction,
	TronTransferError,
	type ReferenceBlock,
} from './build';
export {
	blockByNumber,
	nowBlock,
	referencesNodeChain,
	transactionOnChain,
	trc20Decimals,
	TRON_CHAIN_IDENTITY,
	TRON_CHAINS,
	type TronBlock,
	type TronNode,
	UnexpectedNodeAnswer,
} from './chain';
export {
	decodeRawDataHex,
	MAX_LIFETIME_MS,
	readRawDataHex,
	UndecodableTransaction,
	type DecodedTransaction,
} from './decode';
export { trc10Asset, tronEffect } from './effect';
export {
	absence,
	type Absence,
	chainBlock,
	headBlock,
	type LandedTronTransaction,
	MAX_SCANNED_BLOCKS,
	type TronBlockHead,
	type TronLifetime,
	landedTransaction,
} from './status';
export { rawDataHexOf } from './input';
export { describeTronError } from './errors';
export { TronAccount, type TronKeyring, tronKeyring, tronPath } from './keys';
export { TRON_POLICY_FORMAT } from './policyFormat';
export { encodeRawData, transactionId, type TronRawData, type TronTransaction } from './rawData';
export {
	checkOwnTransaction,
	messageBytes,
	messageKind,
	NotASigner,
	readSignedProtobuf,
	recoveredAddress,
	type RemoteTronSigner,
	signTronMessage,
	signTronTransaction,
	signTronWith,
	type TronSignedTransaction,
} from './sign';
