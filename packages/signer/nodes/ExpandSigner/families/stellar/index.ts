export {
	accountIdKey,
	assetOfKey,
	baseOfKey,
	keyOfAsset,
	muxedKey,
	stellarAccountKey,
	stellarAssetKey,
} from './address';
export {
	buildStellarTransaction,
	changeTrustOperation,
	paymentOperation,
	type StellarPaymentSpec,
	stroopsText,
} from './build';
export {
	checkOwnTransaction,
	decodeStellarTransaction,
	type DecodedStellarTransaction,
	MAX_VALIDITY_SECONDS,
	operationsOf,
	readSignedStellarTransaction,
} from './decode';
export { SDEX, stellarEffect } from './effect';
export { describeStellarError, NotTheSigner, UndecodableStellarTransaction } from './errors';
export { StellarAccount, type StellarKeyring, stellarKeyring, stellarPath } from './keys';
export { intentMemoKey, memoKey, type StellarMemo, toMemo } from './memo';
export { STELLAR_CHAINS, type StellarChain, stellarChain, UnknownStellarChain } from './networks';
export { STELLAR_POLICY_FORMAT } from './policyFormat';
export { feeBump, signStellarTransaction, type StellarSigned } from './sign';
export {
	accountSequence,
	horizonAccount,
	type HorizonBalance,
	type HorizonLedger,
	type HorizonAccount,
	type HorizonTransaction,
	type HorizonNode,
	latestLedger,
	STELLAR_CHAIN_IDENTITY,
	transactionByHash,
	UnexpectedHorizonAnswer,
} from './horizon';
export {
	CLOCK_TOLERANCE_SECONDS,
	MAX_VALID_FOR_SECONDS,
	type StellarLifetime,
	type StellarStatus,
	stellarStatuses,
} from './status';
