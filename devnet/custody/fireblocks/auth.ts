import { type KeyObject, createHash, createPrivateKey, randomUUID, sign, verify } from 'crypto';

/** Fireblocks' error body: `{message, code}`. */
export interface FireblocksError {
	status: number;
	body: { message: string; code: number };
}

const refuse = (code: number, message: string): FireblocksError => ({
	status: 401,
	body: { message, code },
});

/** The API's 401 answers (developers.fireblocks.com/reference/api-error-codes): code and message. */
export const AUTH_ERRORS = {
	invalidSignature: refuse(-1, 'invalid signature'),
	missingApiKey: refuse(-2, 'Missing API Key in the JWT'),
	missingJwt: refuse(-3, 'The entire JWT is missing'),
	wrongUri: refuse(-4, 'Wrong URL in the JWT'),
	invalidFormat: refuse(-5, 'Unauthorized: Invalid token format'),
	wrongUser: refuse(-6, 'Wrong User in the JWT'),
	notAccepted: refuse(-7, 'Unauthorized: Token was not accepted.'),
	expired: refuse(-10, 'The request has expired.'),
	futureIat: refuse(-12, 'The request is with a future issuance timestamp (iat)'),
} as const;

/** Seconds a token's `iat` may lie ahead of the stand-in's clock (clock skew). */
const IAT_SKEW_SECONDS = 5;
/** The longest life of a token: `exp` must be less than `iat` + 30 s (checked as at most 30). */
export const MAX_TOKEN_LIFE_SECONDS = 30;

const base64url = (input: Buffer | string) => Buffer.from(input).toString('base64url');

/**
 * A Fireblocks request token exactly as the API documents it: RS256 JWT with `uri` (path and query),
 * `nonce`, `iat`, `exp` (iat + `lifeSeconds`, default 20), `sub` (the API key) and `bodyHash` (hex SHA-256
 * of the exact body, of '' when there is none). The devnet's tests and CLI sign with it.
 */
export function signFireblocksRequest(options: {
	apiKey: string;
	privateKeyPem: string;
	uri: string;
	body?: string;
	nonce?: string;
	iat?: number;
	lifeSeconds?: number;
	/** Overrides of the claims, for tests that send a wrong one. */
	claims?: Record<string, unknown>;
}): string {
	const iat = options.iat ?? Math.floor(Date.now() / 1000);
	const payload = {
		uri: options.uri,
		nonce: options.nonce ?? randomUUID(),
		iat,
		exp: iat + (options.lifeSeconds ?? 20),
		sub: options.apiKey,
		bodyHash: createHash('sha256')
			.update(options.body ?? '')
			.digest('hex'),
		...options.claims,
	};
	const input = `${base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${base64url(JSON.stringify(payload))}`;
	const signature = sign('sha256', Buffer.from(input), createPrivateKey(options.privateKeyPem));
	return `${input}.${base64url(signature)}`;
}

/** Nonces seen, each kept until its token's `exp` has passed (after that the token is refused as expired anyway). */
export class NonceMemory {
	private readonly seen = new Map<string, number>();

	/** True when `nonce` is new (and remembers it until `exp`), false when it was used. */
	claim(nonce: string, exp: number, now: number): boolean {
		for (const [seen, until] of this.seen) if (until < now) this.seen.delete(seen);
		if (this.seen.has(nonce)) return false;
		this.seen.set(nonce, exp);
		return true;
	}
}

/**
 * Checks a request's `X-API-Key` and `Authorization: Bearer <JWT>` as Fireblocks does: the key is a
 * registered API user, the RS256 signature verifies with its public key, `sub` is that key, `uri` is the
 * exact path and query, `bodyHash` the hex SHA-256 of the exact raw body, `iat`/`exp` a window of at
 * most 30 s that is neither expired nor in the future, and `nonce` never seen before. Undefined when
 * the request passes; Fireblocks' 401 answer when it does not.
 */
export function checkRequestToken(
	request: { headers: Record<string, string | string[] | undefined>; uri: string; body: string },
	users: Map<string, KeyObject>,
	nonces: NonceMemory,
	now = Math.floor(Date.now() / 1000),
): FireblocksError | undefined {
	const header = (name: string) => {
		const value = request.headers[name];
		return Array.isArray(value) ? value[0] : value;
	};
	const apiKey = header('x-api-key');
	const bearer = /^Bearer\s+(\S+)$/i.exec(header('authorization') ?? '')?.[1];
	if (!bearer) return AUTH_ERRORS.missingJwt;
	if (!apiKey) return AUTH_ERRORS.missingApiKey;
	const publicKey = users.get(apiKey);
	if (!publicKey) return AUTH_ERRORS.notAccepted;
	const parts = bearer.split('.');
	if (parts.length !== 3) return AUTH_ERRORS.invalidFormat;
	let head: Record<string, unknown>;
	let claims: Record<string, unknown>;
	try {
		head = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
		claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
	} catch {
		return AUTH_ERRORS.invalidFormat;
	}
	if (head.alg !== 'RS256') return AUTH_ERRORS.invalidFormat;
	const signed = verify(
		'sha256',
		Buffer.from(`${parts[0]}.${parts[1]}`),
		publicKey,
		Buffer.from(parts[2], 'base64url'),
	);
	if (!signed) return AUTH_ERRORS.invalidSignature;
	if (claims.sub === undefined || claims.sub === '') return AUTH_ERRORS.missingApiKey;
	if (claims.sub !== apiKey) return AUTH_ERRORS.wrongUser;
	if (claims.uri !== request.uri) return AUTH_ERRORS.wrongUri;
	const { iat, exp, nonce } = claims;
	if (
		typeof iat !== 'number' ||
		typeof exp !== 'number' ||
		(typeof nonce !== 'string' && typeof nonce !== 'number') ||
		String(nonce) === '' ||
		typeof claims.bodyHash !== 'string'
	)
		return AUTH_ERRORS.invalidFormat;
	if (exp - iat > MAX_TOKEN_LIFE_SECONDS || exp < iat) return AUTH_ERRORS.invalidFormat;
	if (iat > now + IAT_SKEW_SECONDS) return AUTH_ERRORS.futureIat;
	if (exp <= now) return AUTH_ERRORS.expired;
	if (claims.bodyHash !== createHash('sha256').update(request.body).digest('hex'))
		return AUTH_ERRORS.notAccepted;
	if (!nonces.claim(String(nonce), exp, now)) return AUTH_ERRORS.notAccepted;
	return undefined;
}
