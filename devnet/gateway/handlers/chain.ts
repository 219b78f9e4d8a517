import { Interface, Transaction, getAddress, isHexString } from 'ethers';

import { type Handler } from '../context';
import {
	blockAtTimestamp,
	blockRecord,
	erc20,
	getRawBlock,
	headNumber,
	readContract,
	toBlockTag,
	transactionRecord,
} from '../evm';
import { ApiFailure, fail, missing } from '../failure';
import { address, required, text, wholeNumber } from '../params';

const MAX_BLOCK_RANGE = 10n;
const FEE_BASIS_POINTS = 5n;
const APPROVALS_PAGE_SIZE = 2;
const TRANSACTIONS_PAGE_SIZE = 10;
const GAS_PRIORITY: Record<string, [bigint, bigint]> = {
	low: [10n, 10n],
	medium: [12n, 10n],
	high: [15n, 10n],
};

/** The pricing tokens of the ticker stream: every fixture token with a pool against USDC. */
export function tickerTokens(
	pairs: Record<string, string>,
	tokens: Record<string, { address: string }>,
) {
	return Object.fromEntries(
		Object.keys(pairs).map((pair) => {
			const symbol = pair.split('/')[0];
			return [symbol, tokens[symbol].address];
		}),
	);
}

const getbalance: Handler = async (context) => {
	const chain = context.chain();
	const owner = address(context.params, 'address');
	const token = address(context.params, 'tokenAddress', true);
	const timestamp = wholeNumber(context.params, 'timestamp');
	const blockNumber = wholeNumber(context.params, 'blockNumber');
	let blockTag = 'latest';
	if (timestamp !== undefined)
		blockTag = toBlockTag(await blockAtTimestamp(chain, Number(timestamp)));
	else if (blockNumber !== undefined) {
		if (blockNumber > BigInt(await headNumber(chain))) fail('invalidBlockNumber');
		blockTag = toBlockTag(blockNumber);
	}
	if (!token) {
		return {
			balance: BigInt(await chain.rpc<string>('eth_getBalance', [owner, blockTag])).toString(),
		};
	}
	const [balance] = await readContract(chain, token, erc20, 'balanceOf', [owner], blockTag).catch(
		() => fail('invalidToken'),
	);
	return { balance: String(balance) };
};

const getblock: Handler = async (context) => {
	const chain = context.chain();
	const blockNumber = text(context.params, 'blockNumber');
	const head = BigInt(await headNumber(chain));
	const start = wholeNumber(context.params, 'startBlock');
	const end = wholeNumber(context.params, 'endBlock');
	if (start === undefined && end === undefined) {
		if (blockNumber === undefined) missing('blockNumber');
		const isHash = isHexString(blockNumber, 32);
		if (!isHash && !/^\d+$/.test(blockNumber)) fail('invalidBlockNumber');
		if (!isHash && BigInt(blockNumber) > head) fail('invalidBlockNumber');
		const block = await getRawBlock(chain, isHash ? blockNumber : toBlockTag(BigInt(blockNumber)));
		if (!block) fail('invalidBlockNumber');
		return { blocks: [await blockRecord(chain, block)] };
	}
	if (start === undefined) missing('startBlock');
	if (end === undefined) missing('endBlock');
	// The backend's order of checks: direction, then the chain head, then the size of the range.
	if (end < start) fail('invalidStartEndBlock');
	if (end > head) fail('invalidStartOrEndBlock');
	if (end - start + 1n > MAX_BLOCK_RANGE) fail('invalidBlockRange');
	const blocks = [];
	for (let number = start; number <= end; number++) {
		blocks.push(
			await blockRecord(
				chain,
				(await getRawBlock(chain, toBlockTag(number))) as Record<string, unknown>,
			),
		);
	}
	return { blocks };
};

