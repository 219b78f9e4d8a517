import { TOKEN_PROGRAM_ADDRESS, getMintDecoder, getTokenDecoder } from '@solana-program/token';
import {
	type Address,
	address,
	getBase58Encoder,
	getBase64Decoder,
	getBase64Encoder,
	isAddress,
} from '@solana/kit';
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';

import { readBody } from '../../readBody';
import { RejectedTransaction, type SolanaChain } from './chain';

/** Solana JSON-RPC error codes the devnet answers with (as solana-validator does). */
const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;
const SEND_FAILED = -32002;

class RpcError extends Error {
	constructor(
		readonly code: number,
		message: string,
		readonly data?: unknown,
	) {
		super(message);
	}
}

type Params = unknown[];

function addressParam(value: unknown): Address {
	if (typeof value !== 'string' || !isAddress(value))
		throw new RpcError(INVALID_PARAMS, `Invalid param: Invalid`);
	return address(value);
}

function base64Bytes(value: unknown, encoding: unknown): Uint8Array {
	if (typeof value !== 'string')
		throw new RpcError(INVALID_PARAMS, 'Invalid params: expected an encoded transaction string');
	try {
		return new Uint8Array(
			encoding === 'base64' ? getBase64Encoder().encode(value) : getBase58Encoder().encode(value),
		);
	} catch {
		throw new RpcError(
			INVALID_PARAMS,
			`invalid ${encoding === 'base64' ? 'base64' : 'base58'} encoding`,
		);
	}
}

