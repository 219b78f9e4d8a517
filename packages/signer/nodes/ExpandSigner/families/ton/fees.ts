import {
	Address,
	beginCell,
	type Cell,
	internal,
	loadStateInit,
	storeMessageRelaxed,
} from '@ton/core';

import type { TonOutMessage } from './message';

/** Nanotons per message and per 2^16 bits and cells: the message forwarding prices of mainnet and testnet (config params 25 and 24). */
const PRICES = {
	basechain: { lump: 400_000n, bit: 26_214_400n, cell: 2_621_440_000n },
	masterchain: { lump: 10_000_000n, bit: 655_360_000n, cell: 65_536_000_000n },
};

/** The bits and cells of the trees, each distinct cell once, as the chain counts a message's size. */
function sizeOf(roots: Cell[]): { bits: bigint; cells: bigint } {
	const seen = new Set<string>();
	const pending = [...roots];
	let bits = 0n;
	let cells = 0n;
	for (let cell = pending.pop(); cell; cell = pending.pop()) {
		const key = cell.hash().toString('hex');
		if (seen.has(key)) continue;
		seen.add(key);
		bits += BigInt(cell.bits.length);
		cells += 1n;
		pending.push(...cell.refs);
	}
	return { bits, cells };
}

function feeOf(
	prices: (typeof PRICES)['basechain'],
	roots: Cell[],
	more = { bits: 0n, cells: 0n },
): bigint {
	const { bits, cells } = sizeOf(roots);
	const sized = prices.bit * (bits + more.bits) + prices.cell * (cells + more.cells);
	return prices.lump + (sized + 65_535n) / 65_536n;
}

/** The internal message as the wallet sends it. */
const messageCell = (message: TonOutMessage) =>
	beginCell()
		.store(
			storeMessageRelaxed(
				internal({
					to: Address.parse(message.to),
					value: message.value,
					bounce: message.bounce,
					body: message.body,
					init: message.stateInit ? loadStateInit(message.stateInit.beginParse()) : undefined,
				}),
			),
		)
		.endCell();

/** A cell at its largest, for the parts of the external message the wallet builds: its signed root, one action per message. */
const FULL_CELL = { bits: 1023n, cells: 1n };

/**
 * The most the wallet pays the chain to carry the messages, beyond their values: each message's
 * forwarding (priced by its size, so a large comment or body costs more; a message to the masterchain at
 * its prices) and the import of the external message that carries them all and `deployed` (the wallet's
 * own code and data, when it deploys itself), each distinct cell once: 30 KB of comment referenced by
 * many messages is imported once and forwarded by each. The wallet's gas is not counted.
 */
export function forwardingFees(messages: TonOutMessage[], deployed: Cell[]): bigint {
	const cells = messages.map(messageCell);
	const forwarding = messages.reduce(
		(sum, message, index) =>
			sum +
			feeOf(Address.parse(message.to).workChain === -1 ? PRICES.masterchain : PRICES.basechain, [
				cells[index],
			]),
		0n,
	);
	const wrapping = BigInt(messages.length + 1);
	return (
		forwarding +
		feeOf(PRICES.basechain, [...cells, ...deployed], {
			bits: FULL_CELL.bits * wrapping,
			cells: FULL_CELL.cells * wrapping,
		})
	);
}
