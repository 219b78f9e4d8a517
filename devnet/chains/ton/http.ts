import { Address, beginCell, Cell, type Message, storeMessage, storeStateInit } from '@ton/core';
import type { BlockchainTransaction } from '@ton/sandbox';
import type { IncomingMessage, Server } from 'http';

import { readBody } from '../../readBody';
import type { CallFaults } from '../callFaults';
import { type ChainHttpAnswer as Answer, serveChainHttp } from '../chainHttp';
import { normalizedHash, RefusedMessage, type TonChain } from './chain';
import { toncenterEntry, tupleItemOf, UnreadableStack } from './stack';

type Params = Record<string, unknown>;
type Method = (params: Params) => Promise<unknown>;

/** The masterchain's shard, as toncenter writes it. */
const MASTER_SHARD = '-9223372036854775808';

/** A call toncenter answers with `{ok:false, code, error}`. */
class CallError extends Error {
	constructor(
		readonly code: number,
		message: string,
	) {
		super(message);
	}
}

const base64 = (buffer: Buffer) => buffer.toString('base64');
const bocOf = (cell: Cell) => base64(cell.toBoc());

function addressParam(params: Params, name = 'address'): Address {
	const value = params[name];
	try {
		if (typeof value === 'string') return Address.parse(value);
	} catch {
		// answered below
	}
	throw new CallError(416, `Incorrect address: ${String(value)}`);
}

function blockId(chain: TonChain, seqno: number, rootHash: Buffer) {
	return {
		'@type': 'ton.blockIdExt',
		workchain: -1,
		shard: MASTER_SHARD,
		seqno,
		root_hash: base64(rootHash),
		file_hash: base64(
			beginCell().storeBuffer(rootHash).storeStringTail(chain.chainId).endCell().hash(),
		),
	};
}

function messageJson(message: Message | undefined | null, testOnly: boolean) {
	if (!message) return undefined;
	const shown = (address: unknown) =>
		Address.isAddress(address) ? address.toString({ bounceable: true, testOnly }) : '';
	const { info } = message;
	const internal = info.type === 'internal';
	return {
		'@type': 'raw.message',
		hash: base64(beginCell().store(storeMessage(message)).endCell().hash()),
		source: info.type === 'external-in' ? '' : shown(info.src),
		destination: info.type === 'external-out' ? '' : shown(info.dest),
		value: internal ? info.value.coins.toString() : '0',
		fwd_fee: internal ? info.forwardFee.toString() : '0',
		ihr_fee: internal ? info.ihrFee.toString() : '0',
		created_lt: info.type === 'external-in' ? '0' : info.createdLt.toString(),
		body_hash: base64(message.body.hash()),
		msg_data: {
			'@type': 'msg.dataRaw',
			body: bocOf(message.body),
			init_state: message.init
				? bocOf(beginCell().store(storeStateInit(message.init)).endCell())
				: '',
		},
		message: '',
	};
}

/** The compute and action phases' outcome, as tonlib's transaction description names them. */
function descriptionJson(transaction: BlockchainTransaction) {
	const { description } = transaction;
	if (description.type !== 'generic') return undefined;
	const compute = description.computePhase;
	return {
		aborted: description.aborted,
		compute_ph:
			compute.type === 'vm'
				? { success: compute.success, exit_code: compute.exitCode }
				: { skipped: true, reason: compute.reason },
		action: description.actionPhase
			? {
					success: description.actionPhase.success,
					result_code: description.actionPhase.resultCode,
				}
			: undefined,
	};
}

export function transactionJson(transaction: BlockchainTransaction, testOnly: boolean) {
	const account = transaction.inMessage?.info.dest;
	return {
		'@type': 'raw.transaction',
		address: {
			'@type': 'accountAddress',
			account_address: Address.isAddress(account)
				? account.toString({ bounceable: true, testOnly })
				: '',
		},
		utime: transaction.now,
		data: bocOf(transaction.raw),
		transaction_id: {
			'@type': 'internal.transactionId',
			lt: transaction.lt.toString(),
			hash: base64(transaction.hash()),
		},
		fee: transaction.totalFees.coins.toString(),
		storage_fee:
			transaction.description.type === 'generic'
				? (transaction.description.storagePhase?.storageFeesCollected ?? 0n).toString()
				: '0',
		other_fee: '0',
		in_msg: messageJson(transaction.inMessage, testOnly),
		out_msgs: [...transaction.outMessages.values()].map((message) =>
			messageJson(message, testOnly),
		),
		description: descriptionJson(transaction),
	};
}

function bocParam(params: Params): Buffer {
	const boc = params.boc;
	if (typeof boc !== 'string' || boc === '') throw new CallError(400, 'boc is required');
	return Buffer.from(boc, 'base64');
}

async function send(chain: TonChain, params: Params) {
	try {
		return (await chain.sendExternal(bocParam(params))).message;
	} catch (error) {
		if (error instanceof RefusedMessage) throw new CallError(500, error.message);
		throw error;
	}
}

