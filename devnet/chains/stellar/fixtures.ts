import { Keypair } from '@stellar/stellar-base';
import { Mnemonic } from 'ethers';
import { createHash } from 'crypto';
import { HDKey } from 'micro-ed25519-hdkey';

import { INT64_MAX } from './accounts';
import type { StellarChain } from './chain';

export const STELLAR_WALLET_COUNT = 4;
const STROOPS_PER_UNIT = 10_000_000n;
const WALLET_XLM = 10_000n * STROOPS_PER_UNIT;
const USDC_PER_WALLET = 100_000n * STROOPS_PER_UNIT;
/** The RWA example's asset: issued by wallet 3 with auth_required and auth_revocable on. */
const RWA_ISSUER_INDEX = 3;

/** A funded account: the devnet mnemonic's key at m/44'/148'/{index}' (SEP-0005). */
export interface StellarWallet {
	index: number;
	path: string;
	/** G… */
	publicKey: string;
	/** S…, as wallets export it. */
	secret: string;
}

/** An issued asset of the fixtures: its code, issuer and canonical key `CODE:ISSUER`. */
export interface StellarAsset {
	code: string;
	issuer: string;
	/** `CODE:ISSUER`. */
	asset: string;
	/** Every Stellar asset has 7 decimals. */
	decimals: number;
}

export interface StellarFixtures {
	mnemonic: string;
	/** The network passphrase, the chain's identity (Horizon's `network_passphrase`). */
	passphrase: string;
	/** Wallets 0–3: 10,000 XLM each, a trustline to USDC and 100,000 USDC. */
	wallets: StellarWallet[];
	/** The USDC-like asset: its issuer is a devnet account whose secret is published here; auth_required off. */
	usdc: StellarAsset & { issuerSecret: string };
	/** RWA1, issued by wallet 3 (auth_required + auth_revocable): no trustlines to it at start. */
	rwa: StellarAsset;
}

export function stellarPath(index: number): string {
	return `m/44'/148'/${index}'`;
}

/** SEP-0005: BIP-39 seed, SLIP-10 ed25519 at m/44'/148'/{index}', the key's 32 bytes as the account's seed. */
export function stellarKeypairs(mnemonic: string, count: number): Keypair[] {
	const root = HDKey.fromMasterSeed(
		Buffer.from(Mnemonic.fromPhrase(mnemonic).computeSeed().slice(2), 'hex'),
	);
	return Array.from({ length: count }, (_, index) =>
		Keypair.fromRawEd25519Seed(Buffer.from(root.derive(stellarPath(index)).privateKey)),
	);
}

/** The USDC issuer's key: derived from a fixed phrase, so the same on every start and on both chains. */
function usdcIssuer(): Keypair {
	return Keypair.fromRawEd25519Seed(
		createHash('sha256').update('devnet stellar usdc issuer').digest(),
	);
}

function asset(code: string, issuer: string): StellarAsset {
	return { code, issuer, asset: `${code}:${issuer}`, decimals: 7 };
}

/** The wallets and issuers as ledger entries: funded, with their USDC trustlines and balances, RWA1's flags. */
export function deployStellarFixtures(chain: StellarChain, mnemonic: string): StellarFixtures {
	const issuer = usdcIssuer();
	chain.fund(issuer.publicKey(), WALLET_XLM);
	const usdc = asset('USDC', issuer.publicKey());
	const wallets: StellarWallet[] = [];
	for (const [index, keypair] of stellarKeypairs(mnemonic, STELLAR_WALLET_COUNT).entries()) {
		const account = chain.fund(keypair.publicKey(), WALLET_XLM);
		account.trustlines.set(usdc.asset, {
			balance: USDC_PER_WALLET,
			limit: INT64_MAX,
			authorized: true,
			authorizedToMaintainLiabilities: false,
			clawbackEnabled: false,
		});
		account.numSubEntries += 1;
		wallets.push({
			index,
			path: stellarPath(index),
			publicKey: keypair.publicKey(),
			secret: keypair.secret(),
		});
	}
	const rwaIssuer = chain.account(wallets[RWA_ISSUER_INDEX].publicKey);
	if (rwaIssuer) rwaIssuer.flags = { ...rwaIssuer.flags, authRequired: true, authRevocable: true };
	return {
		mnemonic,
		passphrase: chain.passphrase,
		wallets,
		usdc: { ...usdc, issuerSecret: issuer.secret() },
		rwa: asset('RWA1', wallets[RWA_ISSUER_INDEX].publicKey),
	};
}