const getgasprice: Handler = async (context) => {
	const chain = context.chain();
	const [multiplier, divisor] =
		GAS_PRIORITY[text(context.params, 'gasPriority') ?? 'low'] ?? fail('invalidInput');
	const gasPrice = BigInt(await chain.rpc<string>('eth_gasPrice'));
	return { gasPrice: ((gasPrice * multiplier) / divisor).toString() };
};

const getstorage: Handler = async (context) => {
	const chain = context.chain();
	const contract = address(context.params, 'address');
	const index = text(context.params, 'index') ?? '0';
	if (!/^\d+$/.test(index) && !isHexString(index)) fail('invalidInput');
	const slot = index.startsWith('0x') ? index : toBlockTag(BigInt(index));
	return { data: await chain.rpc<string>('eth_getStorageAt', [contract, slot, 'latest']) };
};

const gettransaction: Handler = async (context) => {
	const chain = context.chain();
	const hash = required(context.params, 'transactionHash');
	if (!isHexString(hash, 32)) fail('invalidTransactionHash');
	const tx = await chain.rpc<Record<string, unknown> | null>('eth_getTransactionByHash', [hash]);
	if (!tx) fail('invalidTransactionHash');
	return await transactionRecord(chain, tx);
};

const estimategas: Handler = async (context) => {
	const chain = context.chain();
	const call = {
		from: address(context.params, 'from'),
		to: address(context.params, 'to'),
		data: required(context.params, 'data'),
		value: toBlockTag(wholeNumber(context.params, 'value') ?? 0n),
	};
	const estimate = await chain
		.rpc<string>('eth_estimateGas', [call])
		.catch(() => fail('executionReverted'));
	return { estimatedGas: BigInt(estimate).toString() };
};

const sendtransaction: Handler = async (context) => {
	const chain = context.chain();
	const raw = required(context.params, 'rawTransaction');
	try {
		Transaction.from(raw);
	} catch {
		fail('invalidRawTransaction');
	}
	try {
		return { transactionHash: await chain.rpc<string>('eth_sendRawTransaction', [raw]) };
	} catch (error) {
		throw new ApiFailure(`Error: Returned error: ${(error as Error).message}`);
	}
};

const decodetransaction: Handler = async (context) => {
	let tx: Transaction;
	try {
		tx = Transaction.from(required(context.params, 'rawTransaction'));
	} catch (error) {
		if (error instanceof ApiFailure) throw error;
		fail('unsupportedTxType');
	}
	const amount = (value: bigint | null) => (value === null ? null : value.toString());
	return {
		parsedTx: {
			hash: tx.hash,
			type: tx.type,
			chainId: Number(tx.chainId),
			nonce: tx.nonce,
			from: tx.from,
			to: tx.to,
			value: tx.value.toString(),
			data: tx.data,
			gasLimit: tx.gasLimit.toString(),
			gasPrice: amount(tx.gasPrice),
			maxFeePerGas: amount(tx.maxFeePerGas),
			maxPriorityFeePerGas: amount(tx.maxPriorityFeePerGas),
			accessList: tx.accessList,
			v: tx.signature?.v,
			r: tx.signature?.r,
			s: tx.signature?.s,
		},
		assetChanges: { from: tx.from, to: tx.to, value: tx.value.toString() },
	};
};

const createfeetransaction: Handler = async (context) => {
	const chain = context.chain();
	required(context.params, 'chainId');
	const from = address(context.params, 'from');
	const gas = wholeNumber(context.params, 'gas') ?? missing('gas');
	const value = wholeNumber(context.params, 'value') ?? missing('value');
	required(context.params, 'referenceId');
	const nonce = BigInt(await chain.rpc<string>('eth_getTransactionCount', [from, 'pending']));
	return {
		chainId: chain.chainId,
		from,
		// The devnet's fee collector is the last funded wallet.
		to: chain.fixtures.wallets[chain.fixtures.wallets.length - 1].address,
		value: ((value * FEE_BASIS_POINTS) / 10_000n).toString(),
		gas: gas.toString(),
		nonce: nonce.toString(),
	};
};

