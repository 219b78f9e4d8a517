export * from './standIn';
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
export { readSignedFeeBump, type SignedFeeBump } from './signedFeeBump';
