import { Asset, MuxedAccount, StrKey } from '@stellar/stellar-base';

/** stellar-core's base reserve (0.5 XLM) and base fee (100 stroops), as the public networks have them. */
export const BASE_RESERVE = 5_000_000n;
export const BASE_FEE = 100n;
export const INT64_MAX = 2n ** 63n - 1n;
/** stellar-core's cap on an account's extra signers. */
export const MAX_SIGNERS = 20;

/** A trustline: balance and limit in stroops, and the issuer's authorisation flags on it. */
export interface Trustline {
	balance: bigint;
	limit: bigint;
	authorized: boolean;
	authorizedToMaintainLiabilities: boolean;
	clawbackEnabled: boolean;
}

/** An offer recorded on the book (never matched: the stand-in has no order matching). */
export interface Offer {
	id: string;
	seller: string;
	selling: string;
	buying: string;
	/** Stroops of `selling` offered. */
	amount: bigint;
	price: { n: number; d: number };
	passive: boolean;
}

export interface AccountFlags {
	authRequired: boolean;
	authRevocable: boolean;
	authImmutable: boolean;
	authClawbackEnabled: boolean;
}

/** A ledger account: XLM in stroops, its sequence, signers, thresholds, flags and trustlines (keyed CODE:ISSUER). */
export interface StellarAccount {
	id: string;
	balance: bigint;
	sequence: bigint;
	numSubEntries: number;
	masterWeight: number;
	thresholds: { low: number; med: number; high: number };
	/** Extra ed25519 signers, G… → weight. */
	signers: Map<string, number>;
	flags: AccountFlags;
	homeDomain: string;
	trustlines: Map<string, Trustline>;
}

/** A claimable balance created on the ledger (claiming it is not modelled). */
export interface ClaimableBalance {
	id: string;
	asset: string;
	amount: bigint;
	claimants: string[];
	sponsor: string;
}

/** Everything a transaction may change: copied before the operations run, so a failed one changes none of it. */
export interface LedgerState {
	accounts: Map<string, StellarAccount>;
	offers: Map<string, Offer>;
	claimableBalances: Map<string, ClaimableBalance>;
	nextOfferId: bigint;
}

export function newAccount(id: string, balance: bigint, sequence: bigint): StellarAccount {
	return {
		id,
		balance,
		sequence,
		numSubEntries: 0,
		masterWeight: 1,
		thresholds: { low: 0, med: 0, high: 0 },
		signers: new Map(),
		flags: {
			authRequired: false,
			authRevocable: false,
			authImmutable: false,
			authClawbackEnabled: false,
		},
		homeDomain: '',
		trustlines: new Map(),
	};
}

/** The least XLM an account must keep: two base reserves plus one per subentry. */
export function minimumBalance(account: StellarAccount): bigint {
	return (2n + BigInt(account.numSubEntries)) * BASE_RESERVE;
}

/** XLM the account may spend without going under its reserve. */
export function availableNative(account: StellarAccount): bigint {
	return account.balance - minimumBalance(account);
}

/** An asset's canonical key: `native` or `CODE:ISSUER`. */
export function assetKey(asset: Asset): string {
	return asset.isNative() ? 'native' : `${asset.getCode()}:${asset.getIssuer()}`;
}

export function issuerOf(key: string): string | undefined {
	return key === 'native' ? undefined : key.split(':')[1];
}

/** A muxed M… account resolves to its G… base account, as stellar-core applies it; a G… is itself. */
export function baseAccount(address: string): string {
	return StrKey.isValidMed25519PublicKey(address)
		? MuxedAccount.fromAddress(address, '0').baseAccount().accountId()
		: address;
}

/** stroops as Horizon writes amounts: 7 decimals. */
export function amountText(stroops: bigint): string {
	const negative = stroops < 0n;
	const digits = (negative ? -stroops : stroops).toString().padStart(8, '0');
	return `${negative ? '-' : ''}${digits.slice(0, -7)}.${digits.slice(-7)}`;
}

/** A decimal amount as stellar-base decodes it ("12.5000000") in stroops, without floats. */
export function stroopsOf(amount: string): bigint {
	const [whole, fraction = ''] = amount.split('.');
	return BigInt(whole) * 10_000_000n + BigInt(fraction.padEnd(7, '0').slice(0, 7));
}

export function cloneState(state: LedgerState): LedgerState {
	return structuredClone(state);
}
