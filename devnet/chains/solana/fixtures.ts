import { getCreateAccountInstruction } from '@solana-program/system';
import {
	TOKEN_PROGRAM_ADDRESS,
	findAssociatedTokenPda,
	getCreateAssociatedTokenIdempotentInstruction,
	getInitializeMint2Instruction,
	getMintSize,
	getMintToInstruction,
} from '@solana-program/token';
import {
	type Address,
	type Instruction,
	type KeyPairSigner,
	type TransactionSigner,
	appendTransactionMessageInstructions,
	createKeyPairSignerFromPrivateKeyBytes,
	createTransactionMessage,
	getAddressEncoder,
	getBase58Decoder,
	getBase64EncodedWireTransaction,
	getBase64Encoder,
	lamports,
	pipe,
	setTransactionMessageFeePayerSigner,
	setTransactionMessageLifetimeUsingBlockhash,
	signTransactionMessageWithSigners,
} from '@solana/kit';
import { Mnemonic } from 'ethers';
import { HDKey } from 'micro-ed25519-hdkey';

import type { SolanaChain } from './chain';

export const SOLANA_WALLET_COUNT = 5;
const WALLET_SOL = 100n * 1_000_000_000n;
const USDC_DECIMALS = 6;
/** Wallets 0–3 hold 10,000 USDC; wallet 4 has SOL but no USDC account (a recipient whose token account must be created). */
const USDC_PER_WALLET = 10_000n * 10n ** BigInt(USDC_DECIMALS);
const USDC_HOLDERS = 4;

export interface SolanaWallet {
	index: number;
	address: string;
	/** base58 of the 64-byte secret key (seed and public key), as Phantom and Solflare export it. */
	secretKey: string;
	/** The same 64 bytes as a JSON array, as `solana-keygen` writes its key file. */
	secretKeyJson: string;
	/** The wallet's USDC associated token account (wallet 4's does not exist yet). */
	usdcAccount: string;
}

export interface SolanaFixtures {
	mnemonic: string;
	wallets: SolanaWallet[];
	usdc: { address: string; symbol: string; name: string; decimals: number; mintAuthority: string };
	/** Slot after the fixtures landed. */
	deployedAt: number;
}

export function solanaPath(index: number): string {
	return `m/44'/501'/${index}'/0'`;
}

async function walletSigner(
	mnemonic: string,
	index: number,
): Promise<{ signer: KeyPairSigner; seed: Uint8Array }> {
	const seed = Mnemonic.fromPhrase(mnemonic).computeSeed();
	const key = HDKey.fromMasterSeed(seed.slice(2)).derive(solanaPath(index));
	const privateKey = new Uint8Array(key.privateKey);
	return {
		signer: await createKeyPairSignerFromPrivateKeyBytes(privateKey, true),
		seed: privateKey,
	};
}

/** Fixed, so the mint has the same address on every start. */
const MINT_SEED = new Uint8Array(32).fill(0x5c);

async function land(
	chain: SolanaChain,
	payer: TransactionSigner,
	instructions: Instruction[],
): Promise<void> {
	const message = pipe(
		createTransactionMessage({ version: 0 }),
		(draft) => setTransactionMessageFeePayerSigner(payer, draft),
		(draft) => setTransactionMessageLifetimeUsingBlockhash(chain.latestBlockhash() as never, draft),
		(draft) => appendTransactionMessageInstructions(instructions, draft),
	);
	const signed = await signTransactionMessageWithSigners(message);
	chain.send(new Uint8Array(getBase64Encoder().encode(getBase64EncodedWireTransaction(signed))));
}

/**
 * Funded wallets and a USDC-like SPL mint with balances, through real transactions on the chain. The
 * wallets derive from `mnemonic` on Solana's path m/44'/501'/index'/0' (Phantom, Solflare, solana-keygen).
 */
export async function deploySolanaFixtures(
	chain: SolanaChain,
	mnemonic: string,
): Promise<SolanaFixtures> {
	const keys = await Promise.all(
		Array.from({ length: SOLANA_WALLET_COUNT }, (_, index) => walletSigner(mnemonic, index)),
	);
	for (const { signer } of keys) chain.svm.airdrop(signer.address, lamports(WALLET_SOL));
	const authority = keys[0].signer;
	const mint = await createKeyPairSignerFromPrivateKeyBytes(MINT_SEED);
	const space = BigInt(getMintSize());
	await land(chain, authority, [
		getCreateAccountInstruction({
			payer: authority,
			newAccount: mint,
			lamports: chain.svm.minimumBalanceForRentExemption(space),
			space,
			programAddress: TOKEN_PROGRAM_ADDRESS,
		}),
		getInitializeMint2Instruction({
			mint: mint.address,
			decimals: USDC_DECIMALS,
			mintAuthority: authority.address,
		}),
	]);
	const accounts: Address[] = [];
	for (const { signer } of keys) {
		const [account] = await findAssociatedTokenPda({
			owner: signer.address,
			mint: mint.address,
			tokenProgram: TOKEN_PROGRAM_ADDRESS,
		});
		accounts.push(account);
	}
	for (let index = 0; index < USDC_HOLDERS; index++) {
		await land(chain, authority, [
			getCreateAssociatedTokenIdempotentInstruction({
				payer: authority,
				ata: accounts[index],
				owner: keys[index].signer.address,
				mint: mint.address,
			}),
			getMintToInstruction({
				mint: mint.address,
				token: accounts[index],
				mintAuthority: authority,
				amount: USDC_PER_WALLET,
			}),
		]);
	}
	const base58 = getBase58Decoder();
	return {
		mnemonic,
		wallets: keys.map(({ signer, seed }, index) => {
			const secret = new Uint8Array([...seed, ...getAddressEncoder().encode(signer.address)]);
			return {
				index,
				address: signer.address,
				secretKey: base58.decode(secret),
				secretKeyJson: JSON.stringify([...secret]),
				usdcAccount: accounts[index],
			};
		}),
		usdc: {
			address: mint.address,
			symbol: 'USDC',
			name: 'Devnet USD Coin (SPL)',
			decimals: USDC_DECIMALS,
			mintAuthority: authority.address,
		},
		deployedAt: chain.slot,
	};
}
