import { createPublicKey, verify } from 'node:crypto';

import type { KeyLookup, WebKey } from '../webKeys';

/**
 * Turnkey webhooks: Ed25519 over `v1.ed25519.<signing key ID>.<timestamp ms>.<event ID>.<raw body>`,
 * the values as the delivery's headers give them: `X-Turnkey-Signature-Key-Id`, `X-Turnkey-Timestamp`
 * (Unix milliseconds), `X-Turnkey-Event-Id` (stable across retries of one event), with
 * `X-Turnkey-Signature-Version: v1`, `X-Turnkey-Signature-Algorithm: ed25519` and the signature in
 * `X-Turnkey-Signature` (hex, 64 bytes). The key is the JWKS entry (OKP, Ed25519) of that `kid`.
 */
export const TURNKEY_HEADERS = {
	signature: 'x-turnkey-signature',
	keyId: 'x-turnkey-signature-key-id',
	algorithm: 'x-turnkey-signature-algorithm',
	version: 'x-turnkey-signature-version',
	timestamp: 'x-turnkey-timestamp',
	eventId: 'x-turnkey-event-id',
	eventType: 'x-turnkey-event-type',
} as const;

/** Where Turnkey publishes its webhook keys, on its API host. */
export const TURNKEY_DISCOVERY_ROUTE = ['', 'public', 'v1', 'discovery', 'webhooks', 'jwks'].join(
	'/',
);

/** The JWKS of a Turnkey API base URL (`https://api.turnkey.com` publishes Turnkey's). */
export function turnkeyJwksUrlOf(apiBaseUrl: string): string {
	return `${apiBaseUrl.replace(/\/+$/, '')}${TURNKEY_DISCOVERY_ROUTE}`;
}

export type TurnkeyVerdict =
	{ ok: true; kid: string; timestampMs: number; eventId: string } | { ok: false; reason: string };

type Headers = Record<string, string | string[] | undefined>;

const single = (headers: Headers, name: string): string | undefined => {
	const value = headers[name];
	return Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
};

/** Checks a delivery's Ed25519 signature over its raw body and headers. */
export async function verifyTurnkeyWebhook(
	rawBody: Buffer,
	headers: Headers,
	keyOf: KeyLookup,
): Promise<TurnkeyVerdict> {
	const read: Partial<Record<keyof typeof TURNKEY_HEADERS, string>> = {};
	for (const field of [
		'signature',
		'keyId',
		'algorithm',
		'version',
		'timestamp',
		'eventId',
	] as const) {
		const value = single(headers, TURNKEY_HEADERS[field]);
		if (!value) return { ok: false, reason: `the header ${TURNKEY_HEADERS[field]} is missing` };
		read[field] = value;
	}
	const { signature, keyId, algorithm, version, timestamp, eventId } = read as Record<
		string,
		string
	>;
	if (version !== 'v1')
		return { ok: false, reason: `the signature version is "${version}", not v1` };
	if (algorithm !== 'ed25519')
		return { ok: false, reason: `the signature algorithm is "${algorithm}", not ed25519` };
	if (!/^\d{1,16}$/.test(timestamp))
		return { ok: false, reason: 'the X-Turnkey-Timestamp header is not a time in milliseconds' };
	if (!/^[0-9a-fA-F]{128}$/.test(signature))
		return { ok: false, reason: 'the X-Turnkey-Signature header is not 64 bytes of hex' };
	if (/[.\s]/.test(keyId) || /\s/.test(eventId))
		return {
			ok: false,
			reason: 'the key ID or event ID header has a character the signed message cannot hold',
		};
	const key: WebKey | undefined = await keyOf(keyId);
	if (!key) return { ok: false, reason: `no key "${keyId}" in the JWKS` };
	if (key.kty !== 'OKP' || key.crv !== 'Ed25519')
		return { ok: false, reason: `the key "${keyId}" of the JWKS is not an Ed25519 key` };
	const message = Buffer.concat([
		Buffer.from(`v1.ed25519.${keyId}.${timestamp}.${eventId}.`, 'utf8'),
		rawBody,
	]);
	let valid = false;
	try {
		const publicKey = createPublicKey({
			key: { kty: 'OKP', crv: 'Ed25519', x: key.x },
			format: 'jwk',
		});
		valid = verify(null, message, publicKey, Buffer.from(signature, 'hex'));
	} catch {
		return { ok: false, reason: `the key "${keyId}" of the JWKS cannot be read as an Ed25519 key` };
	}
	return valid
		? { ok: true, kid: keyId, timestampMs: Number(timestamp), eventId }
		: { ok: false, reason: `the signature does not verify with key "${keyId}"` };
}
