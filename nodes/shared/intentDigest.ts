import { createHash } from 'crypto';

/** Where an intent carries the form item it was written for (docs/outputs.md): not part of what was asked. */
export const FORM_ITEM_KEY = 'formItem';

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
