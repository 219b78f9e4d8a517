import { Address } from '@ton/core';

/**
 * A TON address in any form (raw `0:<hex>`, user-friendly bounceable or not, base64 or base64url) as the
 * key it is compared by: raw, with the hash in lower case. Undefined for text that is no TON address.
 * The user-friendly forms carry a checksum, which Address.parse verifies.
 */
export function tonAddressKey(text: string): string | undefined {
	if (!Address.isRaw(text) && !Address.isFriendly(text)) return undefined;
	try {
		return Address.parse(text).toRawString();
	} catch {
		return undefined;
	}
}

export const isTonAddress = (text: string) => tonAddressKey(text) !== undefined;

/** The bounce flag a user-friendly form asks (EQ… bounceable, UQ… not); a raw address asks bounce. */
export function bounceOf(text: string): boolean {
	return Address.isFriendly(text) ? Address.parseFriendly(text).isBounceable : true;
}