/** The toncenter v2 calls the Signer makes. */
export function toncenterMethods(chain: TonChain, initRootHash: string): Record<string, Method> {
	const testOnly = chain.chainId !== '1100';
	return {
		'/getMasterchainInfo': async () => {
			const { head } = chain;
			const init = blockId(chain, 0, Buffer.from(initRootHash, 'base64'));
			return {
				'@type': 'blocks.masterchainInfo',
				last: blockId(chain, head.seqno, head.rootHash),
				state_root_hash: base64(head.rootHash),
				init: { ...init, root_hash: initRootHash },
			};
		},
		'/getBlockHeader': async (params) => {
			const seqno = Number(params.seqno);
			const block = Number.isInteger(seqno) ? chain.blocks[seqno] : undefined;
			if (!block || Number(params.workchain) !== -1 || String(params.shard) !== MASTER_SHARD)
				throw new CallError(500, 'LITE_SERVER_UNKNOWN: block is not applied');
			return {
				'@type': 'blocks.header',
				id: blockId(chain, block.seqno, block.rootHash),
				global_id: testOnly ? -3 : -239,
				gen_utime: block.genUtime,
				is_key_block: block.seqno === 0,
			};
		},
		'/runGetMethod': async (params) => {
			const address = addressParam(params);
			const method = params.method;
			if (typeof method !== 'string' && typeof method !== 'number')
				throw new CallError(400, 'method is required');
			let stack;
			try {
				stack = (Array.isArray(params.stack) ? params.stack : []).map(tupleItemOf);
			} catch (error) {
				if (error instanceof UnreadableStack) throw new CallError(400, error.message);
				throw error;
			}
			chain.tick();
			const contract = await chain.blockchain.getContract(address);
			if (contract.accountState?.type !== 'active')
				return { '@type': 'smc.runResult', gas_used: 0, stack: [], exit_code: -13 };
			const result = await contract
				.get(method, stack)
				.catch((error: { exitCode?: number; gasUsed?: bigint }) => {
					if (typeof error.exitCode !== 'number') throw error;
					return { exitCode: error.exitCode, gasUsed: error.gasUsed ?? 0n, stack: [] };
				});
			return {
				'@type': 'smc.runResult',
				gas_used: Number(result.gasUsed),
				stack: result.stack.map(toncenterEntry),
				exit_code: result.exitCode,
			};
		},
		'/getAddressInformation': async (params) => {
			chain.tick();
			const contract = await chain.blockchain.getContract(addressParam(params));
			const state = contract.accountState;
			const active = state?.type === 'active' ? state.state : undefined;
			return {
				'@type': 'raw.fullAccountState',
				balance: contract.balance.toString(),
				code: active?.code ? bocOf(active.code) : '',
				data: active?.data ? bocOf(active.data) : '',
				last_transaction_id: {
					'@type': 'internal.transactionId',
					lt: contract.lastTransactionLt.toString(),
					hash: base64(
						Buffer.from(contract.lastTransactionHash.toString(16).padStart(64, '0'), 'hex'),
					),
				},
				frozen_hash: '',
				sync_utime: chain.now,
				state:
					state?.type === 'active'
						? 'active'
						: state?.type === 'frozen'
							? 'frozen'
							: 'uninitialized',
			};
		},
		'/getTransactions': async (params) => {
			const address = addressParam(params);
			const limit = params.limit === undefined ? 10 : Number(params.limit);
			let transactions = chain.accountTransactions(address);
			if (params.lt !== undefined) {
				const lt = BigInt(String(params.lt));
				const start = transactions.findIndex(
					(transaction) =>
						transaction.lt === lt &&
						(params.hash === undefined || base64(transaction.hash()) === String(params.hash)),
				);
				if (start < 0) throw new CallError(500, 'LITE_SERVER_UNKNOWN: cannot locate transaction');
				transactions = transactions.slice(start);
			}
			if (params.to_lt !== undefined) {
				const toLt = BigInt(String(params.to_lt));
				transactions = transactions.filter((transaction) => transaction.lt > toLt);
			}
			return transactions
				.slice(0, limit)
				.map((transaction) => transactionJson(transaction, testOnly));
		},
		'/sendBoc': async (params) => {
			await send(chain, params);
			return { '@type': 'ok' };
		},
		'/sendBocReturnHash': async (params) => {
			const message = await send(chain, params);
			return {
				'@type': 'raw.extMessageInfo',
				hash: base64(beginCell().store(storeMessage(message)).endCell().hash()),
				hash_norm: base64(normalizedHash(message)),
			};
		},
	};
}

async function answerOf(
	methods: Record<string, Method>,
	request: IncomingMessage,
	url: URL,
	path: string,
	faults: CallFaults | undefined,
): Promise<Answer> {
	const text = await readBody(request);
	const method = methods[path.replace(/^\/api\/v2/, '')];
	if (!method) return { status: 404, body: { ok: false, error: 'Not Found', code: 404 } };
	let params: Params;
	try {
		params = {
			...Object.fromEntries(url.searchParams),
			...(text ? (JSON.parse(text) as Params) : {}),
		};
	} catch {
		return { status: 400, body: { ok: false, error: 'body is not JSON', code: 400 } };
	}
	faults?.heard(request, params);
	try {
		return { status: 200, body: { ok: true, result: await method(params) } };
	} catch (error) {
		if (!(error instanceof CallError)) throw error;
		return { status: error.code, body: { ok: false, error: error.message, code: error.code } };
	}
}

/**
 * The chain's toncenter v2 API on 127.0.0.1 under /api/v2. With `faults`, each call takes the devnet's
 * faults as a gateway call does, named by its URL without the query (`<url>/sendboc`: the base URL, the call lower-cased).
 */
export async function serveToncenter(
	chain: TonChain,
	initRootHash: string,
	port = 0,
	faults?: CallFaults,
): Promise<{ server: Server; url: string }> {
	const methods = toncenterMethods(chain, initRootHash);
	const { server, origin } = await serveChainHttp({
		port,
		faults,
		answer: (request, url, path) => answerOf(methods, request, url, path, faults),
		failed: (error) => ({ status: 500, body: { ok: false, error: error.message, code: 500 } }),
	});
	return { server, url: `${origin}/api/v2` };
}
