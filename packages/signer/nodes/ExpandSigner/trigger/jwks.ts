import type { IWebhookFunctions } from 'n8n-workflow';

import type { WebKey } from '../custody/webKeys';

/** How long a fetched JWKS is used before it is fetched again (the custodians answer max-age=3600). */
const FRESH_MS = 60 * 60 * 1000;
/** An unknown kid fetches the JWKS again, at most this often per URL (so forged kids cannot flood it). */
const REFETCH_MS = 1000;
/** JWKS URLs kept in memory; the oldest is dropped beyond this. */
const MAX_URLS = 32;
/** Keys kept per JWKS. */
const MAX_KEYS = 64;

interface Cached {
	keys: Map<string, WebKey>;
	fetchedAt: number;
}

/** The process's JWKS, by URL: shared by every workflow of this n8n process, bounded. */
const cache = new Map<string, Cached>();

type Http = Pick<IWebhookFunctions['helpers'], 'httpRequest'>;

/** The JWKS's keys by kid, or why it could not be fetched or read (never its body). */
async function fetchKeys(helpers: Http, url: string): Promise<Map<string, WebKey> | string> {
	let answer: unknown;
	try {
		answer = await helpers.httpRequest({ method: 'GET', url, json: true, timeout: 10000 });
	} catch (error) {
		const status =
			(error as { httpCode?: string; status?: number }).httpCode ??
			(error as { status?: number }).status;
		const code =
			(error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
		return `the JWKS at ${url} could not be fetched (${status ? `HTTP ${status}` : (code ?? 'no answer')})`;
	}
	const body = typeof answer === 'string' ? safeJson(answer) : answer;
	const list = (body as { keys?: unknown } | null)?.keys;
	if (!Array.isArray(list)) return `the JWKS at ${url} has no "keys" list`;
	const keys = new Map<string, WebKey>();
	for (const key of list.slice(0, MAX_KEYS) as WebKey[])
		if (key && typeof key === 'object' && typeof key.kid === 'string') keys.set(key.kid, key);
	return keys;
}

function safeJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/**
 * The key `kid` of the JWKS at `url`, from memory while it is fresh; a kid not in it fetches the JWKS
 * again (a rotation), at most once per REFETCH_MS. Undefined when the JWKS has no such key; a JWKS
 * that cannot be fetched or read is `{ failure }` saying why.
 */
export async function jwksKey(
	helpers: Http,
	url: string,
	kid: string,
	now = Date.now(),
): Promise<WebKey | undefined | { failure: string }> {
	const cached = cache.get(url);
	const fresh = cached && now - cached.fetchedAt < FRESH_MS;
	if (fresh && cached.keys.has(kid)) return cached.keys.get(kid);
	if (cached && fresh && now - cached.fetchedAt < REFETCH_MS) return undefined;
	const keys = await fetchKeys(helpers, url);
	if (typeof keys === 'string') return { failure: keys };
	cache.delete(url);
	cache.set(url, { keys, fetchedAt: now });
	while (cache.size > MAX_URLS) cache.delete(cache.keys().next().value as string);
	return keys.get(kid);
}

/** Forgets every JWKS in memory (for tests of rotation and of a JWKS server that went away). */
export function forgetJwks(): void {
	cache.clear();
}
