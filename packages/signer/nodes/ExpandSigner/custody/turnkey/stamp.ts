import { SigningKeyError } from '../../policy/vocabulary';
import { createECDH, createPrivateKey, type KeyObject, sign } from 'node:crypto';

/** Turnkey's scheme word for a P-256 API key's stamp. */
export const P256_SCHEME_WORD = 'SIGNATURE_SCHEME_TK_API_P256';

/** A Turnkey API key that cannot be used; its message never quotes the private key. */
export class TurnkeyKeyError extends SigningKeyError {}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** An API key pair: the compressed public key (hex, as Turnkey shows it) and the private key, checked to belong together. */
export interface TurnkeyApiKey {
	readonly publicKey: string;
	/** The private key as node:crypto holds it; never serialized (toJSON leaves it out). */
	readonly privateKey: KeyObject;
	toJSON(): { publicKey: string };
}

/** The public key of a private scalar, compressed (hex) and uncompressed; undefined when it is not one (node:crypto's error, which could quote it, is dropped). */
function publicOf(privateHex: string): { derived: string; uncompressed: Buffer } | undefined {
	try {
		const ecdh = createECDH('prime256v1');
		ecdh.setPrivateKey(Buffer.from(privateHex, 'hex'));
		return { derived: ecdh.getPublicKey('hex', 'compressed'), uncompressed: ecdh.getPublicKey() };
	} catch {
		return undefined;
	}
}

/**
 * Imports a P-256 API key from its hex forms: the 32-byte private scalar and the 33-byte compressed
 * public key (66 hex characters). The public key derived from the private one must be the one given,
 * or every stamp would be refused by Turnkey.
 */
export function turnkeyApiKey(publicKeyHex: string, privateKeyHex: string): TurnkeyApiKey {
	const publicKey = publicKeyHex.trim().toLowerCase().replace(/^0x/, '');
	const privateHex = privateKeyHex.trim().toLowerCase().replace(/^0x/, '');
	if (!/^0[23][0-9a-f]{64}$/.test(publicKey))
		throw new TurnkeyKeyError(
			'The API Public Key of the Turnkey credential must be a compressed P-256 public key: 66 hex characters starting with 02 or 03',
		);
	if (!/^[0-9a-f]{64}$/.test(privateHex))
		throw new TurnkeyKeyError(
			'The API Private Key of the Turnkey credential must be a P-256 private key: 64 hex characters',
		);
	const pair = publicOf(privateHex);
	if (!pair)
		throw new TurnkeyKeyError(
			'The API Private Key of the Turnkey credential is not a valid P-256 private key',
		);
	const { derived, uncompressed } = pair;
	if (derived !== publicKey)
		throw new TurnkeyKeyError(
			`The API Private Key of the Turnkey credential does not belong to its API Public Key ${publicKey}`,
		);
	const privateKey = createPrivateKey({
		format: 'jwk',
		key: {
			kty: 'EC',
			crv: 'P-256',
			d: base64url(Buffer.from(privateHex, 'hex')),
			x: base64url(uncompressed.subarray(1, 33)),
			y: base64url(uncompressed.subarray(33, 65)),
		},
	});
	return { publicKey, privateKey, toJSON: () => ({ publicKey }) };
}

/**
 * The `X-Stamp` header of a request: base64url of the JSON `{publicKey, signature, scheme}`, the
 * signature being the hex DER ECDSA-P256-SHA256 signature over the exact body bytes sent.
 */
export function stampOf(key: TurnkeyApiKey, body: string): string {
	const signature = sign('sha256', Buffer.from(body, 'utf8'), {
		key: key.privateKey,
		dsaEncoding: 'der',
	}).toString('hex');
	return base64url(
		Buffer.from(
			JSON.stringify({ publicKey: key.publicKey, signature, scheme: P256_SCHEME_WORD }),
			'utf8',
		),
	);
}
