import {
	TypedDataEncoder,
	Wallet,
	concat,
	dataSlice,
	getAddress,
	getBytes,
	hashMessage,
	recoverAddress,
} from 'ethers';

/** The fields of a Safe transaction that its EIP-712 hash covers (Safe 1.3+), as the service's JSON carries them. */
export interface SafeTx {
	to: string;
	value: string;
	data: string;
	operation: number;
	safeTxGas: string;
	baseGas: string;
	gasPrice: string;
	gasToken: string;
	refundReceiver: string;
	nonce: string;
}

export const SAFE_TX_TYPES = {
	SafeTx: [
		{ name: 'to', type: 'address' },
		{ name: 'value', type: 'uint256' },
		{ name: 'data', type: 'bytes' },
		{ name: 'operation', type: 'uint8' },
		{ name: 'safeTxGas', type: 'uint256' },
		{ name: 'baseGas', type: 'uint256' },
		{ name: 'gasPrice', type: 'uint256' },
		{ name: 'gasToken', type: 'address' },
		{ name: 'refundReceiver', type: 'address' },
		{ name: 'nonce', type: 'uint256' },
	],
};

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

export function safeTxDomain(chainId: string | number, safe: string) {
	return { chainId: BigInt(chainId), verifyingContract: safe };
}

/** The safeTxHash owners sign: EIP-712 over the SafeTx with the domain of this chain and Safe. */
export function safeTxHash(chainId: string | number, safe: string, tx: SafeTx): string {
	return TypedDataEncoder.hash(safeTxDomain(chainId, safe), SAFE_TX_TYPES, tx);
}

/** An owner's EIP-712 signature of a SafeTx (r, s, v with v 27/28), as Safe{Wallet} makes it. */
export function signSafeTx(
	privateKey: string,
	chainId: string | number,
	safe: string,
	tx: SafeTx,
): Promise<string> {
	return new Wallet(privateKey).signTypedData(safeTxDomain(chainId, safe), SAFE_TX_TYPES, tx);
}

export type SignatureType = 'CONTRACT_SIGNATURE' | 'APPROVED_HASH' | 'EOA' | 'ETH_SIGN';

export interface ParsedSignature {
	owner: string;
	type: SignatureType;
	/** The 65 bytes as Safe's checkNSignatures reads them (contract signatures without their dynamic part). */
	signature: string;
}

/** The signer, or the zero address when the signature recovers to none (as ecrecover answers). */
function recover(digest: string, r: string, s: string, v: number): string {
	try {
		return recoverAddress(digest, { r, s, v });
	} catch {
		return ZERO_ADDRESS;
	}
}

/**
 * Splits concatenated Safe signatures (65 bytes each: r, s, v) and finds each signer as Safe's
 * checkNSignatures does: v 0 = contract (EIP-1271, owner in r), v 1 = approved hash (owner in r),
 * v > 30 = eth_sign of the hash (v - 4), else an EIP-712 signature of the hash.
 */
export function parseSignatures(signatures: string, hash: string): ParsedSignature[] {
	const bytes = getBytes(signatures);
	const parsed: ParsedSignature[] = [];
	// Contract signatures append dynamic data after the static parts; a static part's r points into it.
	let end = bytes.length;
	for (let offset = 0; offset + 65 <= end; offset += 65) {
		const r = dataSlice(bytes, offset, offset + 32);
		const s = dataSlice(bytes, offset + 32, offset + 64);
		const v = bytes[offset + 64];
		const signature = dataSlice(bytes, offset, offset + 65);
		if (v === 0 || v === 1) {
			const owner = getAddress(dataSlice(r, 12));
			if (v === 0) end = Math.min(end, Number(BigInt(s)));
			parsed.push({ owner, type: v === 0 ? 'CONTRACT_SIGNATURE' : 'APPROVED_HASH', signature });
		} else if (v > 30) {
			const owner = recover(hashMessage(getBytes(hash)), r, s, v - 4);
			parsed.push({ owner, type: 'ETH_SIGN', signature });
		} else {
			parsed.push({ owner: recover(hash, r, s, v), type: 'EOA', signature });
		}
	}
	return parsed;
}

/** A Safe's execTransaction arguments, in the contract's order: the SafeTx without its nonce (the Safe's own), then the signatures. */
export function execTransactionArgs(tx: SafeTx, signatures: string) {
	return [
		tx.to,
		tx.value,
		tx.data,
		tx.operation,
		tx.safeTxGas,
		tx.baseGas,
		tx.gasPrice,
		tx.gasToken,
		tx.refundReceiver,
		signatures,
	] as const;
}

/** Signatures as execTransaction wants them: concatenated in ascending order of owner address. */
export function sortedSignatures(signatures: Array<{ owner: string; signature: string }>): string {
	return concat(
		[...signatures]
			.sort((a, b) => (BigInt(a.owner) < BigInt(b.owner) ? -1 : 1))
			.map((entry) => entry.signature),
	);
}
