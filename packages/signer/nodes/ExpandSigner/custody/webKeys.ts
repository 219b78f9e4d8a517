import type { JsonWebKey } from 'node:crypto';

/** A JWK as a JWKS lists it (RFC 7517): an RSA key of Fireblocks, an Ed25519 (OKP) key of Turnkey. */
export type WebKey = JsonWebKey & { kid?: string; alg?: string; use?: string };

/** Finds the key of a `kid` (from the JWKS, fetched again when it is unknown); undefined when none has it. */
export type KeyLookup = (kid: string) => Promise<WebKey | undefined>;
