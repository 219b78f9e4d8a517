import { type Address, beginCell, type Cell } from '@ton/core';

/**
 * The normalized hash of an external message (TEP-467): the message rebuilt with no source, no import fee,
 * no state init and its body in a reference, so every encoding of the same signed body has one hash.
 */
export function normalizedHash(destination: Address, body: Cell): string {
	return beginCell()
		.storeUint(2, 2)
		.storeUint(0, 2)
		.storeAddress(destination)
		.storeCoins(0)
		.storeBit(false)
		.storeBit(true)
		.storeRef(body)
		.endCell()
		.hash()
		.toString('hex');
}
