/**
 * A toncenter-v2 shaped API on 127.0.0.1 for the TON family's reads: it answers from a state the test
 * writes (the chain's zero state and time, accounts with their seqno, jetton wallets, transactions), in
 * the shapes of the brief's toncenter v2, and lets the test bend any answer. Requests are recorded.
 */
import { createServer, type IncomingMessage, type Server } from 'http';
import type { AddressInfo } from 'net';

import { Address, beginCell, Cell } from '@ton/core';

import type { TonNode } from '../../packages/signer/nodes/ExpandSigner/families/ton';

export const MAINNET_ZEROSTATE = 'F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=';

export interface ToncenterTransaction {
	utime: number;
	transaction_id: { lt: string; hash: string };
	fee: string;
	in_msg: {
		source: string;
		destination: string;
		value: string;
		msg_data: { '@type': 'msg.dataRaw'; body: string; init_state: string };
	};
	out_msgs: unknown[];
	description?: unknown;
}

export interface ToncenterState {
	zerostate: string;
	lastSeqno: number;
	/** The last masterchain block's gen_utime, seconds. */
	time: number;
	accounts: Map<
		string,
		{ state: 'active' | 'uninitialized' | 'frozen'; balance: string; seqno?: number }
	>;
	/** `master|owner` (raw) → the owner's jetton wallet (raw). */
	jettonWallets: Map<string, string>;
	/** Raw address → its transactions, newest first. */
	transactions: Map<string, ToncenterTransaction[]>;
}

/** Changes an answer: return undefined to keep it. */
export type Bend = (method: string, params: Record<string, unknown>, answer: unknown) => unknown;

export interface Toncenter {
	url: string;
	state: ToncenterState;
	requests: Array<{ method: string; params: Record<string, unknown> }>;
	bend?: Bend;
	close(): Promise<void>;
}

/** A transaction of `wallet` at `utime` with logical time `lt`, whose external message carries `body` (by default a cell of `lt`). */
export function walletTransaction(
	wallet: string,
	lt: number,
	utime: number,
	body = beginCell().storeUint(lt, 32).endCell(),
	description?: unknown,
): ToncenterTransaction {
	return {
		utime,
		transaction_id: { lt: String(lt), hash: Buffer.alloc(32, lt % 256).toString('base64') },
		fee: '2500000',
		in_msg: {
			source: '',
			destination: wallet,
			value: '0',
			msg_data: { '@type': 'msg.dataRaw', body: body.toBoc().toString('base64'), init_state: '' },
		},
		out_msgs: [],
		...(description === undefined ? {} : { description }),
	};
}

const ok = (result: unknown) => ({ ok: true, result });
const refused = (error: string, code = 500) => ({ ok: false, error, code });

const rawOf = (text: unknown) => Address.parse(String(text)).toRawString();

function runGetMethod(state: ToncenterState, body: Record<string, unknown>): unknown {
	const address = rawOf(body.address);
	if (body.method === 'seqno') {
		const account = state.accounts.get(address);
		if (!account || account.state !== 'active')
			return ok({ gas_used: 0, exit_code: -13, stack: [] });
		return ok({
			gas_used: 300,
			exit_code: 0,
			stack: [['num', `0x${(account.seqno ?? 0).toString(16)}`]],
		});
	}
	if (body.method === 'get_wallet_address') {
		const stack = body.stack as Array<[string, string]>;
		const owner = Cell.fromBase64(stack[0][1]).beginParse().loadAddress().toRawString();
		const wallet = state.jettonWallets.get(`${address}|${owner}`);
		if (!wallet) return ok({ gas_used: 0, exit_code: 11, stack: [] });
		const cell = beginCell().storeAddress(Address.parse(wallet)).endCell();
		return ok({
			gas_used: 4000,
			exit_code: 0,
			stack: [['cell', { bytes: cell.toBoc().toString('base64') }]],
		});
	}
	return refused(`no get-method ${String(body.method)}`);
}

function answer(state: ToncenterState, method: string, params: Record<string, unknown>): unknown {
	switch (method) {
		case 'getMasterchainInfo': {
			const block = (seqno: number) => ({
				workchain: -1,
				shard: '-9223372036854775808',
				seqno,
				root_hash: state.zerostate,
				file_hash: state.zerostate,
			});
			return ok({ last: block(state.lastSeqno), init: block(0), state_root_hash: state.zerostate });
		}
		case 'getBlockHeader':
			return Number(params.seqno) === state.lastSeqno
				? ok({ gen_utime: state.time, id: { seqno: state.lastSeqno } })
				: refused('block not found');
		case 'getAddressInformation': {
			const account = state.accounts.get(rawOf(params.address));
			return ok({
				balance: account?.balance ?? '0',
				state: account?.state ?? 'uninitialized',
				code: '',
				data: '',
				last_transaction_id: { lt: '0', hash: 'A'.repeat(43) + '=' },
			});
		}
		case 'getTransactions': {
			const all = state.transactions.get(rawOf(params.address)) ?? [];
			const limit = Number(params.limit ?? 10);
			const start = params.lt
				? all.findIndex((tx) => tx.transaction_id.lt === String(params.lt))
				: 0;
			return ok(start < 0 ? [] : all.slice(start, start + limit));
		}
		case 'runGetMethod':
			return runGetMethod(state, params);
		default:
			return refused(`no method ${method}`, 404);
	}
}

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
	let text = '';
	for await (const chunk of request) text += String(chunk);
	return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export async function startToncenter(state: ToncenterState): Promise<Toncenter> {
	const toncenter: Toncenter = { url: '', state, requests: [], close: async () => undefined };
	const server: Server = createServer((request, response) => {
		void (async () => {
			const url = new URL(request.url ?? '/', 'http://127.0.0.1');
			const method = url.pathname.replace(/^.*\//, '');
			const params =
				request.method === 'POST'
					? await bodyOf(request)
					: Object.fromEntries(url.searchParams.entries());
			toncenter.requests.push({ method, params });
			let result: unknown;
			try {
				result = answer(state, method, params);
			} catch (error) {
				result = refused(String((error as Error).message), 500);
			}
			const bent = toncenter.bend?.(method, params, result);
			const sent = bent === undefined ? result : bent;
			const status = (sent as { ok?: unknown })?.ok === false ? 500 : 200;
			response.writeHead(status, { 'content-type': 'application/json' });
			response.end(JSON.stringify(sent));
		})();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	toncenter.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`;
	toncenter.close = async () => await new Promise<void>((resolve) => server.close(() => resolve()));
	return toncenter;
}

/** The API as the family reads it, straight over HTTP (the node's ChainClient does the same through n8n's helper). */
export function tonNodeAt(url: string): TonNode {
	const call = async <T>(init: RequestInit, path: string): Promise<T> => {
		const response = await fetch(`${url}/${path}`, init);
		return (await response.json()) as T;
	};
	return {
		get: async <T>(method: string, query: Record<string, string | number> = {}) =>
			await call<T>(
				{ method: 'GET' },
				`${method}?${new URLSearchParams(Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]))}`,
			),
		post: async <T>(method: string, body: Record<string, unknown>) =>
			await call<T>(
				{
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(body),
				},
				method,
			),
	};
}
