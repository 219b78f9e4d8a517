import type { IDataObject } from 'n8n-workflow';

import type { CheckedBlock } from '../../blocks/validate';

/** keccak256("Transfer(address,address,uint256)"), the first topic of every ERC-20 and ERC-721 Transfer. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const TOPIC_ADDRESS = /^0x0{24}([0-9a-f]{40})$/;
const UINT256 = /^0x[0-9a-f]{64}$/;

export interface Transfer {
	tokenAddress: string;
	from: string;
	to: string;
	/** Smallest-unit amount as an integer string. */
	amount: string;
	transactionHash: string;
	logIndex: number;
	blockNumber: number;
	blockHash: string;
	blockTimestamp: unknown;
	replacement: boolean;
}

export interface TransferFilter {
	/** Lower-case token addresses; empty: every token. */
	tokens: string[];
	/** Lower-case addresses; empty: every address. */
	watched: string[];
	direction: 'in' | 'out' | 'both';
}

/** Why a log with the Transfer topic was not read as an ERC-20 transfer, or undefined when it was. */
type Decoded =
	| { transfer: Omit<Transfer, 'blockNumber' | 'blockHash' | 'blockTimestamp' | 'replacement'> }
	| { skipped: string }
	| undefined;

function decode(log: IDataObject, transactionHash: string): Decoded {
	const topics = (log.topics as string[]).map((topic) => topic.toLowerCase());
	if (topics[0] !== TRANSFER_TOPIC) return undefined;
	// ERC-721 has the token ID as a fourth topic and no data: not a fungible transfer.
	if (topics.length === 4) return undefined;
	const data = String(log.data).toLowerCase();
	const [from, to] = [TOPIC_ADDRESS.exec(topics[1] ?? ''), TOPIC_ADDRESS.exec(topics[2] ?? '')];
	if (topics.length !== 3 || !from || !to || !UINT256.test(data)) {
		return {
			skipped: `log ${String(log.logIndex)} of transaction ${transactionHash} has the Transfer topic but not the ERC-20 layout (3 topics with addresses, 32 bytes of data)`,
		};
	}
	return {
		transfer: {
			tokenAddress: String(log.address).toLowerCase(),
			from: `0x${from[1]}`,
			to: `0x${to[1]}`,
			amount: BigInt(data).toString(),
			transactionHash,
			logIndex: Number(log.logIndex),
		},
	};
}

function matches(
	transfer: Pick<Transfer, 'tokenAddress' | 'from' | 'to'>,
	filter: TransferFilter,
): boolean {
	if (filter.tokens.length && !filter.tokens.includes(transfer.tokenAddress)) return false;
	if (!filter.watched.length) return true;
	const incoming = filter.direction !== 'out' && filter.watched.includes(transfer.to);
	const outgoing = filter.direction !== 'in' && filter.watched.includes(transfer.from);
	return incoming || outgoing;
}

/**
 * The ERC-20 Transfer events of the blocks that pass the token and address filters, in chain
 * order. Logs with the Transfer topic but another layout are reported through `skipped` (the
 * caller logs them), never dropped unseen.
 */
export function transfersOf(
	blocks: Array<{ block: CheckedBlock; replacement: boolean }>,
	filter: TransferFilter,
	skipped: (reason: string) => void,
): Transfer[] {
	const found: Transfer[] = [];
	for (const { block, replacement } of blocks) {
		for (const transaction of block.transactions) {
			for (const log of transaction.logs as IDataObject[]) {
				const decoded = decode(log, String(transaction.hash));
				if (!decoded) continue;
				if ('skipped' in decoded) {
					if (!filter.tokens.length || filter.tokens.includes(String(log.address).toLowerCase()))
						skipped(decoded.skipped);
					continue;
				}
				if (!matches(decoded.transfer, filter)) continue;
				found.push({
					...decoded.transfer,
					blockNumber: block.number,
					blockHash: block.hash,
					blockTimestamp: block.timestamp,
					replacement,
				});
			}
		}
	}
	return found.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
}
