/**
 * The Bearer token of a Fireblocks request (custody/fireblocks/jwt.ts), checked by the devnet
 * stand-in's own verifier (devnet/custody/fireblocks/auth.ts, as Fireblocks documents it): the claims,
 * the body hash of the exact bytes sent, a life under 30 s, and a nonce never used twice.
 */
import { createHash, createPublicKey, generateKeyPairSync } from 'crypto';

import { AUTH_ERRORS, checkRequestToken, NonceMemory } from '../../../../devnet/custody/fireblocks';
import {
	bodyHash,
	readSecretKey,
	requestToken,
} from '../../../../packages/signer/nodes/ExpandSigner/custody/fireblocks/jwt';

const API_KEY = 'unit-fireblocks-0000-4000-8000-000000000001';
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const key = readSecretKey(pem);
const users = new Map([[API_KEY, createPublicKey(privateKey)]]);
const body = JSON.stringify({ operation: 'TRANSFER', amount: '12.5', note: 'é' });
const uri = '/v1/transactions?limit=1';

const claimsOf = (token: string) =>
	JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<
		string,
		unknown
	>;
const headers = (token: string) => ({ 'x-api-key': API_KEY, authorization: `Bearer ${token}` });

test('the claims are the uri, a nonce, iat and exp under 30 s apart, the API key, and the exact body hash', () => {
	const now = Date.UTC(2026, 0, 1, 12, 0, 0, 400);
	const token = requestToken(key, API_KEY, uri, body, now);
	const head = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8'));
	expect(head).toEqual({ alg: 'RS256', typ: 'JWT' });
	const claims = claimsOf(token);
	expect(claims).toEqual({
		uri,
		nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
		iat: Math.floor(now / 1000),
		exp: expect.any(Number),
		sub: API_KEY,
		bodyHash: createHash('sha256').update(Buffer.from(body, 'utf8')).digest('hex'),
	});
	expect(Number(claims.exp) - Number(claims.iat)).toBeGreaterThan(0);
	expect(Number(claims.exp) - Number(claims.iat)).toBeLessThan(30);
	// A GET's body is empty: the hash of no bytes.
	expect(bodyHash('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
});

test("the stand-in's verifier accepts the token for its exact bytes and path only", () => {
	const token = requestToken(key, API_KEY, uri, body);
	expect(checkRequestToken({ headers: headers(token), uri, body }, users, new NonceMemory())).toBe(
		undefined,
	);
	// One byte more (a space a re-serialization adds), or the body of another request.
	const other = requestToken(key, API_KEY, uri, body);
	expect(
		checkRequestToken({ headers: headers(other), uri, body: `${body} ` }, users, new NonceMemory()),
	).toBe(AUTH_ERRORS.notAccepted);
	expect(
		checkRequestToken(
			{ headers: headers(other), uri, body: body.replace('12.5', '125') },
			users,
			new NonceMemory(),
		),
	).toBe(AUTH_ERRORS.notAccepted);
	expect(
		checkRequestToken(
			{ headers: headers(other), uri: '/v1/transactions', body },
			users,
			new NonceMemory(),
		),
	).toBe(AUTH_ERRORS.wrongUri);
});

test('each token has its own nonce, and a token sent twice is refused the second time', () => {
	const nonces = new NonceMemory();
	const tokens = Array.from({ length: 50 }, () => requestToken(key, API_KEY, uri, body));
	expect(new Set(tokens.map((token) => claimsOf(token).nonce)).size).toBe(50);
	for (const token of tokens)
		expect(checkRequestToken({ headers: headers(token), uri, body }, users, nonces)).toBe(
			undefined,
		);
	expect(checkRequestToken({ headers: headers(tokens[0]), uri, body }, users, nonces)).toBe(
		AUTH_ERRORS.notAccepted,
	);
});

test('a token is refused once its exp has passed, so it lives under 30 s', () => {
	const now = Date.now();
	const token = requestToken(key, API_KEY, uri, body, now);
	const { exp } = claimsOf(token);
	expect(
		checkRequestToken(
			{ headers: headers(token), uri, body },
			users,
			new NonceMemory(),
			Number(exp),
		),
	).toBe(AUTH_ERRORS.expired);
	expect(
		checkRequestToken(
			{ headers: headers(token), uri, body },
			users,
			new NonceMemory(),
			Math.floor(now / 1000) + 29,
		),
	).toBe(AUTH_ERRORS.expired);
});

test('the secret key field: not quoted in its errors; an RSA key only', () => {
	expect(() => readSecretKey('')).toThrow(/"API Secret Key" is empty/);
	const garbage = '-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWJ5dGVz\n-----END PRIVATE KEY-----';
	let message = '';
	try {
		readSecretKey(garbage);
	} catch (error) {
		message = (error as Error).message;
	}
	expect(message).toMatch(/is not a private key in PEM/);
	expect(message).not.toContain('c2VjcmV0LWJ5dGVz');
	const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
		.privateKey.export({ type: 'pkcs8', format: 'pem' })
		.toString();
	expect(() => readSecretKey(ec)).toThrow(
		/holds a ec key; Fireblocks signs requests with an RSA key/,
	);
	// A PEM pasted on one line with its breaks written as \n.
	expect(readSecretKey(pem.replace(/\n/g, '\\n')).asymmetricKeyType).toBe('rsa');
});
