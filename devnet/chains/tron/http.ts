import { id } from 'ethers';
import type { IncomingMessage, Server } from 'http';

import { readBody } from '../../readBody';
import type { CallFaults } from '../callFaults';
import { type ChainHttpAnswer as Answer, serveChainHttp } from '../chainHttp';
import {
	CHAIN_PARAMETERS,
	type LandedTronTransaction,
	RefusedTransaction,
	type TronBlock,
	type TronChain,
} from './chain';
import {
	base58Address,
	fromHex,
	fromJson,
	hexAddress,
	type IncomingTransaction,
	UnreadableTransaction,
} from './wire';

type Body = Record<string, unknown>;
type Method = (body: Body) => unknown;

/** The keccak topic of Transfer(address,address,uint256). */
const TRANSFER_TOPIC = id('Transfer(address,address,uint256)').slice(2);

const hexText = (text: string) => Buffer.from(text).toString('hex');

/** An address parameter in the form `visible` says (base58 when true, hex otherwise); undefined when invalid. */
function addressParam(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	try {
		const hex = hexAddress(value);
		return /^41[0-9a-f]{40}$/.test(hex) ? hex : undefined;
	} catch {
		return undefined;
	}
}

/** The JSON raw_data java-tron renders from a transaction's protobuf. */
function rawDataJson(incoming: IncomingTransaction): Body {
	const value =
		incoming.type === 'TransferContract'
			? { amount: Number(incoming.amount), owner_address: incoming.owner, to_address: incoming.to }
			: { data: incoming.callData, owner_address: incoming.owner, contract_address: incoming.to };
	return {
		contract: [
			{
				parameter: { value, type_url: `type.googleapis.com/protocol.${incoming.type}` },
				type: incoming.type,
			},
		],
		ref_block_bytes: incoming.refBlockBytes,
		ref_block_hash: incoming.refBlockHash,
		expiration: incoming.expiration,
		...(incoming.feeLimit ? { fee_limit: incoming.feeLimit } : {}),
		...(incoming.memo ? { data: incoming.memo } : {}),
		timestamp: incoming.timestamp,
	};
}

function transactionJson(landed: LandedTronTransaction): Body {
	const { incoming } = landed;
	return {
		ret: [{ contractRet: landed.contractRet }],
		signature: incoming.signatures,
		txID: incoming.txID,
		raw_data: rawDataJson(incoming),
		raw_data_hex: incoming.rawDataHex,
	};
}

function blockJson(block: TronBlock, chain: TronChain): Body {
	const transactions = block.txIDs.map((txID) =>
		transactionJson(chain.transaction(txID) as LandedTronTransaction),
	);
	return {
		blockID: block.blockID,
		block_header: {
			raw_data: {
				number: block.number,
				txTrieRoot: '0'.repeat(64),
				witness_address: '41' + '0'.repeat(40),
				parentHash: block.parentHash,
				version: 30,
				timestamp: block.timestamp,
			},
			witness_signature: '',
		},
		...(transactions.length ? { transactions } : {}),
	};
}

/** wallet/gettransactioninfobyid: fees, resources and, for a contract call, its result and Transfer log. */
function transactionInfoJson(landed: LandedTronTransaction): Body {
	const { incoming } = landed;
	const isCall = incoming.type === 'TriggerSmartContract';
	const failed = landed.contractRet !== 'SUCCESS';
	const transfer = landed.tokenTransfer;
	const word = (address: string) => address.slice(2).padStart(64, '0');
	return {
		id: incoming.txID,
		...(landed.fee ? { fee: Number(landed.fee) } : {}),
		blockNumber: landed.blockNumber,
		blockTimeStamp: landed.blockTimeStamp,
		contractResult: [landed.output],
		...(isCall ? { contract_address: incoming.to } : {}),
		receipt: {
			...(landed.energyFee ? { energy_fee: Number(landed.energyFee) } : {}),
			...(landed.energyUsage ? { energy_usage_total: landed.energyUsage } : {}),
			...(landed.netUsage ? { net_usage: landed.netUsage } : {}),
			...(landed.netFee ? { net_fee: Number(landed.netFee) } : {}),
			...(isCall ? { result: landed.contractRet } : {}),
		},
		...(transfer
			? {
					log: [
						{
							address: incoming.to.slice(2),
							topics: [TRANSFER_TOPIC, word(transfer.from), word(transfer.to)],
							data: transfer.amount.toString(16).padStart(64, '0'),
						},
					],
				}
			: {}),
		...(failed ? { result: 'FAILED', resMessage: hexText(landed.contractRet) } : {}),
	};
}

function broadcast(chain: TronChain, read: () => IncomingTransaction, visible: boolean): Body {
	let incoming: IncomingTransaction | undefined;
	try {
		incoming = read();
		chain.broadcast(incoming);
		return { result: true, txid: incoming.txID };
	} catch (error) {
		if (!(error instanceof RefusedTransaction || error instanceof UnreadableTransaction))
			throw error;
		const code = error instanceof RefusedTransaction ? error.code : 'OTHER_ERROR';
		return {
			code,
			message: visible ? error.message : hexText(error.message),
			...(incoming ? { txid: incoming.txID } : {}),
		};
	}
}

