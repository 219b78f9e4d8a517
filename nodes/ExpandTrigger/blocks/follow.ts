import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../../shared/errors';

import { MAX_BLOCK_RANGE } from '../../shared/catalog/limits';
import type { ChainClient } from '../../shared/chain/chainClient';
import { expandApiRequest, type ApiContext } from '../../shared/transport';
import { OWN_ENDPOINTS } from '../../shared/transport/ownEndpoints';
import { endpointRequest } from '../../shared/transport/request';
import { type Cursor, lastEmitted, REORG_WINDOW } from '../cursor';
import { type CheckedBlock, checkRange, InvalidAnswer, quote } from './validate';

export interface FetchedBlock {
	block: CheckedBlock;
	/** A block that replaces one emitted before a reorganisation. */
	replacement: boolean;
}

/** Blocks one poll takes on at most: a longer backlog continues on the next poll (bounds memory and the emit). */
export const MAX_BLOCKS_PER_POLL = 10_000;
/** Range requests one poll has in flight at once while catching up. */
export const CATCH_UP_CONCURRENCY = 8;

const sameHash = (a: string | undefined, b: string | undefined) =>
	a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();

/** One `chain/getblock` range, checked (validate.ts) before anything of it is used. */
export async function fetchRange(
	context: ApiContext,
	chainId: string,
	start: number,
	end: number,
	withLogs: boolean,
): Promise<CheckedBlock[]> {
	const data = await expandApiRequest.call(
		context,
		endpointRequest(OWN_ENDPOINTS['chain/getblock'], {
			chainId,
			startBlock: String(start),
			endBlock: String(end),
		}),
		0,
	);
	try {
		return checkRange(data, start, end, { withLogs });
	} catch (error) {
		if (!(error instanceof InvalidAnswer)) throw asNodeError(context.getNode(), error);
		throw new NodeOperationError(
			context.getNode(),
			`The API's answer to chain/getblock for blocks ${start} to ${end} was refused: ${error.message}`,
			{
				description: 'Nothing was emitted and the cursor did not move; the next poll asks again.',
			},
		);
	}
}

/** Blocks from `start` to `end`, one range request after another. */
export async function fetchBlocks(
	context: ApiContext,
	chainId: string,
	start: number,
	end: number,
	withLogs: boolean,
): Promise<CheckedBlock[]> {
	const blocks: CheckedBlock[] = [];
	for (let from = start; from <= end; from += MAX_BLOCK_RANGE) {
		blocks.push(
			...(await fetchRange(
				context,
				chainId,
				from,
				Math.min(from + MAX_BLOCK_RANGE - 1, end),
				withLogs,
			)),
		);
	}
	return blocks;
}

/** The chain's head through its public JSON-RPC node, checked to be a block number. */
export async function headNumber(context: ApiContext, client: ChainClient): Promise<number> {
	const answer = await client.rpc<unknown>('eth_blockNumber');
	if (typeof answer !== 'string' || !/^0x[0-9a-fA-F]{1,13}$/.test(answer)) {
		throw new NodeOperationError(
			context.getNode(),
			`The chain's JSON-RPC node answered eth_blockNumber with ${quote(answer)}, not a block number`,
		);
	}
	return Number(BigInt(answer));
}

/**
 * Walks back through the remembered blocks to the newest one still on the canonical chain: the
 * fork point. Bounded by the remembered window; deeper is an error, never a loop.
 */
async function findForkPoint(
	context: ApiContext,
	cursor: Cursor,
	withLogs: boolean,
): Promise<{ number: number; hash: string }> {
	const remembered = new Map(cursor.recent.map((entry) => [entry.number, entry.hash]));
	const newest = lastEmitted(cursor)?.number ?? 0;
	const oldest = cursor.recent[0]?.number ?? newest;
	for (let end = newest; end >= oldest; end -= MAX_BLOCK_RANGE) {
		const canonical = await fetchRange(
			context,
			cursor.chainId,
			Math.max(oldest, end - MAX_BLOCK_RANGE + 1),
			end,
			withLogs,
		);
		for (const block of canonical.reverse()) {
			if (sameHash(remembered.get(block.number), block.hash))
				return { number: block.number, hash: block.hash };
		}
	}
	throw new NodeOperationError(
		context.getNode(),
		`The chain reorganised deeper than the ${REORG_WINDOW} blocks the trigger remembers (none of blocks ${oldest} to ${newest} is still canonical)`,
		{
			description:
				'Blocks emitted before may no longer be part of the chain. To go on from a known point, set the Start Block option (a changed Start Block starts the cursor afresh).',
		},
	);
}

