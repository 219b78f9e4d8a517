import { Address, beginCell, type Cell, type Slice } from '@ton/core';

import { readComment } from './comment';

/** TEP-74's op codes of a jetton wallet's owner messages. */
export const JETTON_TRANSFER = 0x0f8a7ea5;
export const JETTON_BURN = 0x595f07bc;

export interface JettonTransfer {
	kind: 'transfer';
	queryId: bigint;
	amount: bigint;
	/** Raw: the owner whose jetton wallet receives the jettons. */
	destination: string;
	/** Raw; undefined for addr_none. Where the jetton wallet returns the TON left over. */
	responseDestination?: string;
	customPayload?: Cell;
	forwardTonAmount: bigint;
	/** What the recipient is notified with (undefined when empty), and its text when it is a comment. */
	forwardPayload?: Cell;
	comment?: string;
}

export interface JettonBurn {
	kind: 'burn';
	queryId: bigint;
	amount: bigint;
	responseDestination?: string;
	customPayload?: Cell;
}

/** A jetton transfer's body, as TEP-74 lays it out; the comment travels as the forward payload, in a reference. */
export function jettonTransferBody(p: {
	queryId: bigint;
	amount: bigint;
	destination: string;
	responseDestination: string;
	forwardTonAmount: bigint;
	comment?: string;
}): Cell {
	const builder = beginCell()
		.storeUint(JETTON_TRANSFER, 32)
		.storeUint(p.queryId, 64)
		.storeCoins(p.amount)
		.storeAddress(Address.parse(p.destination))
		.storeAddress(Address.parse(p.responseDestination))
		.storeMaybeRef(null)
		.storeCoins(p.forwardTonAmount);
	if (p.comment === undefined) return builder.storeBit(false).endCell();
	return builder
		.storeBit(true)
		.storeRef(beginCell().storeUint(0, 32).storeStringTail(p.comment).endCell())
		.endCell();
}

/** addr_std's tag (10) and no anycast (0): @ton/core would read an anycast address with its prefix rewritten in. */
const ADDR_STD_NO_ANYCAST = 0b100;

/** An address field that must be addr_std without anycast or addr_none (null); anything else throws. */
function loadOwner(slice: Slice): Address | null {
	if (slice.preloadUint(2) === 0b10 && slice.preloadUint(3) !== ADDR_STD_NO_ANYCAST)
		throw new Error('an anycast address');
	return slice.loadMaybeAddress();
}

/** Either Cell ^Cell, read to the end of the slice: inline bits of the body, or its only reference. */
function loadEither(slice: Slice): Cell | undefined {
	if (slice.loadBit()) {
		const ref = slice.loadRef();
		if (slice.remainingBits || slice.remainingRefs) throw new Error('left over after the payload');
		return ref;
	}
	if (!slice.remainingBits && !slice.remainingRefs) return undefined;
	return beginCell().storeSlice(slice).endCell();
}

/**
 * A jetton wallet's transfer or burn body, read whole: every field as TEP-74 lays it out and nothing
 * after it. Undefined for any other body, or one with a field that cannot be read.
 */
export function decodeJettonBody(body: Cell): JettonTransfer | JettonBurn | undefined {
	try {
		const slice = body.beginParse();
		const op = slice.loadUint(32);
		const queryId = slice.loadUintBig(64);
		const amount = slice.loadCoins();
		if (op === JETTON_TRANSFER) {
			const destination = loadOwner(slice);
			if (!destination) return undefined;
			const responseDestination = loadOwner(slice);
			const customPayload = slice.loadMaybeRef() ?? undefined;
			const forwardTonAmount = slice.loadCoins();
			const forwardPayload = loadEither(slice);
			const comment = forwardPayload && readComment(forwardPayload);
			return {
				kind: 'transfer',
				queryId,
				amount,
				destination: destination.toRawString(),
				...(responseDestination ? { responseDestination: responseDestination.toRawString() } : {}),
				...(customPayload ? { customPayload } : {}),
				forwardTonAmount,
				...(forwardPayload ? { forwardPayload } : {}),
				...(comment !== undefined ? { comment } : {}),
			};
		}
		if (op === JETTON_BURN) {
			const responseDestination = loadOwner(slice);
			const customPayload = slice.loadMaybeRef() ?? undefined;
			if (slice.remainingBits || slice.remainingRefs) return undefined;
			return {
				kind: 'burn',
				queryId,
				amount,
				...(responseDestination ? { responseDestination: responseDestination.toRawString() } : {}),
				...(customPayload ? { customPayload } : {}),
			};
		}
		return undefined;
	} catch {
		return undefined;
	}
}
