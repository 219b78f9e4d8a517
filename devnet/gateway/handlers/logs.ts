import { getAddress } from 'ethers';

import type { Handler } from '../context';
import { erc20, headNumber, logRecord, type RawLog, toBlockTag } from '../evm';
import { fail } from '../failure';
import { address, required, text, wholeNumber } from '../params';

/** Logs per page. The API's page size is not documented; this is the devnet's. */
const LOGS_PAGE_SIZE = 100;
const TYPES = ['Transfer', 'Approval'] as const;

const topicAddress = (topic: string) => getAddress(`0x${topic.slice(26)}`);

/**
 * `GET /fungibletoken/historical/logs`: the Transfer or Approval events of one token in a block
 * range (default: the whole chain), from the chain's own logs (`eth_getLogs`), oldest first, paged.
 * Parameters as the reference lists them (tokenAddress, type, page; startBlock, endBlock). The
 * reference documents no response shape, so this one is the devnet's own: `{ page, totalPages,
 * logs }`, each log in the spec's Log record shape (as in getblock) plus its decoded fields
 * (from, to, value for Transfer; owner, spender, value for Approval).
 */
export const historicalLogs: Handler = async (context) => {
	const chain = context.chain();
	const token = address(context.params, 'tokenAddress');
	const type = required(context.params, 'type');
	if (!(TYPES as readonly string[]).includes(type)) fail('invalidInput');
	const head = BigInt(await headNumber(chain));
	const start = wholeNumber(context.params, 'startBlock') ?? 0n;
	const end = wholeNumber(context.params, 'endBlock') ?? head;
	if (end < start) fail('invalidStartEndBlock');
	if (end > head) fail('invalidStartOrEndBlock');
	const page = Number(text(context.params, 'page') ?? '1');
	if (!Number.isSafeInteger(page) || page < 1) fail('invalidInput');
	const raw = await chain.rpc<RawLog[]>('eth_getLogs', [
		{
			address: token,
			fromBlock: toBlockTag(start),
			toBlock: toBlockTag(end),
			topics: [erc20.getEvent(type)?.topicHash],
		},
	]);
	// ERC-721 Transfer and Approval share the topic; only the ERC-20 layout (three topics) is this endpoint's.
	const logs = raw
		.filter((log) => (log.topics as string[]).length === 3)
		.map((log) => {
			const topics = log.topics as string[];
			const [first, second] = [topicAddress(topics[1]), topicAddress(topics[2])];
			const value = BigInt(log.data as string).toString();
			return {
				...logRecord(log),
				...(type === 'Transfer' ? { from: first, to: second } : { owner: first, spender: second }),
				value,
			};
		});
	const totalPages = Math.max(1, Math.ceil(logs.length / LOGS_PAGE_SIZE));
	if (page > totalPages) fail('invalidPageNumber');
	return { page, totalPages, logs: logs.slice((page - 1) * LOGS_PAGE_SIZE, page * LOGS_PAGE_SIZE) };
};