const gettokenaddress: Handler = async (context) => {
	const symbol = required(context.params, 'tokenSymbol').toUpperCase();
	const token = context.chain().fixtures.tokens[symbol] ?? fail('invalidInput');
	return { tokenAddress: token.address };
};

const gettickerprice: Handler = async (context) => {
	const chain = context.chain();
	// The ticker stream prices the first chain only; the API too serves this on one chain.
	if (chain.chainId !== [...context.chains.keys()][0]) fail('notApplicable');
	return tickerTokens(chain.fixtures.uniswapV2.pairs, chain.fixtures.tokens);
};

const getapprovaldata: Handler = async (context) => {
	const chain = context.chain();
	const owner = address(context.params, 'address');
	const logs = await chain.rpc<Array<{ address: string; topics: string[]; blockNumber: string }>>(
		'eth_getLogs',
		[
			{
				fromBlock: '0x0',
				toBlock: 'latest',
				topics: [
					erc20.getEvent('Approval')?.topicHash,
					`0x${owner.slice(2).toLowerCase().padStart(64, '0')}`,
				],
			},
		],
	);
	const latest = new Map<string, { token: string; spender: string; blockNumber: string }>();
	for (const log of logs) {
		const spender = getAddress(`0x${log.topics[2].slice(26)}`);
		latest.set(`${log.address.toLowerCase()}:${spender}`, {
			token: getAddress(log.address),
			spender,
			blockNumber: log.blockNumber,
		});
	}
	const symbols = new Map(
		Object.values(chain.fixtures.tokens).map((token) => [
			token.address.toLowerCase(),
			token.symbol,
		]),
	);
	const approvals = [];
	for (const { token, spender, blockNumber } of latest.values()) {
		const [allowance] = await readContract(chain, token, erc20, 'allowance', [owner, spender]);
		const [balance] = await readContract(chain, token, erc20, 'balanceOf', [owner]);
		const block = await chain.rpc<{ timestamp: string }>('eth_getBlockByNumber', [
			blockNumber,
			false,
		]);
		const atRisk =
			(allowance as bigint) < (balance as bigint) ? (allowance as bigint) : (balance as bigint);
		approvals.push({
			tokenAddress: token,
			tokenSymbol: symbols.get(token.toLowerCase()) ?? '',
			spender,
			allowance: String(allowance),
			valueAtRisk: atRisk.toString(),
			riskFactor: atRisk === 0n ? 'LOW RISK' : 'HIGH RISK',
			lastUpdated: String(Number(BigInt(block.timestamp))),
		});
	}
	const offset = Number(
		text(context.params, 'pageToken')
			? Buffer.from(String(context.params.pageToken), 'base64url').toString()
			: '0',
	);
	if (!Number.isInteger(offset) || offset < 0 || offset > approvals.length) fail('invalidInput');
	const next = offset + APPROVALS_PAGE_SIZE;
	return {
		nextPageToken: next < approvals.length ? Buffer.from(String(next)).toString('base64url') : '',
		approvals: approvals.slice(offset, next),
	};
};

const getusertransactions: Handler = async (context) => {
	const chain = context.chain();
	const owner = address(context.params, 'address').toLowerCase();
	const contract = text(context.params, 'contractAddress')?.toLowerCase();
	const found = [];
	const head = await headNumber(chain);
	for (let number = 0; number <= head; number++) {
		const block = (await getRawBlock(chain, toBlockTag(number))) as {
			transactions: Array<Record<string, string>>;
		};
		for (const tx of block.transactions) {
			const parties = [tx.from?.toLowerCase(), tx.to?.toLowerCase()];
			if (!parties.includes(owner)) continue;
			if (contract && tx.to?.toLowerCase() !== contract) continue;
			found.push(await transactionRecord(chain, tx));
		}
	}
	if ((text(context.params, 'sortOrder') ?? 'desc') === 'desc') found.reverse();
	const totalPages = Math.max(1, Math.ceil(found.length / TRANSACTIONS_PAGE_SIZE));
	const page = Number(text(context.params, 'pageToken') ?? '1');
	if (!Number.isInteger(page) || page < 1) fail('invalidInput');
	if (page > totalPages) fail('invalidPageNumber');
	return {
		totalPages,
		currentPage: page,
		transactions: found.slice((page - 1) * TRANSACTIONS_PAGE_SIZE, page * TRANSACTIONS_PAGE_SIZE),
	};
};

