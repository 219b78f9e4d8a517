import { createHash } from 'crypto';
import { HDNodeWallet, Mnemonic } from 'ethers';

import type { TronChain } from './chain';
import { TRC20_DECIMALS } from './trc20';
import { base58Address, hexAddress } from './wire';

export const TRON_WALLET_COUNT = 5;
const SUN_PER_TRX = 1_000_000n;
const WALLET_TRX = 10_000n * SUN_PER_TRX;
/** Wallets 0–3 hold 10,000 TRX and 10,000 USDT; wallet 4 has no account (a recipient whose account a transfer creates). */
const FUNDED_WALLETS = 4;
const USDT_PER_WALLET = 10_000n * 10n ** BigInt(TRC20_DECIMALS);

export interface TronWallet {
	index: number;
	/** base58 (T…), as wallets show it. */
	address: string;
	/** 41 + 20 bytes, lower case, as the node's JSON has it with visible:false. */
	hexAddress: string;
	/** 64 hex characters without 0x, as TronLink exports it. */
	privateKey: string;
}

export interface TronFixtures {
	mnemonic: string;
	wallets: TronWallet[];
	usdt: { address: string; hexAddress: string; symbol: string; name: string; decimals: number };
}

export function tronPath(index: number): string {
	return `m/44'/195'/0'/0/${index}`;
}

/** The devnet's USDT address: derived from the chain ID, so it is the same on every start and exists on no live network. */
export function tronUsdtHexAddress(chainId: string): string {
	return `41${createHash('sha256').update(`devnet tron ${chainId} usdt`).digest('hex').slice(0, 40)}`;
}

/** Wallets on Tron's BIP-44 path, funded; the USDT ledger credited to wallets 0–3. */
export function deployTronFixtures(chain: TronChain, mnemonic: string): TronFixtures {
	const seed = Mnemonic.fromPhrase(mnemonic).computeSeed();
	const root = HDNodeWallet.fromSeed(seed);
	const wallets: TronWallet[] = [];
	for (let index = 0; index < TRON_WALLET_COUNT; index++) {
		const key = root.derivePath(tronPath(index));
		// A Tron address is the EVM address of the same key behind the 0x41 prefix.
		const hex = hexAddress(`41${key.address.slice(2)}`);
		wallets.push({
			index,
			address: base58Address(hex),
			hexAddress: hex,
			privateKey: key.privateKey.slice(2),
		});
		if (index < FUNDED_WALLETS) {
			chain.fund(hex, WALLET_TRX);
			chain.usdt.mint(hex, USDT_PER_WALLET);
		}
	}
	return {
		mnemonic,
		wallets,
		usdt: {
			address: base58Address(chain.usdt.address),
			hexAddress: chain.usdt.address,
			symbol: 'USDT',
			name: 'Tether USD (devnet)',
			decimals: TRC20_DECIMALS,
		},
	};
}
