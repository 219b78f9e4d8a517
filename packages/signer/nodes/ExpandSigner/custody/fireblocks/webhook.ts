import { createPublicKey, verify } from 'node:crypto';

import type { KeyLookup } from '../webKeys';

/**
 * Fireblocks Webhooks v2: every delivery carries `Fireblocks-Webhook-Signature`, a compact JWS with a
 * detached payload (`<protected header>..<signature>`, RFC 7515 appendix F). The protected header
 * names `alg` (RS512: RSASSA-PKCS1-v1_5 with SHA-512) and `kid`, the key of the workspace's JWKS that
 * signed it. The signing input is `<protected header>.<base64url(raw body)>`, or, when the header
 * says `"b64": false` (RFC 7797, listed in `crit`), `<protected header>.<raw body>`.
 */
export const FIREBLOCKS_SIGNATURE_HEADER = 'fireblocks-webhook-signature';

/** The JWKS Fireblocks publishes per environment (the API host's workspace region). */
export const FIREBLOCKS_JWKS_URLS = {
	production: 'https://keys.fireblocks.io/.well-known/jwks.json',
	eu: 'https://eu-keys.fireblocks.io/.well-known/jwks.json',
	eu2: 'https://eu2-keys.fireblocks.io/.well-known/jwks.json',
	sandbox: 'https://sandbox-keys.fireblocks.io/.well-known/jwks.json',
} as const;

/** The JWKS of a Fireblocks API base URL: the published one of its environment, else `<origin>/.well-known/jwks.json`. */
export function fireblocksJwksUrlOf(apiBaseUrl: string): string {
	const url = new URL(apiBaseUrl);
	const byHost: Record<string, string> = {
		'api.fireblocks.io': FIREBLOCKS_JWKS_URLS.production,
		'eu-api.fireblocks.io': FIREBLOCKS_JWKS_URLS.eu,
		'eu2-api.fireblocks.io': FIREBLOCKS_JWKS_URLS.eu2,
		'sandbox-api.fireblocks.io': FIREBLOCKS_JWKS_URLS.sandbox,
	};
	return byHost[url.host] ?? `${url.origin}/.well-known/jwks.json`;
}

/** The one algorithm Fireblocks documents for webhook signatures; any other is refused (no algorithm confusion). */
const ALGORITHM = 'RS512';

/** The verdict on a delivery: its key's ID, or why it is refused (never quoting the body). */
export type Verdict = { ok: true; kid: string } | { ok: false; reason: string };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Checks a delivery's detached JWS over its raw body. */
export async function verifyFireblocksWebhook(
	rawBody: Buffer,
	signature: string | undefined,
	keyOf: KeyLookup,
): Promise<Verdict> {
	if (!signature)
		return { ok: false, reason: 'the Fireblocks-Webhook-Signature header is missing' };
	const parts = signature.trim().split('.');
	if (
		parts.length !== 3 ||
		parts[1] !== '' ||
		!BASE64URL.test(parts[0]) ||
		!BASE64URL.test(parts[2])
	)
		return {
			ok: false,
			reason: 'the Fireblocks-Webhook-Signature header is not a detached JWS (header..signature)',
		};
	let header: { alg?: unknown; kid?: unknown; b64?: unknown; crit?: unknown };
	try {
		header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as typeof header;
	} catch {
		return { ok: false, reason: 'the JWS protected header is not JSON' };
	}
	if (header === null || typeof header !== 'object')
		return { ok: false, reason: 'the JWS protected header is not an object' };
	if (header.alg !== ALGORITHM)
		return { ok: false, reason: `the JWS algorithm is "${String(header.alg)}", not ${ALGORITHM}` };
	if (typeof header.kid !== 'string' || !header.kid)
		return { ok: false, reason: 'the JWS protected header names no kid' };
	const crit = Array.isArray(header.crit) ? (header.crit as unknown[]) : [];
	if (crit.some((name) => name !== 'b64'))
		return {
			ok: false,
			reason: 'the JWS protected header has a critical parameter not understood',
		};
	if (header.b64 !== undefined && header.b64 !== true && header.b64 !== false)
		return { ok: false, reason: 'the JWS b64 parameter is not a boolean' };
	const kid = header.kid;
	const key = await keyOf(kid);
	if (!key) return { ok: false, reason: `no key "${kid}" in the JWKS` };
	if (key.kty !== 'RSA' || (key.alg !== undefined && key.alg !== ALGORITHM))
		return { ok: false, reason: `the key "${kid}" of the JWKS is not an ${ALGORITHM} RSA key` };
	if (key.use !== undefined && key.use !== 'sig')
		return { ok: false, reason: `the key "${kid}" of the JWKS is not a signing key` };
	const payload =
		header.b64 === false ? rawBody : Buffer.from(rawBody.toString('base64url'), 'ascii');
	const input = Buffer.concat([Buffer.from(`${parts[0]}.`, 'ascii'), payload]);
	let valid = false;
	try {
		const publicKey = createPublicKey({ key: { kty: 'RSA', n: key.n, e: key.e }, format: 'jwk' });
		valid = verify('sha512', input, publicKey, Buffer.from(parts[2], 'base64url'));
	} catch {
		return { ok: false, reason: `the key "${kid}" of the JWKS cannot be read as an RSA key` };
	}
	return valid
		? { ok: true, kid }
		: { ok: false, reason: `the signature does not verify with key "${kid}"` };
}
