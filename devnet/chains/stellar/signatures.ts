import { Keypair, type Operation, type xdr } from '@stellar/stellar-base';

import type { StellarAccount } from './accounts';

export type ThresholdLevel = 'low' | 'med' | 'high';

/** stellar-core's threshold level of each operation (OperationFrame::getThresholdLevel and its overrides). */
export function thresholdLevel(operation: Operation): ThresholdLevel {
	switch (operation.type) {
		case 'allowTrust':
		case 'setTrustLineFlags':
		case 'bumpSequence':
		case 'claimClaimableBalance':
			return 'low';
		case 'accountMerge':
			return 'high';
		case 'setOptions':
			return operation.masterWeight !== undefined ||
				operation.lowThreshold !== undefined ||
				operation.medThreshold !== undefined ||
				operation.highThreshold !== undefined ||
				operation.signer !== undefined
				? 'high'
				: 'med';
		default:
			return 'med';
	}
}

/**
 * stellar-core's SignatureChecker over one transaction hash: a signer counts when a signature carries its
 * hint and verifies (Keypair.verify) under its key; each signature is marked used, and one never used by any
 * check is an extra signature (tx_bad_auth_extra).
 */
export class SignatureChecker {
	private readonly used: boolean[];

	constructor(
		private readonly hash: Buffer,
		private readonly signatures: xdr.DecoratedSignature[],
	) {
		this.used = signatures.map(() => false);
	}

	/** Whether the account's master key and signers that signed weigh at least its `level` threshold (and above 0). */
	meets(account: StellarAccount, level: ThresholdLevel): boolean {
		const needed = account.thresholds[level];
		const signers: Array<[string, number]> = [];
		if (account.masterWeight > 0) signers.push([account.id, account.masterWeight]);
		signers.push(...account.signers.entries());
		let weight = 0;
		for (const [key, signerWeight] of signers) {
			if (!this.signedBy(key)) continue;
			weight += Math.min(signerWeight, 255);
			if (weight >= needed) return true;
		}
		return false;
	}

	allUsed(): boolean {
		return this.used.every(Boolean);
	}

	private signedBy(key: string): boolean {
		const keypair = Keypair.fromPublicKey(key);
		const hint = keypair.signatureHint();
		const index = this.signatures.findIndex(
			(signature) =>
				signature.hint().equals(hint) && keypair.verify(this.hash, signature.signature()),
		);
		if (index < 0) return false;
		this.used[index] = true;
		return true;
	}
}
