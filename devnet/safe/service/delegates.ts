import { TypedDataEncoder, Wallet } from 'ethers';

import type { SafeChainReader } from '../onChain';
import { ZERO_ADDRESS, parseSignatures } from '../safeTx';
import {
	type Body,
	FieldErrors,
	ServiceValidationError,
	addressField,
	hexField,
	stringField,
} from './fields';
import type { Answer, Page } from './http';

export interface Delegate {
	/** null: a delegate of the delegator on every Safe it owns. */
	safe: string | null;
	delegate: string;
	delegator: string;
	label: string;
	expiryDate: string | null;
}

const DELEGATE_TYPES = {
	Delegate: [
		{ name: 'delegateAddress', type: 'address' },
		{ name: 'totp', type: 'uint256' },
	],
};

/** TOTP of the service's delegate messages: Unix time divided by 3600 (T0 = 0, Tx = 3600). */
export const delegateTotp = (previous = false) =>
	Math.floor(Date.now() / 1000 / 3600) - (previous ? 1 : 0);

function delegateDomain(chainId: string | undefined) {
	return chainId === undefined
		? { name: 'Safe Transaction Service', version: '1.0' }
		: { name: 'Safe Transaction Service', version: '1.0', chainId: BigInt(chainId) };
}

/** The EIP-712 hash a delegator signs to add (or remove) a delegate (DelegateSignatureHelperV2). */
export function delegateHash(delegate: string, chainId: string | undefined, totp: number): string {
	return TypedDataEncoder.hash(delegateDomain(chainId), DELEGATE_TYPES, {
		delegateAddress: delegate,
		totp,
	});
}

/** The delegator's signature of POST /api/v2/delegates/, as api-kit's signDelegate makes it. */
export function signDelegate(
	privateKey: string,
	delegate: string,
	chainId: string,
): Promise<string> {
	return new Wallet(privateKey).signTypedData(delegateDomain(chainId), DELEGATE_TYPES, {
		delegateAddress: delegate,
		totp: delegateTotp(),
	});
}

/** The service's SafeContractDelegate table and its v2 endpoints. */
export class DelegateRegistry {
	private readonly delegates: Delegate[] = [];

	constructor(private readonly chain: SafeChainReader) {}

	private active(): Delegate[] {
		const time = new Date().toISOString();
		return this.delegates.filter((entry) => entry.expiryDate === null || entry.expiryDate > time);
	}

	/** Delegates of the Safe's current owners, for this Safe or for all their Safes. */
	delegatesOf(safe: string, owners: string[]): Set<string> {
		return new Set(
			this.active()
				.filter(
					(entry) =>
						(entry.safe === safe || entry.safe === null) && owners.includes(entry.delegator),
				)
				.map((entry) => entry.delegate),
		);
	}

	delegatorOf(safe: string, owners: string[], delegate: string): string | undefined {
		return this.active().find(
			(entry) =>
				(entry.safe === safe || entry.safe === null) &&
				owners.includes(entry.delegator) &&
				entry.delegate === delegate,
		)?.delegator;
	}

	/** GET /api/v2/delegates/?safe=&delegate=&delegator=&label= */
	list(page: Page): Answer {
		const filters = ['safe', 'delegate', 'delegator', 'label'] as const;
		const selected = this.delegates.filter((entry) =>
			filters.every((name) => {
				const wanted = page.query.get(name);
				return wanted === null || wanted === '' || entry[name] === wanted;
			}),
		);
		return { status: 200, body: page.paginate(selected) };
	}

