export { isTonAddress, tonAddressKey } from './address';
export { commentBody, readComment } from './comment';
export { tonEffect } from './effect';
export { describeTonError } from './errors';
export { normalizedHash } from './hashes';
export {
	decodeJettonBody,
	JETTON_BURN,
	JETTON_TRANSFER,
	type JettonBurn,
	type JettonTransfer,
	jettonTransferBody,
} from './jetton';
export { messagesFromInput } from './input';
export {
	TonAccount,
	type TonKeyring,
	tonKeyring,
	tonPath,
	type TonWalletVersion,
	walletContract,
} from './keys';
export {
	MAX_MESSAGES,
	type TonOutMessage,
	type TonTransfer,
	UndecodableTonTransaction,
	WALLET_APP_MODE,
} from './message';
export { TON_CHAINS, tonChain, UnknownTonChain } from './networks';
export { TON_POLICY_FORMAT } from './policyFormat';
export { readSignedTransfer, signedSeqno } from './read';
export { signTonTransfer, type TonSignedTransfer } from './sign';
export { bouncesByForm } from './addressForm';
export * from './chain';
export * from './status';
