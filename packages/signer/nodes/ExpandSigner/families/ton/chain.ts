import { Address, beginCell, Cell } from '@ton/core';

import type { ChainIdentity } from '../../core';
import { TON_CHAINS } from './networks';

/**
 * A toncenter-v2 compatible API of a TON chain (`https://toncenter.com/api/v2` and the devnet's): a GET
 * with a query, or a POST with a JSON body, its JSON answer as it came (`{ok, result}` or `{ok:false,
 * error}`), for chain.ts to check.
 */
export interface TonNode {
	get<T>(method: string, query?: Record<string, string | number>): Promise<T>;
	post<T>(method: string, body: Record<string, unknown>): Promise<T>;
}

/** A node's answer that is not what a toncenter-v2 API returns, or that does not hold together. */
export class UnexpectedTonAnswer extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
const count = (value: unknown): value is number =>
	Number.isSafeInteger(value) && (value as number) >= 0;
const BASE64_HASH = /^[A-Za-z0-9+/]{43}=$/;
const DIGITS = /^\d{1,40}$/;

/** The `result` of a toncenter answer; a refusal (`ok: false`) or any other shape is an UnexpectedTonAnswer naming the method. */
function resultOf(answer: unknown, method: string): unknown {
	if (isObject(answer) && answer.ok === true && 'result' in answer) return answer.result;
	const error = isObject(answer) ? String(answer.error ?? '').slice(0, 200) : '';
	throw new UnexpectedTonAnswer(
		error
			? `The chain's node refused ${method}: ${error}`
			: `The chain's node does not answer ${method} as a toncenter v2 API ({ok, result})`,
	);
}

/**
 * A toncenter API proves its chain by its zero state (`getMasterchainInfo`'s `init.root_hash`): each
 * TON network has its own, so a node of another network (or a sandbox that says nothing) is refused.
 */
export const TON_CHAIN_IDENTITY: ChainIdentity = {
	method: 'getMasterchainInfo',
	http: {
		body: {},
		get: true,
		refusalsInBody: true,
		answered: (reported, expected) =>
			`with the zero state ${reported}, not ${expected}: it serves another TON network`,
	},
	read: (answer) => {
		const result = isObject(answer) && answer.ok === true ? answer.result : undefined;
		const init = isObject(result) && isObject(result.init) ? result.init : {};
		return typeof init.root_hash === 'string' && BASE64_HASH.test(init.root_hash)
			? init.root_hash
			: '(none)';
	},
	expected: (chainId) => TON_CHAINS[chainId]?.zerostateRootHash,
};

/** How far the chain's clock may run ahead of this machine's: clocks disagree by seconds, not by a minute. */
export const CLOCK_TOLERANCE_SECONDS = 60;

/**
 * The chain's time, in seconds since 1970: the generation time of its last masterchain block
 * (getMasterchainInfo, then getBlockHeader of that block). A wallet refuses a message whose
 * valid_until is before the time of the block it would land in, and masterchain time only moves on.
 */
export async function chainTime(node: TonNode): Promise<number> {
	const info = resultOf(await node.get('getMasterchainInfo'), 'getMasterchainInfo');
	const last = isObject(info) && isObject(info.last) ? info.last : {};
	if (last.workchain !== -1 || !count(last.seqno))
		throw new UnexpectedTonAnswer(
			"The chain's node answers getMasterchainInfo without its last masterchain block (workchain -1 and a seqno)",
		);
	const shard = String(last.shard ?? '-9223372036854775808');
	const header = resultOf(
		await node.get('getBlockHeader', { workchain: -1, shard, seqno: last.seqno }),
		'getBlockHeader',
	);
	const time = isObject(header) ? header.gen_utime : undefined;
	if (!count(time) || time === 0)
		throw new UnexpectedTonAnswer(
			`The chain's node answers getBlockHeader of masterchain block ${last.seqno} without its time (gen_utime)`,
		);
	return time;
}

/** A wallet's state as getAddressInformation answers it. */
export interface TonAccountState {
	state: 'active' | 'uninitialized' | 'frozen';
	/** Nanotons. */
	balance: bigint;
}

export async function accountState(node: TonNode, address: string): Promise<TonAccountState> {
	const info = resultOf(
		await node.get('getAddressInformation', { address }),
		'getAddressInformation',
	);
	const state = isObject(info) ? info.state : undefined;
	const balance = isObject(info) ? String(info.balance ?? '') : '';
	if (
		(state !== 'active' && state !== 'uninitialized' && state !== 'frozen') ||
		!DIGITS.test(balance)
	)
		throw new UnexpectedTonAnswer(
			`The chain's node answers getAddressInformation of ${address} without its state (active, uninitialized or frozen) and balance`,
		);
	return { state, balance: BigInt(balance) };
}