const portfolio: Handler = async (context) => {
	const chain = context.chain();
	const owner = address(context.params, 'address');
	const assetType = text(context.params, 'assetType') ?? 'all';
	const assets: Array<Record<string, unknown>> = [];
	if (assetType !== 'nonFungible') {
		assets.push({
			type: 'native',
			symbol: 'ETH',
			decimals: 18,
			balance: BigInt(await chain.rpc<string>('eth_getBalance', [owner, 'latest'])).toString(),
		});
		for (const token of Object.values(chain.fixtures.tokens)) {
			const [balance] = await readContract(chain, token.address, erc20, 'balanceOf', [owner]);
			if (balance !== 0n)
				assets.push({
					type: 'fungible',
					tokenAddress: token.address,
					symbol: token.symbol,
					decimals: token.decimals,
					balance: String(balance),
				});
		}
	}
	if (assetType !== 'fungible') {
		const { nft } = chain.fixtures;
		for (const [tokenId, holder] of Object.entries(nft.owners)) {
			if (holder.toLowerCase() === owner.toLowerCase())
				assets.push({ type: 'nonFungible', collection: nft.address, symbol: nft.symbol, tokenId });
		}
	}
	return { address: owner, assets, nextPageToken: null };
};

const getpublicrpc: Handler = async (context) => ({ rpc: context.chain().rpcUrl });

const genericCall: Handler = async (context) => {
	const chain = context.chain();
	const contract = address(context.params, 'contractAddress');
	const methodName = required(context.params, 'methodName');
	const abi = context.params.abi;
	if (!Array.isArray(abi)) fail('invalidAbi');
	let contractInterface: Interface;
	try {
		contractInterface = new Interface(abi as never);
	} catch {
		fail('invalidAbi');
	}
	const method = contractInterface.getFunction(methodName) ?? fail('invalidMethodName');
	const parameters = context.params.parameters ?? [];
	if (!Array.isArray(parameters) || parameters.length !== method.inputs.length)
		fail('invalidParameters');
	const blockNumber = wholeNumber(context.params, 'blockNumber');
	const result = await readContract(
		chain,
		contract,
		contractInterface,
		methodName,
		parameters,
		blockNumber === undefined ? 'latest' : toBlockTag(blockNumber),
	).catch(() => fail('executionReverted'));
	const plain = (value: unknown): unknown =>
		typeof value === 'bigint' ? value.toString() : Array.isArray(value) ? value.map(plain) : value;
	// As the backend answers: the method name as the key, one output as its value.
	return { [methodName]: result.length === 1 ? plain(result[0]) : plain(result) };
};

export const chainHandlers: Record<string, Handler> = {
	'/chain/getbalance': getbalance,
	'/chain/getblock': getblock,
	'/chain/getgasprice': getgasprice,
	'/chain/getstorage': getstorage,
	'/chain/gettransaction': gettransaction,
	'/chain/estimategas': estimategas,
	'/chain/sendtransaction': sendtransaction,
	'/chain/decodetransaction': decodetransaction,
	'/chain/createfeetransaction': createfeetransaction,
	'/chain/gettokenaddress': gettokenaddress,
	'/chain/gettickerprice': gettickerprice,
	'/chain/getapprovaldata': getapprovaldata,
	'/chain/getusertransactions': getusertransactions,
	'/chain/portfolio': portfolio,
	'/chain/getpublicrpc': getpublicrpc,
	'/chain/generic': genericCall,
	'/chain/genericsmartcontractmethod': genericCall,
};
