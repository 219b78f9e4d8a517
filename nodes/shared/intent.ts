/**
 * The intent: what an Expand write asked, output beside its unsigned transaction and held to it by
 * Expand Signer (docs/outputs.md). The core writes it (nodes/Expand/helpers/intent.ts, formItem.ts),
 * the Signer reads it (policy/askedIntent.ts, formItem.ts) through its door: this file is both sides'
 * contract.
 */
import { createHash } from 'crypto';

/** Where the intent travels: the key beside the transaction (the item's own, when the item is the transaction). */
export const INTENT_KEY = 'intent';

/** Where an intent carries the form item it was written for (docs/outputs.md): not part of what was asked. */
export const FORM_ITEM_KEY = 'formItem';

/**
 * What a write's transaction does, where the Signer can read it from the transaction itself: a
 * transfer of the amount of the token to the recipient, an approval of the recipient (the spender),
 * a transfer from the owner to the recipient by the sender.
 */
export const READABLE_EFFECTS = ['transfer', 'approve', 'transferFrom'] as const;
export type ReadableEffect = (typeof READABLE_EFFECTS)[number];

/** An intent's effect: a readable one, or `call`, one the Signer cannot read (a swap, a deposit, a bridge). */
export const INTENT_EFFECTS = [...READABLE_EFFECTS, 'call'] as const;
export type IntentEffect = (typeof INTENT_EFFECTS)[number];

/** The chain's native asset, as an intent names it. */
export const NATIVE_TOKEN = 'native';

/** Placeholder the aggregators use for the native asset (docs/reference/expand-api.md §1). */
export const NATIVE_PLACEHOLDER = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';

/**
 * Whether an intent's token is the chain's native asset: `native` (the core writes it for the
 * chain's native symbol too), or the aggregators' placeholder in any letter case.
 */
export const isNativeToken = (token: string | undefined): boolean =>
	token !== undefined && (token === NATIVE_TOKEN || token.toLowerCase() === NATIVE_PLACEHOLDER);

/**
 * The intent's fields as they travel. Addresses as the form had them; a token is its contract (mint)
 * address or `native`; amounts are whole numbers in the smallest unit, as sent. A swap names its pair
 * (`tokenIn`, `tokenOut`) and `amountIn` instead of `token` and `amount`. An amount typed in whole
 * units adds `amountTyped` (as typed) and the `decimals` it was converted with (amounts.ts
 * toSmallestUnit, which the Signer uses to check it).
 */
export type Intent = {
	operation: string;
	effect: IntentEffect;
	/** Null for an operation whose chain its protocol ID sets, which the API decides. */
	chainId: string | null;
	sender: string | null;
	recipient: string | null;
	owner?: string | null;
	token?: string | null;
	amount?: string | null;
	tokenIn?: string | null;
	tokenOut?: string | null;
	amountIn?: string | null;
	amountTyped?: string;
	decimals?: number;
};

/** JSON with every object's keys in order, so one intent always gives the same text. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const entries = Object.entries(value as Record<string, unknown>)
			.filter(([, entry]) => entry !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonical(entry)}`).join(',')}}`;
	}
	return JSON.stringify(value ?? null);
}

/**
 * The digest of what an intent asks: SHA-256 (hex) of its fields but `formItem`, as canonical JSON
 * (keys sorted at every level, no spaces). The Expand node writes it into the intent's form item and
 * the Signer computes it again, so a form item's identity cannot be moved onto an intent that asks
 * something else.
 */
export function intentDigest(intent: Record<string, unknown>): string {
	const asked = Object.fromEntries(Object.entries(intent).filter(([key]) => key !== FORM_ITEM_KEY));
	return createHash('sha256').update(canonical(asked)).digest('hex');
}
