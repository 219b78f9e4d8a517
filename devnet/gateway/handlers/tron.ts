import {
	type LandedTronTransaction,
	RefusedTransaction,
	type TronChain,
} from '../../chains/tron/chain';
import type { TronRuntime } from '../../chains/tron';
import { base58Address, fromJson, hexAddress, UnreadableTransaction } from '../../chains/tron/wire';
import type { Handler } from '../context';
import { fail } from '../failure';
import { type Params, required, text } from '../params';
import { type FamilyHandler, familyRoute } from './familyRoute';

type TronHandler = FamilyHandler<TronRuntime>;

/** A Tron address parameter (base58 T… or hex 41…) in hex41 form; "Invalid Address" otherwise. */
function tronAddress(params: Params, name: string): string {
	const value = required(params, name);
	try {
		const hex = hexAddress(value);
		if (/^41[0-9a-f]{40}$/.test(hex)) return hex;
	} catch {
		// answered below
	}
	return fail('invalidAddress');
}

/** A TRC-20 holder's balance; a token the chain does not have gets "This token is not supported". */
function tokenBalance(chain: TronChain, token: string, holder: string): string {
	const outcome = chain.constantCall(holder, token, `70a08231${holder.slice(2).padStart(64, '0')}`);
	if (!outcome || outcome.result !== 'SUCCESS') fail('invalidToken');
	return BigInt(`0x${outcome.output}`).toString();
}

const both = (hex: string) => ({ tronAddress: base58Address(hex), hexAddress: hex });

/**
 * chain/gettransaction's Tron shape, as the 2024 backend maps tronweb's getTransaction (notes: getTransaction.js):
 * the contract's result as transactionStatus, raw_data's timestamp, the owner and recipient in both forms,
 * the amount in sun, raw_data_hex as input, and null where it has nothing. For a TRC-20 call the backend reads
 * fields a TriggerSmartContract lacks; the devnet answers the contract as `to` and the call value ("0").
 */
function transactionRecord(landed: LandedTronTransaction) {
	const { incoming } = landed;
	return {
		hash: incoming.txID,
		transactionStatus: landed.contractRet,
		blockNumber: null,
		timestamp: incoming.timestamp,
		from: both(incoming.owner),
		to: both(incoming.to),
		value: incoming.amount.toString(),
		transactionFees: null,
		gas: null,
		gasPrice: null,
		input: incoming.rawDataHex,
		nonce: null,
		network: null,
	};
}

const getbalance: TronHandler = async (params, { chain }) => {
	const owner = tronAddress(params, 'address');
	if (text(params, 'tokenAddress') === undefined)
		return { balance: chain.balance(owner).toString() };
	return { balance: tokenBalance(chain, tronAddress(params, 'tokenAddress'), owner) };
};

/** The API documents fungibletoken/getuserbalance for EVM only; on Tron the devnet answers in the EVM shape. */
const getuserbalance: TronHandler = async (params, { chain }) => ({
	balance: tokenBalance(chain, tronAddress(params, 'tokenAddress'), tronAddress(params, 'address')),
});

const gettransaction: TronHandler = async (params, { chain }) => {
	const landed = chain.transaction(required(params, 'transactionHash'));
	if (!landed) fail('invalidTransactionHash');
	return transactionRecord(landed);
};

/**
 * As the backend does: rawTransaction is base64 of the signed transaction's JSON, handed to the node, and
 * the answer is the node's txid whether or not the node accepted it. A body that is not such JSON throws in
 * the backend, which answers every throw of this call with "execution reverted".
 */
const sendtransaction: TronHandler = async (params, { chain }) => {
	const raw = required(params, 'rawTransaction');
	let incoming;
	try {
		incoming = fromJson(JSON.parse(Buffer.from(raw, 'base64').toString('utf8')));
	} catch (error) {
		if (error instanceof SyntaxError || error instanceof UnreadableTransaction)
			fail('executionReverted');
		throw error;
	}
	try {
		chain.broadcast(incoming);
	} catch (error) {
		if (!(error instanceof RefusedTransaction)) throw error;
	}
	return { transactionHash: incoming.txID };
};

const getpublicrpc: TronHandler = async (_params, { rpcUrl }) => ({ rpc: rpcUrl });

const handlers: Record<string, TronHandler> = {
	'/chain/getbalance': getbalance,
	'/chain/gettransaction': gettransaction,
	'/chain/sendtransaction': sendtransaction,
	'/chain/getpublicrpc': getpublicrpc,
	'/fungibletoken/getuserbalance': getuserbalance,
};

/**
 * The handler for a call on a Tron chain, or undefined when the call names none. A path without a Tron
 * variant answers "Given function is not applicable": the API prepares no Tron writes (fungibletoken/transfer
 * has no Tron branch), so the devnet invents none.
 */
export function tronRoute(
	path: string,
	params: Params,
	runtimes: Map<string, TronRuntime>,
): Handler | undefined {
	return familyRoute(path, params, runtimes, handlers);
}