/** A stack entry toncenter answers: `["num", "0x…"]`, `["cell" | "slice", {bytes: base64 BOC}]`. */
type StackEntry = [string, unknown];

/** One get-method's stack, run on the node; a non-zero exit code is refused. */
async function runGetMethod(
	node: TonNode,
	address: string,
	method: string,
	stack: unknown[] = [],
): Promise<StackEntry[]> {
	const result = resultOf(
		await node.post('runGetMethod', { address, method, stack }),
		`runGetMethod ${method}`,
	);
	const answered = isObject(result) ? result : {};
	if (answered.exit_code !== 0 && answered.exit_code !== 1)
		throw new UnexpectedTonAnswer(
			`The chain's node answers the get-method ${method} of ${address} with exit code ${String(answered.exit_code).slice(0, 20)}`,
		);
	if (!Array.isArray(answered.stack) || answered.stack.length > 16)
		throw new UnexpectedTonAnswer(
			`The chain's node answers the get-method ${method} of ${address} without a stack`,
		);
	return answered.stack.map((entry) =>
		Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string'
			? (entry as StackEntry)
			: ['', undefined],
	);
}

/** A stack entry's number (`["num", "0x…"]`), checked. */
function numberOf(entry: StackEntry | undefined, what: string): bigint {
	const text = entry?.[0] === 'num' ? String(entry[1]) : '';
	if (!/^-?0x[0-9a-fA-F]{1,64}$/.test(text))
		throw new UnexpectedTonAnswer(`The chain's node answers ${what} without a number`);
	return text.startsWith('-') ? -BigInt(text.slice(1)) : BigInt(text);
}

/** What `read` gives, or undefined when it throws (a BOC or an address that does not parse). */
function parsed<T>(read: () => T): T | undefined {
	try {
		return read();
	} catch {
		return undefined;
	}
}

/** A stack entry's cell (`["cell" | "slice", {bytes}]`), parsed from its BOC. */
function cellOf(entry: StackEntry | undefined, what: string): Cell {
	const bytes =
		(entry?.[0] === 'cell' || entry?.[0] === 'slice') && isObject(entry[1]) ? entry[1].bytes : '';
	const cell = parsed(() => Cell.fromBase64(String(bytes)));
	if (!cell) throw new UnexpectedTonAnswer(`The chain's node answers ${what} without a cell`);
	return cell;
}

/**
 * The seqno a wallet's next external message must carry: 0 while the wallet is not deployed (its
 * first message deploys it), else its `seqno` get-method. A frozen wallet accepts nothing.
 */
export async function walletSeqno(node: TonNode, wallet: string): Promise<number> {
	const { state } = await accountState(node, wallet);
	if (state === 'uninitialized') return 0;
	if (state === 'frozen')
		throw new UnexpectedTonAnswer(
			`The wallet ${wallet} is frozen on the chain (its storage fees are unpaid): it accepts no message`,
		);
	const seqno = numberOf((await runGetMethod(node, wallet, 'seqno'))[0], `seqno of ${wallet}`);
	if (seqno < 0n || seqno > 0xffffffffn)
		throw new UnexpectedTonAnswer(
			`The chain's node answers seqno ${seqno} of ${wallet}, which is not a 32-bit seqno`,
		);
	return Number(seqno);
}

/**
 * The jetton wallet of `owner` for a jetton master, as the master's `get_wallet_address` answers on
 * the node (TEP-74). Believed as the node says it: a pinned node's word. It must be an address of the
 * basechain, and not the owner or the master itself.
 */
export async function ownJettonWallet(
	node: TonNode,
	master: string,
	owner: string,
): Promise<string> {
	const ownerCell = beginCell().storeAddress(Address.parse(owner)).endCell();
	const stack = await runGetMethod(node, master, 'get_wallet_address', [
		['tvm.Slice', ownerCell.toBoc().toString('base64')],
	]);
	const what = `get_wallet_address of the jetton master ${master}`;
	const cell = cellOf(stack[0], what);
	const wallet = parsed(() => cell.beginParse().loadMaybeAddress());
	const raw = wallet?.toRawString();
	if (!wallet || wallet.workChain !== 0 || raw === owner || raw === master)
		throw new UnexpectedTonAnswer(
			`The chain's node answers ${what} for ${owner} without a jetton wallet address of the basechain`,
		);
	return raw as string;
}

/** One transaction of a wallet, as getTransactions answers it and as far as it was checked. */
export interface TonWalletTransaction {
	lt: bigint;
	/** Base64, as toncenter writes it. */
	hash: string;
	/** Seconds since 1970. */
	utime: number;
	/** Nanotons. */
	fee: bigint;
	/** The hash of the inbound external message's body cell (hex); undefined for an internal message. */
	externalBodyHash?: string;
	/** The inbound external message's body; undefined for an internal message. */
	externalBody?: Cell;
	/** Whether its compute and action phases succeeded; undefined when the node does not say. */
	success?: boolean;
}