function accountJson(chain: TronChain, address: string, visible: boolean): Body {
	const account = chain.account(address);
	if (!account) return {};
	const shown = visible ? base58Address(address) : address;
	const keys = [{ address: shown, weight: 1 }];
	return {
		address: shown,
		...(account.balance ? { balance: Number(account.balance) } : {}),
		create_time: account.createTime,
		...(account.freeNetUsed ? { free_net_usage: account.freeNetUsed } : {}),
		owner_permission: { permission_name: 'owner', threshold: 1, keys },
		active_permission: [{ type: 'Active', id: 2, permission_name: 'active', threshold: 1, keys }],
	};
}

/** The java-tron HTTP API calls the Signer makes (POST JSON; GET with a query works too). */
export function tronHttpMethods(chain: TronChain): Record<string, Method> {
	const block = (number: unknown) => {
		const found = typeof number === 'number' ? chain.block(number) : undefined;
		return found ? blockJson(found, chain) : {};
	};
	return {
		'/wallet/getnowblock': () => blockJson(chain.liveHead(), chain),
		'/wallet/getblockbynum': (body) => block(Number(body.num ?? 0)),
		// tronweb's getCurrentRefBlockParams asks wallet/getblock without id_or_num: the head.
		'/wallet/getblock': (body) =>
			body.id_or_num === undefined
				? blockJson(chain.liveHead(), chain)
				: block(Number(body.id_or_num)),
		'/wallet/getchainparameters': () => ({
			chainParameter: Object.entries(CHAIN_PARAMETERS).map(([key, value]) => ({ key, value })),
		}),
		'/wallet/getaccount': (body) => {
			const address = addressParam(body.address);
			return address ? accountJson(chain, address, body.visible === true) : {};
		},
		'/wallet/getaccountresource': (body) => {
			const address = addressParam(body.address);
			const account = address ? chain.account(address) : undefined;
			if (!account) return {};
			return {
				freeNetLimit: CHAIN_PARAMETERS.getFreeNetLimit,
				...(account.freeNetUsed ? { freeNetUsed: account.freeNetUsed } : {}),
			};
		},
		'/wallet/triggerconstantcontract': (body) => {
			const owner = addressParam(body.owner_address) ?? '41' + '0'.repeat(40);
			const contract = addressParam(body.contract_address);
			const data =
				typeof body.data === 'string'
					? body.data
					: `${id(String(body.function_selector ?? '')).slice(2, 10)}${String(body.parameter ?? '')}`;
			const outcome = contract
				? chain.constantCall(owner, contract, data.toLowerCase())
				: undefined;
			if (!outcome)
				return {
					result: {
						code: 'CONTRACT_VALIDATE_ERROR',
						message: hexText('Smart contract is not exist.'),
					},
				};
			return {
				result: { result: true },
				energy_used: outcome.energy,
				constant_result: [outcome.output],
				...(outcome.result === 'REVERT'
					? { transaction: { ret: [{ ret: 'FAILED', contractRet: 'REVERT' }] } }
					: {}),
			};
		},
		'/wallet/broadcasttransaction': (body) =>
			broadcast(chain, () => fromJson(body), body.visible === true),
		'/wallet/broadcasthex': (body) =>
			broadcast(chain, () => fromHex(String(body.transaction ?? '')), false),
		'/wallet/gettransactionbyid': (body) => {
			const landed = chain.transaction(String(body.value ?? ''));
			return landed ? transactionJson(landed) : {};
		},
		'/wallet/gettransactioninfobyid': (body) => {
			const landed = chain.transaction(String(body.value ?? ''));
			return landed ? transactionInfoJson(landed) : {};
		},
	};
}

/** One call's answer: its status and JSON body. */
async function answerOf(
	methods: Record<string, Method>,
	request: IncomingMessage,
	url: URL,
	path: string,
	faults: CallFaults | undefined,
): Promise<Answer> {
	const text = await readBody(request);
	const method = methods[path.replace(/^\/walletsolidity\//, '/wallet/')];
	if (!method) return { status: 404, body: { Error: `no such call: ${path}` } };
	let body: Body;
	try {
		body = text ? (JSON.parse(text) as Body) : Object.fromEntries(url.searchParams);
	} catch (error) {
		return {
			status: 200,
			body: { Error: `class org.tron.core.exception.JsonFormat: ${(error as Error).message}` },
		};
	}
	faults?.heard(request, body);
	return { status: 200, body: method(body) };
}

/**
 * The chain's HTTP API on 127.0.0.1, under /wallet/ (and /walletsolidity/: every landed block is
 * final here). With `faults`, each call takes the devnet's faults as a gateway call does, named by
 * its URL without the query (`<url>/wallet/broadcasttransaction`, lower-case, no trailing slash).
 */
export async function serveTronHttp(
	chain: TronChain,
	port = 0,
	faults?: CallFaults,
): Promise<{ server: Server; url: string }> {
	const methods = tronHttpMethods(chain);
	const { server, origin } = await serveChainHttp({
		port,
		faults,
		answer: (request, url, path) => answerOf(methods, request, url, path, faults),
		failed: (error) => ({ status: 500, body: { Error: error.message } }),
	});
	return { server, url: origin };
}
