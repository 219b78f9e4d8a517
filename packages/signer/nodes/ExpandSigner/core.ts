/**
 * The door to the core package's shared code (n8n-nodes-expand-network, nodes/shared): the only file of
 * the Signer that reaches into the core's folder (eslint.config.mjs refuses any other). The build compiles
 * what this file names, and only that, into the signer's own dist (dist/nodes/shared), so the package
 * requires nothing outside itself and ships no catalog. CONTRIBUTING.md, "The seam between the packages".
 */
export { formatUnits, toSmallestUnit } from '../../../../nodes/shared/amounts';
export {
	ChainClient,
	type ChainIdentity,
	type RpcUrls,
	rpcUrlCache,
} from '../../../../nodes/shared/chain/chainClient';
export { checkedReceipt } from '../../../../nodes/shared/chain/evmReceipt';
export { asNodeError, errorItem, itemError, type NodeError } from '../../../../nodes/shared/errors';
export { pacerFor, type Pacer } from '../../../../nodes/shared/transport/pacer';
export { DEFAULT_RETRY } from '../../../../nodes/shared/transport/retry';
export {
	errorCode,
	type Outcome as PacedOutcome,
	sendPaced,
} from '../../../../nodes/shared/transport/send';
export {
	FORM_ITEM_KEY,
	INTENT_EFFECTS,
	INTENT_KEY,
	type Intent,
	intentDigest,
	isNativeToken,
	NATIVE_TOKEN,
	type ReadableEffect,
} from '../../../../nodes/shared/intent';
export {
	getMultisigTransaction,
	getSafeInfo,
	listMultisigTransactions,
	NONCE_SELECTOR,
	proposeMultisigTransaction,
	readSafeCredentials,
	SAFE_API_CREDENTIAL,
	type SafeApiCredentials,
	type SafeInfo,
	type SafeMultisigTransaction,
	type SafeProposal,
	type SafeTxFields,
	uintAnswer,
	verifiedExecution,
} from '../../../../nodes/shared/safe/index';
