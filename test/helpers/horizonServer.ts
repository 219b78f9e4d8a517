/**
 * A Horizon-shaped API on 127.0.0.1 for the Stellar family's reads: it answers from a state the test
 * writes (the network passphrase, the latest ledger, accounts with their sequence, transactions by
 * hash), in the shapes of Horizon's JSON, Horizon's 404 problem for what it does not hold, and lets the
 * test bend any answer. Requests are recorded.
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';

import type { HorizonNode } from '../../packages/signer/nodes/ExpandSigner/families/stellar';

export const MAINNET_PASSPHRASE = 'Public Global Stellar Network ; September 2015';
export const TESTNET_PASSPHRASE = 'Test SDF Network ; September 2015';

export interface HorizonState {
	passphrase: string;
	ledger: { sequence: number; closedAt: number };
	/** G… → its sequence number (an int64 string). */
	accounts: Map<string, string>;
	/** Hex hash → the transaction as Horizon answers it (a fee bump under its own and its inner hash). */
	transactions: Map<string, Record<string, unknown>>;
}

/** Changes an answer: return undefined to keep it. */
export type Bend = (path: string, answer: unknown) => unknown;

export interface Horizon {
	url: string;
	state: HorizonState;
	requests: Array<{ path: string; query: Record<string, string> }>;
	bend?: Bend;
	close(): Promise<void>;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/** A transaction of `account` with `sequence`, as Horizon answers it, applied in `ledger` at `time`. */
export function horizonTransaction(
	hash: string,
	account: string,
	sequence: bigint,
	ledger: number,
	time: number,
	successful = true,
): Record<string, unknown> {
	return {
		hash,
		successful,
		ledger,
		created_at: iso(time),
		source_account: account,
		source_account_sequence: sequence.toString(),
		fee_charged: '100',
		max_fee: '100',
		operation_count: 1,
		envelope_xdr: 'AAAA',
		result_xdr: 'AAAA',
		memo_type: 'none',
	};
}

const notFound = {
	type: 'https://stellar.org/horizon-errors/not_found',
	title: 'Resource Missing',
	status: 404,
};

function answerOf(state: HorizonState, path: string): { status: number; body: unknown } {
	if (path === '/')
		return {
			status: 200,
			body: {
				network_passphrase: state.passphrase,
				horizon_version: '2.32.0',
				core_version: 'stellar-core 22.0.0',
				history_latest_ledger: state.ledger.sequence,
			},
		};
	if (path === '/ledgers')
		return {
			status: 200,
			body: {
				_embedded: {
					records: [
						{
							sequence: state.ledger.sequence,
							closed_at: iso(state.ledger.closedAt),
							base_fee_in_stroops: 100,
							base_reserve_in_stroops: 5_000_000,
						},
					],
				},
			},
		};
	const account = /^\/accounts\/([A-Z0-9]+)$/.exec(path);
	if (account) {
		const sequence = state.accounts.get(account[1]);
		if (sequence === undefined) return { status: 404, body: notFound };
		return {
			status: 200,
			body: {
				id: account[1],
				account_id: account[1],
				sequence,
				balances: [{ asset_type: 'native', balance: '100.0000000' }],
				signers: [{ key: account[1], weight: 1, type: 'ed25519_public_key' }],
				thresholds: { low_threshold: 0, med_threshold: 0, high_threshold: 0 },
				flags: {
					auth_required: false,
					auth_revocable: false,
					auth_immutable: false,
					auth_clawback_enabled: false,
				},
				num_subentries: 0,
			},
		};
	}
	const transaction = /^\/transactions\/([0-9a-f]+)$/.exec(path);
	if (transaction) {
		const found = state.transactions.get(transaction[1]);
		return found ? { status: 200, body: found } : { status: 404, body: notFound };
	}
	return { status: 404, body: notFound };
}

export async function startHorizon(state: HorizonState): Promise<Horizon> {
	const horizon = { state, requests: [] } as unknown as Horizon;
	const server: Server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://127.0.0.1');
		const query = Object.fromEntries(url.searchParams.entries());
		horizon.requests.push({ path: url.pathname, query });
		const answer = answerOf(horizon.state, url.pathname);
		const bent = horizon.bend?.(url.pathname, answer.body);
		response.writeHead(answer.status, { 'content-type': 'application/json' });
		response.end(JSON.stringify(bent === undefined ? answer.body : bent));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	horizon.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	horizon.close = async () => await new Promise<void>((resolve) => server.close(() => resolve()));
	return horizon;
}

/** The Stellar family's HorizonNode at `url` without n8n: a plain GET, errors answered as Horizon's bodies. */
export function horizonNodeAt(url: string): HorizonNode {
	return {
		get: async <T>(path: string, query: Record<string, string | number> = {}) => {
			const search = new URLSearchParams(
				Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
			).toString();
			const response = await fetch(`${url}${path}${search ? `?${search}` : ''}`);
			return (await response.json()) as T;
		},
	};
}
