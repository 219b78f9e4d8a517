/**
 * The X-Stamp of a Turnkey request: base64url JSON of the compressed public key, the hex DER
 * ECDSA-P256-SHA256 signature over the exact body, and the scheme; checked by the devnet stand-in's
 * checker (as Turnkey documents it) and by node:crypto directly. A key pair that does not belong
 * together is refused when the credential is read, never quoting the private key.
 */
import { createECDH, createPublicKey, ECDH, verify } from 'crypto';

import { checkStamp } from '../../../../devnet/custody/turnkey';
import {
	stampOf,
	turnkeyApiKey,
} from '../../../../packages/signer/nodes/ExpandSigner/custody/turnkey/stamp';

const privateHex = 'aa'.repeat(31) + '01';
const ecdh = createECDH('prime256v1');
ecdh.setPrivateKey(Buffer.from(privateHex, 'hex'));
const publicHex = ecdh.getPublicKey('hex', 'compressed');
const body = JSON.stringify({ organizationId: 'org', activityId: 'a-1' });

test('the stamp verifies over the exact body, and not over any other', () => {
	const stamp = stampOf(turnkeyApiKey(publicHex, privateHex), body);
	expect(checkStamp(stamp, body)).toEqual({ ok: true, publicKey: publicHex });
	expect(checkStamp(stamp, `${body} `).ok).toBe(false);

	const decoded = JSON.parse(Buffer.from(stamp, 'base64url').toString('utf8')) as Record<
		string,
		string
	>;
	expect(Object.keys(decoded)).toEqual(['publicKey', 'signature', 'scheme']);
	expect(decoded.scheme).toBe('SIGNATURE_SCHEME_TK_API_P256');
	const uncompressed = Buffer.from(
		ECDH.convertKey(publicHex, 'prime256v1', 'hex', 'hex', 'uncompressed') as string,
		'hex',
	);
	const key = createPublicKey({
		format: 'jwk',
		key: {
			kty: 'EC',
			crv: 'P-256',
			x: uncompressed.subarray(1, 33).toString('base64url'),
			y: uncompressed.subarray(33).toString('base64url'),
		},
	});
	expect(
		verify(
			'sha256',
			Buffer.from(body),
			{ key, dsaEncoding: 'der' },
			Buffer.from(decoded.signature, 'hex'),
		),
	).toBe(true);
});

test('the API key is refused when its halves do not belong together or are not hex, never quoting the private key', () => {
	const otherPublic = createECDH('prime256v1');
	otherPublic.generateKeys();
	const wrongPair = () => turnkeyApiKey(otherPublic.getPublicKey('hex', 'compressed'), privateHex);
	expect(wrongPair).toThrow(
		`The API Private Key of the Turnkey credential does not belong to its API Public Key ${otherPublic.getPublicKey('hex', 'compressed')}`,
	);
	expect(() => turnkeyApiKey(publicHex, 'zz')).toThrow(
		'The API Private Key of the Turnkey credential must be a P-256 private key: 64 hex characters',
	);
	expect(() => turnkeyApiKey('04abcd', privateHex)).toThrow(
		'The API Public Key of the Turnkey credential must be a compressed P-256 public key: 66 hex characters starting with 02 or 03',
	);
	// The key object never serializes its private half.
	expect(JSON.stringify(turnkeyApiKey(publicHex, privateHex))).toBe(
		JSON.stringify({ publicKey: publicHex }),
	);
});
