import { mnemonicWordList } from '@ton/crypto';
import { computeHmac, pbkdf2, toUtf8Bytes } from 'ethers';

/**
 * The Ed25519 seed of a TON mnemonic (24 words of its own list, as Tonkeeper and Tonhub make them), by
 * tonlib's derivation as @ton/crypto's mnemonicToPrivateKey computes it: entropy = HMAC-SHA512(the
 * words, no password), seed = PBKDF2-SHA512(entropy, "TON default seed", 100,000 rounds). The same steps
 * through ethers' synchronous primitives, as the keyring is loaded synchronously; the tests hold both to
 * the same keys. Undefined for words that are not a TON mnemonic (not 24 listed words, or an entropy
 * that is not a basic seed, the check @ton/crypto's mnemonicValidate makes).
 */
export function tonMnemonicSeed(words: string[]): Uint8Array | undefined {
	if (words.length !== 24 || !words.every((word) => mnemonicWordList.includes(word)))
		return undefined;
	const entropy = computeHmac('sha512', toUtf8Bytes(words.join(' ')), new Uint8Array());
	const basic = pbkdf2(entropy, toUtf8Bytes('TON seed version'), 390, 64, 'sha512');
	if (!basic.startsWith('0x00')) return undefined;
	const seed = pbkdf2(entropy, toUtf8Bytes('TON default seed'), 100_000, 64, 'sha512');
	return Buffer.from(seed.slice(2, 66), 'hex');
}
