import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_BLOCK_RANGE } from '../../../shared/catalog/limits';
import { expandApiRequest, type ApiContext } from '../../../shared/transport';
import { endpointRequest } from '../../../shared/transport/request';
import type { ChainClient } from '../../../shared/chain/chainClient';
import { type Cursor, lastEmitted, REORG_WINDOW } from './cursor';

export interface FetchedBlock {
	block: IDataObject;
	/** A block that replaces one emitted before a reorganisation. */
	replacement: boolean;
}

async function fetchRange(context: ApiContext, chainId: string, start: number, end: number): Promise<IDataObject[]> {
	const data = (await expandApiRequest.call(
		context,
		endpointRequest('chain', 'getblock', { chainId, startBlock: String(start), endBlock: String(end) }),
		0,
	)) as { blocks: IDataObject[] };
	return [...data.blocks].sort((a, b) => Number(a.number) - Number(b.number));
}

/** Blocks from `start` to `end` in ceil(n / 10) range requests. */
export async function fetchBlocks(context: ApiContext, chainId: string, start: number, end: number): Promise<IDataObject[]> {
	const blocks: IDataObject[] = [];
	for (let from = start; from <= end; from += MAX_BLOCK_RANGE) {
		blocks.push(...(await fetchRange(context, chainId, from, Math.min(from + MAX_BLOCK_RANGE - 1, end))));
	}
	return blocks;
}

/**
 * Walks back through the remembered blocks to the newest one still on the canonical chain and
 * returns its number: the fork point. Everything after it is re-emitted as replacements.
 */
async function findForkPoint(context: ApiContext, cursor: Cursor): Promise<number> {
	const remembered = new Map(cursor.recent.map((entry) => [entry.number, entry.hash]));
	const newest = lastEmitted(cursor)?.number ?? 0;
	const oldest = cursor.recent[0]?.number ?? newest;
	for (let end = newest; end >= oldest; end -= MAX_BLOCK_RANGE) {
		const canonical = await fetchRange(context, cursor.chainId, Math.max(oldest, end - MAX_BLOCK_RANGE + 1), end);
		for (const block of canonical.reverse()) {
			if (remembered.get(Number(block.number)) === block.hash) return Number(block.number);
		}
	}
	throw new NodeOperationError(context.getNode(), `The chain reorganised deeper than the ${REORG_WINDOW} blocks the trigger remembers`);
}

/**
 * Ranges one poll fetches at most (1,000 blocks): a long backlog is worked off over several polls,
 * so no single poll (nor the activation) runs for minutes.
 */
export const MAX_BLOCK_RANGES_PER_POLL = 100;

/**
 * One poll: the head through the public RPC, then every block from the cursor up to the head
 * minus the confirmations, in order, in ranges of at most 10. When a block's parent is not the
 * last emitted block, the chain has reorganised: the blocks from the fork point on are fetched
 * again and emitted as replacements before it. Advances the given cursor (a copy; the caller
 * commits it together with the emit).
 */
export async function pollBlocks(
	context: ApiContext,
	client: ChainClient,
	cursor: Cursor,
	confirmations: number,
): Promise<FetchedBlock[]> {
	const head = Number(BigInt(await client.rpc<string>('eth_blockNumber')));
	const target = head - confirmations;
	const result: FetchedBlock[] = [];
	for (let ranges = 0; cursor.next <= target && ranges < MAX_BLOCK_RANGES_PER_POLL; ranges++) {
		const end = Math.min(cursor.next + MAX_BLOCK_RANGE - 1, target);
		for (const block of await fetchRange(context, cursor.chainId, cursor.next, end)) {
			const previous = lastEmitted(cursor);
			if (previous && block.parentHash !== previous.hash) {
				const fork = await findForkPoint(context, cursor);
				cursor.recent = cursor.recent.filter((entry) => entry.number <= fork);
				for (const replaced of await fetchBlocks(context, cursor.chainId, fork + 1, Number(block.number) - 1)) {
					result.push({ block: replaced, replacement: true });
					cursor.recent.push({ number: Number(replaced.number), hash: String(replaced.hash) });
				}
				cursor.next = (lastEmitted(cursor)?.number ?? fork) + 1;
				// The chain moved again while it was being read: the next poll picks up from here.
				if (block.parentHash !== lastEmitted(cursor)?.hash) return result;
			}
			result.push({ block, replacement: false });
			cursor.recent.push({ number: Number(block.number), hash: String(block.hash) });
			cursor.next = Number(block.number) + 1;
		}
		// A range shorter than asked for (the head moved back): continue from what arrived.
		if (cursor.next <= end) break;
	}
	return result;
}
