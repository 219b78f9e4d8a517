import { Address } from '@ton/core';

/**
 * Whether an address's own form asks for bounce: a user-friendly address says it (EQ… bounceable,
 * UQ… not); a raw one says nothing and bounces, so a payment to a wallet not deployed comes back.
 */
export function bouncesByForm(text: string): boolean {
	const value = text.trim();
	return Address.isFriendly(value) ? Address.parseFriendly(value).isBounceable : true;
}
