import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'http';
import type { AddressInfo } from 'net';

import type { KeyObject } from 'crypto';
import { getAddress, isAddress } from 'ethers';

import { readBody } from '../../readBody';
import { formatAmount } from './amounts';
import { type NonceMemory, checkRequestToken } from './auth';
import {
	type FireblocksAsset,
	FireblocksLedger,
	type StoredTransaction,
	transactionResponse,
} from './ledger';

/** A request the stand-in received and what it answered (0: the socket was destroyed, no answer). */
export interface FireblocksRequestRecord {
	method: string;
	/** Path and query. */
	path: string;
	status: number;
}

/** Faults of the stand-in's API, each a count of requests it applies to (decremented as used). */
export interface FireblocksApiFaults {
	/** Creates that are processed (the transaction exists) and then get no answer: the socket is destroyed. */
	dropCreateAnswers: number;
	/** Requests answered 429 with `Retry-After: retryAfterSeconds` before anything else. */
	tooManyRequests: number;
	retryAfterSeconds: number;
	/** Requests answered `serverErrorStatus` (default 500) before anything else. */
	serverErrors: number;
	serverErrorStatus: number;
	/** Creates (`POST /v1/transactions`) answered `serverErrorStatus` without being processed; reads go on. */
	createServerErrors: number;
	/**
	 * A Fireblocks that lies: per externalTxId, fields written over the TransactionResponse that
	 * `GET /v1/transactions/{id}` and `GET /v1/transactions/external_tx_id/{id}` answer (a `txHash` of
	 * another transaction or of none, another `destinationAddress`, `amountInfo`, `assetId`, …). The
	 * stand-in's own record, and what it does on the chain, stay as they are.
	 */
	tamperedAnswers: Map<string, Record<string, unknown>>;
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

const error = (status: number, code: number, message: string): Answer => ({
	status,
	body: { message, code },
});

/** Errors outside the documented code table are the stand-in's own choice, flagged here: INVALID_REQUEST. */
const INVALID_REQUEST = 1400;
const DUPLICATE_EXTERNAL_TX_ID = error(
	400,
	1438,
	'The external tx id that was provided in the request, already exists',
);
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export interface FireblocksServerOptions {
	port: number;
	users: Map<string, KeyObject>;
	nonces: NonceMemory;
	ledger: FireblocksLedger;
	vaults: Map<string, string>;
	assets: Record<string, FireblocksAsset>;
	faults: FireblocksApiFaults;
	requests: FireblocksRequestRecord[];
	jwks(): unknown;
	balance(asset: FireblocksAsset, address: string): Promise<bigint>;
	approve(id: string): Promise<StoredTransaction>;
	reject(id: string, reason?: string): StoredTransaction;
	subscribe(url: string): void;
}

/** The stand-in's HTTP server on 127.0.0.1: the `/v1/…` API (authenticated), the JWKS and the `/devnet/…` admin endpoints. */
export async function serveFireblocks(
	options: FireblocksServerOptions,
): Promise<{ server: Server; url: string }> {
	const idempotent = new Map<string, { answer: Answer; at: number }>();
	const server = createServer((request, response) => {
		void handle(request, response).catch((failure: Error) =>
			reply(request, response, error(500, INVALID_REQUEST, failure.message)),
		);
	});

	const reply = (request: IncomingMessage, response: ServerResponse, answer: Answer) => {
		options.requests.push({
			method: request.method ?? '',
			path: request.url ?? '',
			status: answer.status,
		});
		response.writeHead(answer.status, {
			'content-type': 'application/json; charset=utf-8',
			...answer.headers,
		});
		response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
	};

	async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const uri = request.url ?? '/';
		const url = new URL(uri, 'http://127.0.0.1');
		const path = url.pathname.replace(/\/+$/, '');
		const method = request.method ?? 'GET';
		const body = await readBody(request);
		if (path === '/.well-known/jwks.json' && method === 'GET')
			return reply(request, response, { status: 200, body: options.jwks() });
		if (path.startsWith('/devnet/'))
			return reply(request, response, await admin(method, path, body));
		const { faults } = options;
		if (faults.tooManyRequests > 0) {
			faults.tooManyRequests -= 1;
			return reply(request, response, {
				...error(429, INVALID_REQUEST, 'Too many requests'),
				headers: { 'retry-after': String(faults.retryAfterSeconds) },
			});
		}
		if (faults.serverErrors > 0) {
			faults.serverErrors -= 1;
			return reply(
				request,
				response,
				error(faults.serverErrorStatus, INVALID_REQUEST, 'Internal server error'),
			);
		}
		const refused = checkRequestToken(
			{ headers: request.headers, uri, body },
			options.users,
			options.nonces,
		);
		if (refused) return reply(request, response, refused);
		if (method === 'POST' && path === '/v1/transactions') {
			const key = request.headers['idempotency-key'];
			const idempotencyKey = Array.isArray(key) ? key[0] : key;
			if (idempotencyKey !== undefined && idempotencyKey.length > 40)
				return reply(
					request,
					response,
					error(400, INVALID_REQUEST, 'Idempotency-Key is longer than 40 characters'),
				);
			const stored = idempotencyKey === undefined ? undefined : idempotent.get(idempotencyKey);
			if (stored && Date.now() - stored.at < IDEMPOTENCY_TTL_MS)
				return reply(request, response, stored.answer);
			if (faults.createServerErrors > 0) {
				faults.createServerErrors -= 1;
				return reply(
					request,
					response,
					error(faults.serverErrorStatus, INVALID_REQUEST, 'Internal server error'),
				);
			}
			const answer = create(body);
			if (idempotencyKey !== undefined) idempotent.set(idempotencyKey, { answer, at: Date.now() });
			if (answer.status === 200 && faults.dropCreateAnswers > 0) {
				faults.dropCreateAnswers -= 1;
				options.requests.push({ method, path: uri, status: 0 });
				request.socket.destroy();
				return;
			}
			return reply(request, response, answer);
		}
		if (method === 'GET') return reply(request, response, await read(path));
		return reply(request, response, error(404, INVALID_REQUEST, `No route ${method} ${path}`));
	}