/**
 * `block` does not link to the last emitted block: finds the fork point, moves the cursor back to
 * it and returns the canonical blocks after it, up to `block`, as replacements.
 */
async function repairReorg(
	context: ApiContext,
	cursor: Cursor,
	block: CheckedBlock,
	withLogs: boolean,
): Promise<FetchedBlock[]> {
	const previous = lastEmitted(cursor) as { number: number; hash: string };
	const fork = await findForkPoint(context, cursor, withLogs);
	if (fork.number === previous.number) {
		// The API says block N is still canonical and that block N+1 is not its child: it contradicts itself.
		throw new NodeOperationError(
			context.getNode(),
			`The API's blocks do not link up: block ${block.number} has the parentHash ${block.parentHash}, but the API still reports block ${previous.number} with the hash ${previous.hash}`,
			{ description: 'Nothing was emitted and the cursor did not move; the next poll asks again.' },
		);
	}
	const replacements =
		fork.number + 1 <= block.number - 1
			? await fetchBlocks(context, cursor.chainId, fork.number + 1, block.number - 1, withLogs)
			: [];
	if (replacements.length && !sameHash(replacements[0].parentHash, fork.hash)) {
		throw new NodeOperationError(
			context.getNode(),
			`The chain changed while the trigger repaired a reorganisation at block ${fork.number}`,
			{
				description:
					'Nothing was emitted and the cursor did not move; the next poll repairs it again.',
			},
		);
	}
	cursor.recent = cursor.recent.filter((entry) => entry.number <= fork.number);
	for (const replaced of replacements)
		cursor.recent.push({ number: replaced.number, hash: replaced.hash });
	cursor.next = (lastEmitted(cursor)?.number ?? fork.number) + 1;
	return replacements.map((replaced) => ({ block: replaced, replacement: true }));
}

export interface FollowOptions {
	confirmations: number;
	/** Whether transactions must carry well-formed logs (Token Transfer). */
	withLogs: boolean;
	/** True once no further range should be requested (deactivated, or the poll's time budget spent). */
	stopped(): boolean;
}

/**
 * One poll: the head through the public RPC, then every block from the cursor up to the head
 * minus the confirmations, in order. A backlog is fetched in ranges of 10 with up to
 * CATCH_UP_CONCURRENCY requests in flight, and used strictly in order as the ranges arrive. When a
 * block's parent is not the last emitted block, the chain has reorganised: the blocks from the
 * fork point on are fetched again and returned as replacements before it. Advances the given
 * cursor (a copy; the caller commits it together with the emit). Any failure throws: the caller
 * then emits nothing and the stored cursor stays where it was.
 */
export async function pollBlocks(
	context: ApiContext,
	client: ChainClient,
	cursor: Cursor,
	options: FollowOptions,
): Promise<FetchedBlock[]> {
	const head = await headNumber(context, client);
	const target = Math.min(head - options.confirmations, cursor.next + MAX_BLOCKS_PER_POLL - 1);
	const ranges: Array<[number, number]> = [];
	for (let from = cursor.next; from <= target; from += MAX_BLOCK_RANGE)
		ranges.push([from, Math.min(from + MAX_BLOCK_RANGE - 1, target)]);

	const requests: Array<Promise<CheckedBlock[]>> = [];
	const launch = (used: number) => {
		while (
			requests.length < ranges.length &&
			requests.length - used < CATCH_UP_CONCURRENCY &&
			!options.stopped()
		) {
			const [start, end] = ranges[requests.length];
			const request = fetchRange(context, cursor.chainId, start, end, options.withLogs);
			// Awaited in order below; a failure further ahead must not surface as an unhandled rejection.
			request.catch(() => undefined);
			requests.push(request);
		}
	};

	const result: FetchedBlock[] = [];
	for (let used = 0; ; used++) {
		launch(used);
		if (used >= requests.length) break;
		for (const block of await requests[used]) {
			if (block.number !== cursor.next) return result; // a reorg repair moved the cursor back: the next poll goes on
			const previous = lastEmitted(cursor);
			if (previous && !sameHash(block.parentHash, previous.hash)) {
				result.push(...(await repairReorg(context, cursor, block, options.withLogs)));
				// The chain moved again while it was being read: the next poll picks up from here.
				if (!sameHash(block.parentHash, lastEmitted(cursor)?.hash)) return result;
			}
			result.push({ block, replacement: false });
			cursor.recent.push({ number: block.number, hash: block.hash });
			if (cursor.recent.length > REORG_WINDOW) cursor.recent.shift();
			cursor.next = block.number + 1;
		}
	}
	return result;
}
