import { hexlify } from 'ethers';
import { decodeBase58Address, fromHex, isAddress } from 'tronweb/utils';

const HEX_ADDRESS = /^41[0-9a-fA-F]{40}$/;

/** Whether the text is a Tron address: base58 `T…` with a valid checksum, or hex `41…` (21 bytes). */
export function isTronAddress(text: string): boolean {
	return base58Address(text) !== undefined;
}

/** A Tron address as wallets show it, base58 `T…`, from either form; undefined when it is neither. */
export function base58Address(text: string): string | undefined {
	if (HEX_ADDRESS.test(text)) return fromHex(text.toLowerCase());
	return text.startsWith('T') && isAddress(text) ? text : undefined;
}

/** A Tron address as transactions carry it, hex `41…` in lower case, from either form; undefined when it is neither. */
export function hexAddress(text: string): string | undefined {
	if (HEX_ADDRESS.test(text)) return text.toLowerCase();
	if (!text.startsWith('T') || !isAddress(text)) return undefined;
	// Not tronweb's toHex, which passes on as it is any text that is not base58.
	const bytes = decodeBase58Address(text);
	return bytes ? hexlify(Uint8Array.from(bytes)).slice(2) : undefined;
}
