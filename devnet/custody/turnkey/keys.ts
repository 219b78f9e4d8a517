/**
 * The Turnkey stand-in's keys and its request authentication, as Turnkey documents it: every request
 * carries `X-Stamp` = base64url of the JSON `{publicKey, signature, scheme}`, where `signature` is the
 * hex DER ECDSA P-256 signature over SHA-256 of the exact POST body and `publicKey` the API key's
 * compressed public key in hex (scheme `SIGNATURE_SCHEME_TK_API_P256`).
 */
import {
	ECDH,
	type KeyObject,
	createECDH,
	createHash,
	createPrivateKey,
	createPublicKey,
	sign,
	verify,
} from 'crypto';

export const STAMP_HEADER = 'X-Stamp';
export const STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';

/** 32 bytes derived from a label: the stand-in's keys are the same on every start. */
export function devnetSeed(label: string): Buffer {
	return createHash('sha256').update(`expand devnet turnkey: ${label}`).digest();
}

/** A P-256 API key pair as Turnkey shows it: private key hex (32 bytes), public key compressed hex (33 bytes). */
export interface P256ApiKey {
	publicKey: string;
	privateKey: string;
}

export function p256ApiKey(privateKeyHex: string): P256ApiKey {
	const ecdh = createECDH('prime256v1');
	ecdh.setPrivateKey(Buffer.from(privateKeyHex, 'hex'));
	return { publicKey: ecdh.getPublicKey('hex', 'compressed'), privateKey: privateKeyHex };
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

function p256PrivateKeyObject(key: P256ApiKey): KeyObject {
	const uncompressed = Buffer.from(
		ECDH.convertKey(key.publicKey, 'prime256v1', 'hex', 'hex', 'uncompressed') as string,
		'hex',
	);
	return createPrivateKey({
		key: {
			kty: 'EC',
			crv: 'P-256',
			d: base64url(Buffer.from(key.privateKey, 'hex')),
			x: base64url(uncompressed.subarray(1, 33)),
			y: base64url(uncompressed.subarray(33, 65)),
		},
		format: 'jwk',
	});
}

/** The public key object of a compressed P-256 public key in hex; throws when it is not one. */
export function p256PublicKeyObject(compressedHex: string): KeyObject {
	if (!/^0[23][0-9a-fA-F]{64}$/.test(compressedHex)) throw new Error('not a compressed P-256 key');
	const uncompressed = Buffer.from(
		ECDH.convertKey(compressedHex, 'prime256v1', 'hex', 'hex', 'uncompressed') as string,
		'hex',
	);
	return createPublicKey({
		key: {
			kty: 'EC',
			crv: 'P-256',
			x: base64url(uncompressed.subarray(1, 33)),
			y: base64url(uncompressed.subarray(33, 65)),
		},
		format: 'jwk',
	});
}

/** The `X-Stamp` value for `body` signed with `key`, exactly as @turnkey/api-key-stamper makes it. */
export function stampBody(body: string, key: P256ApiKey): string {
	const signature = sign('sha256', Buffer.from(body), p256PrivateKeyObject(key)).toString('hex');
	return base64url(
		Buffer.from(JSON.stringify({ publicKey: key.publicKey, signature, scheme: STAMP_SCHEME })),
	);
}

/** Why a stamp is refused, in Turnkey's own words, or the stamp's public key when it verifies. */
export type StampCheck = { ok: true; publicKey: string } | { ok: false; message: string };

/** Checks a stamp against the exact body: its shape, its scheme, and the P-256 signature (DER, SHA-256). */
export function checkStamp(stamp: string | undefined, body: string): StampCheck {
	if (!stamp)
		return {
			ok: false,
			message:
				'cannot authenticate public API activity request without a stamp (X-Stamp/X-Stamp-Webauthn header)',
		};
	let parsed: { publicKey?: unknown; signature?: unknown; scheme?: unknown };
	try {
		parsed = JSON.parse(Buffer.from(stamp, 'base64url').toString('utf8')) as typeof parsed;
	} catch {
		return { ok: false, message: 'could not extract api key stamp' };
	}
	if (
		typeof parsed !== 'object' ||
		parsed === null ||
		typeof parsed.publicKey !== 'string' ||
		typeof parsed.signature !== 'string' ||
		typeof parsed.scheme !== 'string'
	)
		return { ok: false, message: 'malformed activity stamp' };
	if (parsed.scheme !== STAMP_SCHEME) return { ok: false, message: 'malformed activity stamp' };
	let publicKey: KeyObject;
	try {
		publicKey = p256PublicKeyObject(parsed.publicKey);
	} catch {
		return { ok: false, message: 'malformed activity stamp' };
	}
	let verified = false;
	try {
		verified =
			/^[0-9a-fA-F]+$/.test(parsed.signature) &&
			verify('sha256', Buffer.from(body), publicKey, Buffer.from(parsed.signature, 'hex'));
	} catch {
		verified = false;
	}
	return verified
		? { ok: true, publicKey: parsed.publicKey.toLowerCase() }
		: { ok: false, message: 'could not verify api key signature' };
}