	/** POST /api/v2/delegates/ (DelegateSerializerV2): 400 on a failed check, 201 with the fields on success. */
	async add(body: Body): Promise<Answer> {
		const errors = new FieldErrors();
		const safe = addressField(body, 'safe', errors, { required: false, allowNull: true }) ?? null;
		const delegate = addressField(body, 'delegate', errors);
		const delegator = addressField(body, 'delegator', errors);
		const signature = hexField(body, 'signature', errors, { minLength: 65, maxLength: 5000 });
		const label = stringField(body, 'label', errors, { maxLength: 50 });
		const expiryDate =
			stringField(body, 'expiryDate', errors, {
				required: false,
				allowNull: true,
				maxLength: 64,
			}) ?? null;
		if (expiryDate !== null && Number.isNaN(Date.parse(expiryDate)))
			errors.add('expiryDate', 'Datetime has wrong format.');
		if (errors.any) return { status: 400, body: errors.errors };
		try {
			if (expiryDate !== null && Date.parse(expiryDate) <= Date.now())
				throw new ServiceValidationError(
					'`expiry_date` cannot be previous to the current timestamp',
				);
			await this.checkDelegator(safe, delegator as string);
			if (!this.signedBy(delegate as string, signature as string, delegator as string))
				throw new ServiceValidationError(
					`Signature does not match provided delegator=${delegator}`,
				);
		} catch (error) {
			if (error instanceof ServiceValidationError) return { status: 400, body: error.body };
			throw error;
		}
		const entry: Delegate = {
			safe,
			delegate: delegate as string,
			delegator: delegator as string,
			label: label as string,
			expiryDate: expiryDate === null ? null : new Date(expiryDate).toISOString(),
		};
		const index = this.delegates.findIndex(
			(known) =>
				known.safe === safe && known.delegate === delegate && known.delegator === delegator,
		);
		if (index === -1) this.delegates.push(entry);
		else this.delegates[index] = entry;
		return { status: 201, body: { safe, delegate, delegator, signature, label, expiryDate } };
	}

	/** DELETE /api/v2/delegates/{delegate}/: signed by the delegator or the delegate; 204, or 404 when none matched. */
	async remove(delegate: string, body: Body): Promise<Answer> {
		const errors = new FieldErrors();
		const safe = addressField(body, 'safe', errors, { required: false, allowNull: true }) ?? null;
		const delegator = addressField(body, 'delegator', errors);
		const signature = hexField(body, 'signature', errors, { minLength: 65, maxLength: 5000 });
		if (errors.any) return { status: 400, body: errors.errors };
		try {
			await this.checkDelegator(safe, delegator as string);
			if (
				!this.signedBy(delegate, signature as string, delegator as string) &&
				!this.signedBy(delegate, signature as string, delegate)
			)
				throw new ServiceValidationError(
					`Signature does not match provided delegate=${delegate} or delegator=${delegator}`,
				);
		} catch (error) {
			if (error instanceof ServiceValidationError) return { status: 400, body: error.body };
			throw error;
		}
		const before = this.delegates.length;
		for (let index = this.delegates.length - 1; index >= 0; index--) {
			const entry = this.delegates[index];
			if (
				entry.delegate === delegate &&
				entry.delegator === delegator &&
				(safe === null || entry.safe === safe)
			)
				this.delegates.splice(index, 1);
		}
		return { status: this.delegates.length < before ? 204 : 404 };
	}

	private async checkDelegator(safe: string | null, delegator: string) {
		if (safe === null) return;
		const owners = await this.chain.owners(safe);
		if (!owners)
			throw new ServiceValidationError(`Safe=${safe} does not exist or it's still not indexed`);
		if (!owners.includes(delegator))
			throw new ServiceValidationError(
				`Provided delegator=${delegator} is not an owner of Safe=${safe}`,
			);
	}

	/**
	 * validate_delegator_signature: the current or the previous TOTP, with or without the chain ID in
	 * the domain; throws when no candidate recovers to a valid signer at all.
	 */
	private signedBy(delegate: string, signature: string, signer: string): boolean {
		let anyValid = false;
		for (const previous of [true, false])
			for (const chainId of [this.chain.chainId, undefined]) {
				const parsed = parseSignatures(
					signature,
					delegateHash(delegate, chainId, delegateTotp(previous)),
				);
				if (!parsed.length) throw new ServiceValidationError('Signature is not valid');
				if (parsed.length > 1)
					throw new ServiceValidationError(
						'More than one signatures detected, just one is expected',
					);
				if (parsed[0].type !== 'EOA' && parsed[0].type !== 'ETH_SIGN') continue;
				if (parsed[0].owner === ZERO_ADDRESS) continue;
				anyValid = true;
				if (parsed[0].owner === signer) return true;
			}
		if (!anyValid)
			throw new ServiceValidationError(`No valid signature found for signer=${signer}`);
		return false;
	}
}
