import { Address } from '@ton/core';
import type { BlockchainTransaction } from '@ton/sandbox';

import { jettonBalance, normalizedHash, RefusedMessage, type TonRuntime } from '../../chains/ton';
import type { Handler } from '../context';
import { fail } from '../failure';
import { type Params, required, text } from '../params';
import { type FamilyHandler, familyRoute } from './familyRoute';

type TonHandler = FamilyHandler<TonRuntime>;

/** A TON address parameter in any form (raw, bounceable, non-bounceable); "Invalid Address" otherwise. */
function tonAddress(params: Params, name: string): Address {
	const value = required(params, name);
	try {
		return Address.parse(value);
	} catch {
		return fail('invalidAddress');
	}
}

/** A hash parameter in hex (64 characters) or base64, as bytes; "The transactionHash Provided Is Incorrect" otherwise. */
function hashParam(params: Params): Buffer {
	const value = required(params, 'transactionHash').replace(/^0x/, '');
	const bytes = /^[0-9a-fA-F]{64}$/.test(value)
		? Buffer.from(value, 'hex')
		: Buffer.from(value, 'base64');
	if (bytes.length !== 32) fail('invalidTransactionHash');
	return bytes;
}

/** Whether the wallet's transaction ran and its actions were all taken. */
function succeeded(transaction: BlockchainTransaction): boolean {
	const { description } = transaction;
	return (
		description.type === 'generic' &&
		!description.aborted &&
		description.computePhase.type === 'vm' &&
		description.computePhase.success &&
		description.actionPhase?.success === true
	);
}

/**
 * chain/gettransaction's TON shape, as far as it is known: the wallet's transaction that took the external
 * message, its lt as blockNumber, its out-messages' TON as value (to the first destination), its total fees.
 */
function transactionRecord(hash: Buffer, transaction: BlockchainTransaction) {
	const outs = [...transaction.outMessages.values()];
	const destination = outs[0]?.info.dest;
	const value = outs.reduce(
		(sum, message) => sum + (message.info.type === 'internal' ? message.info.value.coins : 0n),
		0n,
	);
	const wallet = transaction.inMessage?.info.dest;
	return {
		hash: hash.toString('hex'),
		transactionStatus: succeeded(transaction) ? 'SUCCESS' : 'FAILED',
		blockNumber: transaction.lt.toString(),
		timestamp: transaction.now,
		from: Address.isAddress(wallet) ? wallet.toRawString() : null,
		to: Address.isAddress(destination) ? destination.toRawString() : null,
		value: value.toString(),
		transactionFees: transaction.totalFees.coins.toString(),
	};
}

const getbalance: TonHandler = async (params, { chain }) => {
	const owner = tonAddress(params, 'address');
	chain.tick();
	if (text(params, 'tokenAddress') === undefined)
		return { balance: (await chain.blockchain.getContract(owner)).balance.toString() };
	const balance = await jettonBalance(chain, tonAddress(params, 'tokenAddress'), owner);
	if (balance === undefined) fail('invalidToken');
	return { balance: balance.toString() };
};

const gettransaction: TonHandler = async (params, { chain }) => {
	const hash = hashParam(params);
	const wallet = tonAddress(params, 'address');
	const landed = chain
		.accountTransactions(wallet)
		.find(
			(transaction) =>
				transaction.inMessage?.info.type === 'external-in' &&
				normalizedHash(transaction.inMessage).equals(hash),
		);
	if (!landed) fail('invalidTransactionHash');
	return transactionRecord(hash, landed);
};

/**
 * rawTransaction is the base64 BOC of the external message, applied to the chain now; the answer is its
 * normalized hash (TEP-467). A message the chain refuses, or that is no external message, answers
 * "execution reverted", as a backend that passes the node's refusal on.
 */
const sendtransaction: TonHandler = async (params, { chain }) => {
	const raw = required(params, 'rawTransaction');
	try {
		const { message } = await chain.sendExternal(Buffer.from(raw, 'base64'));
		return { transactionHash: normalizedHash(message).toString('hex') };
	} catch (error) {
		if (error instanceof RefusedMessage) fail('executionReverted');
		throw error;
	}
};

const getpublicrpc: TonHandler = async (_params, { rpcUrl }) => ({ rpc: rpcUrl });

const handlers: Record<string, TonHandler> = {
	'/chain/getbalance': getbalance,
	'/chain/gettransaction': gettransaction,
	'/chain/sendtransaction': sendtransaction,
	'/chain/getpublicrpc': getpublicrpc,
};

/** The handler for a call on a TON chain, or undefined when the call names none. */
export function tonRoute(
	path: string,
	params: Params,
	runtimes: Map<string, TonRuntime>,
): Handler | undefined {
	return familyRoute(path, params, runtimes, handlers);
}