	/** A transaction as answered, with the fields a `tamperedAnswers` fault writes over it. */
	const answered = (tx: StoredTransaction): Answer => ({
		status: 200,
		body: { ...transactionResponse(tx), ...options.faults.tamperedAnswers.get(tx.externalTxId) },
	});

	async function read(path: string): Promise<Answer> {
		let match = /^\/v1\/transactions\/external_tx_id\/([^/]+)$/.exec(path);
		if (match) {
			const tx = options.ledger.byExternalId.get(decodeURIComponent(match[1]));
			return tx ? answered(tx) : error(404, 1414, 'Transaction not found');
		}
		match = /^\/v1\/transactions\/([^/]+)$/.exec(path);
		if (match) {
			const tx = options.ledger.byId.get(decodeURIComponent(match[1]));
			return tx ? answered(tx) : error(404, 1414, 'Transaction not found');
		}
		match = /^\/v1\/vault\/accounts\/([^/]+)\/([^/]+)\/addresses_paginated$/.exec(path);
		if (match) {
			const address = options.vaults.get(decodeURIComponent(match[1]));
			if (!address) return error(404, 1004, 'Vault account Id was not found');
			const asset = options.assets[decodeURIComponent(match[2])];
			if (!asset) return error(404, 1006, "Asset doesn't exist");
			return {
				status: 200,
				body: {
					addresses: [
						{
							assetId: asset.assetId,
							address,
							description: '',
							tag: '',
							type: 'Permanent',
							legacyAddress: '',
							enterpriseAddress: '',
							bip44AddressIndex: 0,
							userDefined: false,
						},
					],
					paging: {},
				},
			};
		}
		match = /^\/v1\/vault\/accounts\/([^/]+)$/.exec(path);
		if (match) {
			const id = decodeURIComponent(match[1]);
			const address = options.vaults.get(id);
			if (!address) return error(404, 1004, 'Vault account Id was not found');
			const assets = await Promise.all(
				Object.values(options.assets).map(async (asset) => {
					const total = formatAmount(await options.balance(asset, address), asset.decimals);
					return {
						id: asset.assetId,
						total,
						balance: total,
						available: total,
						pending: '0',
						frozen: '0',
						lockedAmount: '0',
						staked: '0',
					};
				}),
			);
			return {
				status: 200,
				body: {
					id,
					name: id === '0' ? 'Devnet Treasury' : `Vault ${id}`,
					hiddenOnUI: false,
					autoFuel: false,
					assets,
				},
			};
		}
		return error(404, INVALID_REQUEST, `No route GET ${path}`);
	}

