import { type Address, toNano } from '@ton/core';
import { deriveEd25519Path, keyPairFromSeed, mnemonicToPrivateKey } from '@ton/crypto';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { Mnemonic } from 'ethers';

import type { TonChain } from './chain';
import { deployJetton, JETTON_DECIMALS, jettonWalletOf, mintJetton, USDT_METADATA } from './jetton';

/** The TON mnemonic (24 words, Tonkeeper's kind) whose wallets the devnet funds beside the BIP-39 ones. */
export const TON_MNEMONIC =
	'pill move soccer exhaust canal vendor nerve name gossip acid antenna local trap flat urge call split certain path eyebrow either supply bonus actual';
export const TON_BIP39_WALLET_COUNT = 3;
const WALLET_TON = toNano('1000');
const USDT_PER_WALLET = 1_000_000n * 10n ** BigInt(JETTON_DECIMALS);

/** A funded wallet: one key in one wallet version. */
export interface TonWallet {
	/** Where the key comes from: the devnet's BIP-39 mnemonic at m/44'/607'/{index}', or the TON mnemonic. */
	source: 'bip39' | 'ton-mnemonic';
	/** The SLIP-10 index for 'bip39'; undefined for the TON mnemonic. */
	index?: number;
	version: 'v5r1' | 'v4r2';
	/** Raw form, `0:<64 hex>`: the canonical key. */
	address: string;
	/** User-friendly forms (testOnly on 1101). */
	bounceable: string;
	nonBounceable: string;
	/** Ed25519: the 32-byte seed and the public key, hex. */
	secretKey: string;
	publicKey: string;
	/** The wallet's USDT jetton wallet, raw form. */
	jettonWallet: string;
}

export interface TonFixtures {
	mnemonic: string;
	tonMnemonic: string;
	/** W5 then v4R2 of BIP-39 indexes 0, 1, 2 and of the TON mnemonic: 1,000 TON and 1,000,000 USDT each. */
	wallets: TonWallet[];
	usdt: { address: string; bounceable: string; symbol: string; name: string; decimals: number };
}

export function tonPath(index: number): number[] {
	return [44, 607, index];
}

interface Key {
	source: TonWallet['source'];
	index?: number;
	seed: Buffer;
}

async function keysOf(mnemonic: string): Promise<Key[]> {
	const bip39Seed = Buffer.from(Mnemonic.fromPhrase(mnemonic).computeSeed().slice(2), 'hex');
	const keys: Key[] = [];
	for (let index = 0; index < TON_BIP39_WALLET_COUNT; index++)
		keys.push({ source: 'bip39', index, seed: await deriveEd25519Path(bip39Seed, tonPath(index)) });
	const tonKey = await mnemonicToPrivateKey(TON_MNEMONIC.split(' '));
	keys.push({ source: 'ton-mnemonic', seed: tonKey.secretKey.subarray(0, 32) });
	return keys;
}

/** W5's wallet_id carries the network's global id: -239 on mainnet, -3 on testnet. */
function networkGlobalId(chainId: string): number {
	return chainId === '1100' ? -239 : -3;
}

/** Every key's W5 and v4R2 wallets deployed with 1,000 TON, and the USDT jetton minted to each. */
export async function deployTonFixtures(chain: TonChain, mnemonic: string): Promise<TonFixtures> {
	const testOnly = chain.chainId !== '1100';
	const funder = await chain.blockchain.treasury('devnet funder', { balance: toNano('100000') });
	const master = await deployJetton(chain, funder);
	const wallets: TonWallet[] = [];
	for (const key of await keysOf(mnemonic)) {
		const { publicKey } = keyPairFromSeed(key.seed);
		const contracts = [
			{
				version: 'v5r1' as const,
				contract: WalletContractV5R1.create({
					publicKey,
					walletId: { networkGlobalId: networkGlobalId(chain.chainId) },
				}),
			},
			{ version: 'v4r2' as const, contract: WalletContractV4.create({ workchain: 0, publicKey }) },
		];
		for (const { version, contract } of contracts) {
			chain.tick();
			await funder.send({
				to: contract.address,
				value: WALLET_TON,
				init: contract.init,
				bounce: false,
			});
			await mintJetton(chain, funder, master, contract.address, USDT_PER_WALLET);
			wallets.push({
				source: key.source,
				index: key.index,
				version,
				...forms(contract.address, testOnly),
				secretKey: key.seed.toString('hex'),
				publicKey: publicKey.toString('hex'),
				jettonWallet: (await jettonWalletOf(chain, master, contract.address)).toRawString(),
			});
		}
	}
	return {
		mnemonic,
		tonMnemonic: TON_MNEMONIC,
		wallets,
		usdt: {
			address: master.toRawString(),
			bounceable: master.toString({ bounceable: true, testOnly }),
			symbol: USDT_METADATA.symbol,
			name: USDT_METADATA.name,
			decimals: JETTON_DECIMALS,
		},
	};
}

function forms(address: Address, testOnly: boolean) {
	return {
		address: address.toRawString(),
		bounceable: address.toString({ bounceable: true, testOnly }),
		nonBounceable: address.toString({ bounceable: false, testOnly }),
	};
}
