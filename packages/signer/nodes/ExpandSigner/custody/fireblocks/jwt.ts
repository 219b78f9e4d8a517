import { createHash, createPrivateKey, type KeyObject, randomBytes, sign } from 'node:crypto';

import { CredentialFieldError } from '../../policy/vocabulary';

/** Seconds a request's token is valid: Fireblocks refuses one whose `exp` is 30 s or more after its `iat`. */
export const TOKEN_SECONDS = 25;

/** Hex SHA-256 of the exact bytes sent as the body ('' for a GET): the token's `bodyHash`. */
export function bodyHash(body: string): string {
	return createHash('sha256').update(body, 'utf8').digest('hex');
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/**
 * The API Secret Key field: an RSA private key in PEM. Its errors name the field, never quote it.
 */
export function readSecretKey(pem: unknown): KeyObject {
	const text = String(pem ?? '')
		.trim()
		// A PEM pasted into a one-line field may arrive with its line breaks written as \n.
		.replace(/\\n/g, '\n');
	if (!text)
		throw new CredentialFieldError(
			'The credential field "API Secret Key" is empty: paste the RSA private key (PEM) of the Fireblocks API user',
		);
	let key: KeyObject | undefined;
	try {
		key = createPrivateKey({ key: text, format: 'pem' });
	} catch {
		key = undefined;
	}
	if (!key)
		throw new CredentialFieldError(
			'The credential field "API Secret Key" is not a private key in PEM ("-----BEGIN PRIVATE KEY-----" …): paste the fireblocks_secret.key of the API user',
		);
	if (key.asymmetricKeyType !== 'rsa')
		throw new CredentialFieldError(
			`The credential field "API Secret Key" holds a ${key.asymmetricKeyType ?? 'non-RSA'} key; Fireblocks signs requests with an RSA key (RS256)`,
		);
	return key;
}

/** The claims of one request's token, as Fireblocks documents them. */
export interface RequestClaims {
	/** Path and query, exactly as sent: `/v1/transactions?limit=1`. */
	uri: string;
	nonce: string;
	iat: number;
	exp: number;
	/** The API key. */
	sub: string;
	bodyHash: string;
}

/**
 * The Bearer token of one request: a JWT signed RS256 with the API user's private key, over the path
 * and query, a fresh random nonce, its time (iat, exp TOKEN_SECONDS later), the API key, and the hex
 * SHA-256 of the exact body. A token is good for one request only (the nonce).
 */
export function requestToken(
	key: KeyObject,
	apiKey: string,
	uri: string,
	body: string,
	now = Date.now(),
): string {
	const iat = Math.floor(now / 1000);
	const claims: RequestClaims = {
		uri,
		nonce: randomBytes(16).toString('hex'),
		iat,
		exp: iat + TOKEN_SECONDS,
		sub: apiKey,
		bodyHash: bodyHash(body),
	};
	const signingInput = `${base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}`;
	const signature = sign('sha256', Buffer.from(signingInput), key);
	return `${signingInput}.${base64url(signature)}`;
}