	function create(text: string): Answer {
		let body: Record<string, any>;
		try {
			body = JSON.parse(text);
		} catch {
			return error(400, INVALID_REQUEST, 'The request body is not valid JSON');
		}
		if (typeof body !== 'object' || body === null)
			return error(400, INVALID_REQUEST, 'The request body is not an object');
		const operation = body.operation ?? 'TRANSFER';
		if (operation !== 'TRANSFER' && operation !== 'CONTRACT_CALL')
			return error(
				400,
				INVALID_REQUEST,
				`operation ${String(operation)} is not supported by the devnet`,
			);
		if (typeof body.externalTxId !== 'string' || body.externalTxId === '')
			return error(400, INVALID_REQUEST, 'externalTxId is required');
		if (options.ledger.byExternalId.has(body.externalTxId)) return DUPLICATE_EXTERNAL_TX_ID;
		const asset = options.assets[body.assetId];
		if (!asset) return error(400, 1006, "Asset doesn't exist");
		const source = body.source ?? {};
		const sourceId = String(source.id ?? '');
		const sourceAddress = options.vaults.get(sourceId);
		if (source.type !== 'VAULT_ACCOUNT' || !sourceAddress)
			return error(400, 1004, 'Vault account Id was not found');
		const destination = body.destination ?? {};
		const address = destination.oneTimeAddress?.address;
		if (
			destination.type !== 'ONE_TIME_ADDRESS' ||
			typeof address !== 'string' ||
			!isAddress(address)
		)
			return error(
				400,
				INVALID_REQUEST,
				'destination must be a ONE_TIME_ADDRESS with a valid address',
			);
		const value = FireblocksLedger.amountOf(body.amount, asset);
		if (value === undefined)
			return error(
				400,
				INVALID_REQUEST,
				`Invalid amount ${JSON.stringify(body.amount)} for ${asset.assetId} (${asset.decimals} decimals)`,
			);
		const data = body.extraParameters?.contractCallData;
		if (operation === 'CONTRACT_CALL') {
			if (asset.address)
				return error(400, INVALID_REQUEST, 'A CONTRACT_CALL takes the native asset');
			if (typeof data !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(data))
				return error(
					400,
					INVALID_REQUEST,
					'extraParameters.contractCallData must be 0x-prefixed hex',
				);
		}
		const tx = options.ledger.create({
			externalTxId: body.externalTxId,
			operation,
			asset,
			value,
			requestedAmount: String(body.amount),
			sourceId,
			sourceAddress,
			destination: {
				type: 'ONE_TIME_ADDRESS',
				id: null,
				name: 'N/A',
				subType: '',
				oneTimeAddress: { address },
			},
			destinationAddress: getAddress(address),
			note: typeof body.note === 'string' ? body.note : undefined,
			extraParameters: body.extraParameters,
		});
		return { status: 200, body: { id: tx.id, status: tx.status } };
	}

	async function admin(method: string, path: string, text: string): Promise<Answer> {
		let body: Record<string, any> = {};
		try {
			body = text ? JSON.parse(text) : {};
		} catch {
			return error(400, INVALID_REQUEST, 'The request body is not valid JSON');
		}
		if (method === 'GET' && path === '/devnet/transactions')
			return { status: 200, body: options.ledger.list().map(transactionResponse) };
		if (method === 'POST' && path === '/devnet/webhooks') {
			if (typeof body.url !== 'string') return error(400, INVALID_REQUEST, 'url is required');
			options.subscribe(body.url);
			return { status: 200, body: { url: body.url } };
		}
		const match = /^\/devnet\/transactions\/([^/]+)\/(approve|reject)$/.exec(path);
		if (method === 'POST' && match) {
			try {
				const tx =
					match[2] === 'approve'
						? await options.approve(decodeURIComponent(match[1]))
						: options.reject(
								decodeURIComponent(match[1]),
								typeof body.reason === 'string' ? body.reason : undefined,
							);
				return { status: 200, body: transactionResponse(tx) };
			} catch (failure) {
				return error(409, INVALID_REQUEST, (failure as Error).message);
			}
		}
		return error(404, INVALID_REQUEST, `No route ${method} ${path}`);
	}

	await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
	return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