function config(params: Params, position: number): Record<string, unknown> {
	const value = params[position];
	return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

/** The genesis hash of Solana Devnet (api.devnet.solana.com). */
export const SOLANA_DEVNET_GENESIS_HASH = 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG';

/** The Solana JSON-RPC methods a signer needs (and a few a wallet asks first), over the devnet chain. */
export function solanaRpcMethods(chain: SolanaChain): Record<string, (params: Params) => unknown> {
	const context = () => ({ slot: chain.slot, apiVersion: '2.2.0' });
	const withContext = (value: unknown) => ({ context: context(), value });
	const account = (target: Address) => {
		const found = chain.svm.getAccount(target);
		if (!found.exists) return null;
		return {
			data: [getBase64Decoder().decode(found.data), 'base64'],
			executable: found.executable,
			lamports: Number(found.lamports),
			owner: found.programAddress,
			rentEpoch: 0,
			space: found.data.length,
		};
	};
	const status = (signature: unknown) => {
		const landed = typeof signature === 'string' ? chain.transaction(signature) : undefined;
		if (!landed) return null;
		return {
			slot: landed.slot,
			confirmations: null,
			err: null,
			status: { Ok: null },
			confirmationStatus: 'finalized',
		};
	};
	return {
		getHealth: () => 'ok',
		getVersion: () => ({ 'solana-core': '2.2.0', 'feature-set': 0 }),
		// Chain 901 is the API's Solana Devnet: the devnet answers with that cluster's genesis hash, by which
		// a client tells clusters apart (as the EVM chains answer eth_chainId with the ID they stand for).
		getGenesisHash: () => SOLANA_DEVNET_GENESIS_HASH,
		getSlot: () => chain.slot,
		getBlockHeight: () => chain.slot,
		getLatestBlockhash: () => withContext(chain.latestBlockhash()),
		isBlockhashValid: (params) => withContext(chain.isRecentBlockhash(String(params[0]))),
		getBalance: (params) => withContext(Number(chain.balance(addressParam(params[0])))),
		getAccountInfo: (params) => withContext(account(addressParam(params[0]))),
		getMultipleAccounts: (params) =>
			withContext(
				(Array.isArray(params[0]) ? params[0] : []).map((entry) => account(addressParam(entry))),
			),
		getMinimumBalanceForRentExemption: (params) =>
			Number(chain.svm.minimumBalanceForRentExemption(BigInt(Number(params[0] ?? 0)))),
		getFeeForMessage: (params) => {
			try {
				return withContext(Number(chain.feeFor(base64Bytes(params[0], 'base64'))));
			} catch {
				throw new RpcError(INVALID_PARAMS, 'Invalid params: invalid message');
			}
		},
		getTokenAccountBalance: (params) => {
			const found = chain.svm.getAccount(addressParam(params[0]));
			if (!found.exists || found.programAddress !== TOKEN_PROGRAM_ADDRESS) {
				throw new RpcError(INVALID_PARAMS, 'Invalid param: could not find account');
			}
			const token = getTokenDecoder().decode(found.data);
			const mint = chain.svm.getAccount(token.mint);
			const decimals = mint.exists ? getMintDecoder().decode(mint.data).decimals : 0;
			return withContext({
				amount: token.amount.toString(),
				decimals,
				uiAmountString: uiAmount(token.amount, decimals),
			});
		},
		getSignatureStatuses: (params) =>
			withContext((Array.isArray(params[0]) ? params[0] : []).map(status)),
		sendTransaction: (params) => {
			const wire = base64Bytes(params[0], config(params, 1).encoding ?? 'base58');
			try {
				return chain.send(wire).signature;
			} catch (error) {
				if (!(error instanceof RejectedTransaction)) throw error;
				throw new RpcError(SEND_FAILED, error.message, { logs: error.logs });
			}
		},
		getTransaction: (params) => {
			const landed = typeof params[0] === 'string' ? chain.transaction(params[0]) : undefined;
			if (!landed) return null;
			return {
				slot: landed.slot,
				blockTime: landed.blockTime,
				version: landed.version,
				transaction: [landed.wire, 'base64'],
				meta: {
					err: null,
					status: { Ok: null },
					fee: Number(landed.fee),
					preBalances: landed.preBalances.map(Number),
					postBalances: landed.postBalances.map(Number),
					logMessages: landed.logs,
					computeUnitsConsumed: Number(landed.computeUnits),
				},
			};
		},
	};
}

function uiAmount(amount: bigint, decimals: number): string {
	const text = amount.toString().padStart(decimals + 1, '0');
	const whole = text.slice(0, text.length - decimals);
	const fraction = text.slice(text.length - decimals).replace(/0+$/, '');
	return fraction ? `${whole}.${fraction}` : whole;
}

/** Answers one JSON-RPC request object. */
function answer(
	methods: Record<string, (params: Params) => unknown>,
	request: { id?: unknown; method?: unknown; params?: unknown },
) {
	const id = request.id ?? null;
	const method = typeof request.method === 'string' ? methods[request.method] : undefined;
	try {
		if (!method) throw new RpcError(METHOD_NOT_FOUND, 'Method not found');
		return {
			jsonrpc: '2.0',
			id,
			result: method(Array.isArray(request.params) ? request.params : []),
		};
	} catch (error) {
		if (!(error instanceof RpcError)) throw error;
		return {
			jsonrpc: '2.0',
			id,
			error: {
				code: error.code,
				message: error.message,
				...(error.data ? { data: error.data } : {}),
			},
		};
	}
}

/** The chain's JSON-RPC endpoint on 127.0.0.1 (single requests and batches). */
export async function serveSolanaRpc(
	chain: SolanaChain,
	port = 0,
): Promise<{ server: Server; url: string }> {
	const methods = solanaRpcMethods(chain);
	const server = createServer((request, response) => {
		readBody(request)
			.then((text) => {
				let body: unknown;
				try {
					body = JSON.parse(text);
				} catch {
					return { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
				}
				return Array.isArray(body)
					? body.map((entry) => answer(methods, entry))
					: answer(methods, body as Record<string, unknown>);
			})
			.then((reply) => {
				response.writeHead(200, { 'content-type': 'application/json' });
				response.end(JSON.stringify(reply));
			})
			.catch(() => {
				response.writeHead(500, { 'content-type': 'application/json' });
				response.end(
					JSON.stringify({
						jsonrpc: '2.0',
						id: null,
						error: { code: -32603, message: 'Internal error' },
					}),
				);
			});
	});
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