/** A transaction of a getTransactions answer, checked. */
function walletTransactionOf(entry: unknown, wallet: string): TonWalletTransaction {
	const id = isObject(entry) && isObject(entry.transaction_id) ? entry.transaction_id : {};
	const inMsg = isObject(entry) && isObject(entry.in_msg) ? entry.in_msg : undefined;
	const data = inMsg && isObject(inMsg.msg_data) ? inMsg.msg_data : {};
	const fee = isObject(entry) ? String(entry.fee ?? '') : '';
	const utime = isObject(entry) ? entry.utime : undefined;
	const lt = String(id.lt ?? '');
	const unexpected = (why: string) =>
		new UnexpectedTonAnswer(
			`The chain's node answers getTransactions of ${wallet} with a transaction ${why}`,
		);
	if (!DIGITS.test(lt) || typeof id.hash !== 'string' || !BASE64_HASH.test(id.hash))
		throw unexpected('without its lt and hash');
	if (!count(utime) || !DIGITS.test(fee)) throw unexpected(`${lt} without its time and fee`);
	let externalBody: Cell | undefined;
	if (inMsg && String(inMsg.source ?? '') === '' && typeof data.body === 'string' && data.body) {
		const body = data.body;
		externalBody = parsed(() => Cell.fromBase64(body));
		if (!externalBody) throw unexpected(`${lt} whose inbound message body is not a cell`);
	}
	const description =
		isObject(entry) && isObject(entry.description) ? entry.description : undefined;
	const compute = description && isObject(description.compute_ph) ? description.compute_ph : {};
	const action = description && isObject(description.action) ? description.action : {};
	return {
		lt: BigInt(lt),
		hash: id.hash,
		utime,
		fee: BigInt(fee),
		externalBodyHash: externalBody?.hash().toString('hex'),
		externalBody,
		success: description
			? description.aborted !== true && compute.success === true && action.success === true
			: undefined,
	};
}

/** The most transactions one getTransactions page asks for. */
export const TRANSACTIONS_PAGE = 50;

/** The most pages one scan reads: a wallet that made more transactions since is checked by hand. */
export const MAX_TRANSACTION_PAGES = 20;

/**
 * The wallet's transactions from the newest back to the first one `reachedBefore` says was made before
 * what is looked for, newest first, each page continuing from the last one read (lt and hash). The node must answer them in
 * strictly decreasing lt, each page starting below the last; more than MAX_TRANSACTION_PAGES pages is
 * refused as unknown, never read as "not there".
 */
export async function transactionsSince(
	node: TonNode,
	wallet: string,
	reachedBefore: (transaction: TonWalletTransaction) => boolean,
): Promise<{ transactions: TonWalletTransaction[]; complete: boolean }> {
	const transactions: TonWalletTransaction[] = [];
	let from: { lt: string; hash: string } | undefined;
	for (let page = 0; page < MAX_TRANSACTION_PAGES; page++) {
		const answer = resultOf(
			await node.get('getTransactions', {
				address: wallet,
				limit: TRANSACTIONS_PAGE,
				...(from ?? {}),
			}),
			'getTransactions',
		);
		if (!Array.isArray(answer) || answer.length > TRANSACTIONS_PAGE + 1)
			throw new UnexpectedTonAnswer(
				`The chain's node does not answer getTransactions of ${wallet} with a list of at most ${TRANSACTIONS_PAGE}`,
			);
		// toncenter's page starts with the transaction it continues from.
		const read = answer.map((entry) => walletTransactionOf(entry, wallet));
		const fresh = from ? read.filter((transaction) => transaction.lt < BigInt(from!.lt)) : read;
		if (from && read.length && read[0].lt > BigInt(from.lt))
			throw new UnexpectedTonAnswer(
				`The chain's node answers getTransactions of ${wallet} from lt ${from.lt} with a newer transaction`,
			);
		for (const transaction of fresh) {
			const previous = transactions[transactions.length - 1];
			if (previous && transaction.lt >= previous.lt)
				throw new UnexpectedTonAnswer(
					`The chain's node answers getTransactions of ${wallet} out of order (lt ${transaction.lt} after ${previous.lt})`,
				);
			transactions.push(transaction);
			if (reachedBefore(transaction)) return { transactions, complete: true };
		}
		if (fresh.length === 0 || read.length < TRANSACTIONS_PAGE)
			return { transactions, complete: true };
		const last = transactions[transactions.length - 1];
		from = { lt: last.lt.toString(), hash: last.hash };
	}
	return { transactions, complete: false };
}
