import { StrKey } from '@stellar/stellar-base';

import {
	MalformedEnvelope,
	RefusedTransaction,
	type StellarRuntime,
	type StellarTransaction,
} from '../../chains/stellar';
import type { Handler } from '../context';
import { fail } from '../failure';
import { type Params, required, text } from '../params';
import { type FamilyHandler, familyRoute } from './familyRoute';
import { stellarWrites } from './stellarWrites';

type StellarHandler = FamilyHandler<StellarRuntime>;

/** SDEX's dexIds name their chain, as the Uniswap fixture's do. */
export const STELLAR_DEX_IDS: Record<string, string> = { '2400': '1500', '2401': '1501' };

/** An account parameter (G…, or M… resolved to its base); "Invalid User Address" otherwise, as the backend answers. */
function accountParam(params: Params, name: string): string {
	const value = required(params, name);
	if (!StrKey.isValidEd25519PublicKey(value) && !StrKey.isValidMed25519PublicKey(value))
		fail('invalidUserAddress');
	return value;
}

/**
 * chain/getbalance as the 2024 backend's getBalanceStellar answers: an account Horizon does not know is
 * "Invalid User Address"; XLM in stroops; with `assetCode` and `issuer`, `{assetCode, issuer, balance}` in
 * stroops ("0" without a trustline), an asset nobody trusts being "Asset Not Found".
 */
const getbalance: StellarHandler = async (params, { chain }) => {
	const account = chain.account(accountParam(params, 'address')) ?? fail('invalidUserAddress');
	const assetCode = text(params, 'assetCode');
	const issuer = text(params, 'issuer');
	if (assetCode === undefined || issuer === undefined)
		return { balance: account.balance.toString() };
	if (!StrKey.isValidEd25519PublicKey(issuer)) fail('invalidIssuer');
	const key = `${assetCode}:${issuer}`;
	if (![...chain.state.accounts.values()].some((holder) => holder.trustlines.has(key)))
		fail('assetNotFound');
	return { assetCode, issuer, balance: (account.trustlines.get(key)?.balance ?? 0n).toString() };
};

/** The backend's Stellar mapping of Horizon's transaction record (getTransactionStellar). */
function transactionRecord(record: StellarTransaction, hash: string) {
	return {
		hash,
		transactionStatus: record.successful,
		blockNumber: record.ledger.toString(),
		timestamp: new Date(record.closedAt * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
		from: record.sourceAccount,
		to: null,
		value: null,
		transactionFees: null,
		gas: record.maxFee.toString(),
		gasPrice: record.feeCharged.toString(),
		input: null,
		nonce: Number(record.sourceAccountSequence),
		network: null,
		envelopeXDR: record.envelopeXdr,
		resultXDR: record.resultXdr,
	};
}

const gettransaction: StellarHandler = async (params, { chain }) => {
	const hash = required(params, 'transactionHash').toLowerCase();
	const record = /^[0-9a-f]{64}$/.test(hash) ? chain.transaction(hash) : undefined;
	if (!record) fail('invalidTransactionHash');
	return transactionRecord(record, hash);
};

/**
 * rawTransaction is the signed envelope (base64 XDR). The backend hands it to Soroban RPC's sendTransaction
 * and answers the hash RPC gives back whatever its status (ERROR included), so a refused or failed
 * transaction also answers `{chainId, transactionHash}`: only the chain says whether it applied. An envelope
 * that does not decode answers "execution reverted" (a devnet choice: the backend would answer
 * `{chainId}` without a hash).
 */
const sendtransaction: StellarHandler = async (params, { chainId, chain }) => {
	const raw = required(params, 'rawTransaction');
	try {
		return { chainId, transactionHash: chain.submit(raw).hash };
	} catch (error) {
		if (error instanceof MalformedEnvelope) fail('executionReverted');
		if (error instanceof RefusedTransaction) return { chainId, transactionHash: error.hash };
		throw error;
	}
};

const getpublicrpc: StellarHandler = async (_params, { rpcUrl }) => ({ rpc: rpcUrl });

const handlers: Record<string, StellarHandler> = {
	'/chain/getbalance': getbalance,
	'/chain/gettransaction': gettransaction,
	'/chain/sendtransaction': sendtransaction,
	'/chain/getpublicrpc': getpublicrpc,
	...stellarWrites,
};

/**
 * The handler for a call on a Stellar chain (by chainId or chainSymbol, or by an SDEX dexId), or undefined
 * when the call names none.
 */
export function stellarRoute(
	path: string,
	params: Params,
	runtimes: Map<string, StellarRuntime>,
): Handler | undefined {
	const dexChain = STELLAR_DEX_IDS[text(params, 'dexId') ?? ''];
	const named =
		dexChain && text(params, 'chainId') === undefined ? { ...params, chainId: dexChain } : params;
	return familyRoute(path, named, runtimes, handlers);
}
