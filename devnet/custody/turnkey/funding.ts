/**
 * Funds the stand-in's wallet accounts at start by writing state, not by sending transactions: no
 * block is mined and no devnet wallet's nonce or balance changes, so nothing else on the devnet sees a
 * difference, and it costs milliseconds.
 */
import {
	TOKEN_PROGRAM_ADDRESS,
	findAssociatedTokenPda,
	getTokenEncoder,
	AccountState,
} from '@solana-program/token';
import { type Address, address, lamports } from '@solana/kit';
import { AbiCoder, keccak256, toBeHex, zeroPadValue } from 'ethers';

import type { SolanaRuntime } from '../../chains/solana';
import type { TronRuntime } from '../../chains/tron';
import { hexAddress } from '../../chains/tron/wire';
import type { ChainRuntime } from '../../gateway/evm';

/** Native units (wei) the EVM account holds at start: 1,000 ETH. */
export const EVM_NATIVE_FUNDING = 1_000n * 10n ** 18n;
/** Whole tokens of each fixture ERC-20 (not WETH) the EVM account holds at start. */
export const EVM_TOKEN_FUNDING = 1_000_000n;
/** Lamports the Solana account holds at start: 100 SOL. */
export const SOLANA_NATIVE_FUNDING = 100n * 1_000_000_000n;
/** Whole USDC (the fixture SPL mint) the Solana account holds at start. */
export const SOLANA_TOKEN_FUNDING = 1_000_000n;

/** DevToken's storage: slot 3 totalSupply, slot 4 the balanceOf mapping (name, symbol, decimals before). */
const TOTAL_SUPPLY_SLOT = 3n;
const BALANCES_SLOT = 4n;

/** Native and every fixture DevToken (WETH is WETH9, left out) on an EVM chain, for `account`. */
export async function fundEvmAccount(chain: ChainRuntime, account: string): Promise<void> {
	await chain.rpc('hardhat_setBalance', [account, toBeHex(EVM_NATIVE_FUNDING)]);
	const coder = AbiCoder.defaultAbiCoder();
	for (const token of Object.values(chain.fixtures.tokens)) {
		if (token.symbol === 'WETH') continue;
		const amount = EVM_TOKEN_FUNDING * 10n ** BigInt(token.decimals);
		const balanceSlot = keccak256(coder.encode(['address', 'uint256'], [account, BALANCES_SLOT]));
		const supplySlot = toBeHex(TOTAL_SUPPLY_SLOT);
		const supply = BigInt(
			await chain.rpc<string>('eth_getStorageAt', [token.address, supplySlot, 'latest']),
		);
		await chain.rpc('hardhat_setStorageAt', [
			token.address,
			balanceSlot,
			zeroPadValue(toBeHex(amount), 32),
		]);
		await chain.rpc('hardhat_setStorageAt', [
			token.address,
			supplySlot,
			zeroPadValue(toBeHex(supply + amount), 32),
		]);
	}
}

/** SOL and an associated USDC token account (the fixture mint) for `account`. */
export async function fundSolanaAccount(solana: SolanaRuntime, account: string): Promise<Address> {
	const owner = address(account);
	solana.chain.svm.airdrop(owner, lamports(SOLANA_NATIVE_FUNDING));
	const mint = address(solana.fixtures.usdc.address);
	const [ata] = await findAssociatedTokenPda({
		owner,
		mint,
		tokenProgram: TOKEN_PROGRAM_ADDRESS,
	});
	const data = getTokenEncoder().encode({
		mint,
		owner,
		amount: SOLANA_TOKEN_FUNDING * 10n ** BigInt(solana.fixtures.usdc.decimals),
		delegate: null,
		state: AccountState.Initialized,
		isNative: null,
		delegatedAmount: 0n,
		closeAuthority: null,
	});
	solana.chain.svm.setAccount({
		address: ata,
		data: new Uint8Array(data),
		executable: false,
		lamports: lamports(solana.chain.svm.minimumBalanceForRentExemption(BigInt(data.length))),
		programAddress: TOKEN_PROGRAM_ADDRESS,
		space: BigInt(data.length),
	} as never);
	return ata;
}

/** Sun the Tron account holds at start on each Tron chain: 10,000 TRX. */
export const TRON_NATIVE_FUNDING = 10_000n * 1_000_000n;
/** Whole USDT (the devnet's TRC-20) the Tron account holds at start on each Tron chain. */
export const TRON_TOKEN_FUNDING = 1_000_000n;

/** TRX and USDT for `account` on a Tron chain: the ledger stand-in's balances, written directly. */
export function fundTronAccount(tron: TronRuntime, account: string): void {
	const hex = hexAddress(account);
	tron.chain.fund(hex, TRON_NATIVE_FUNDING);
	tron.chain.usdt.mint(hex, TRON_TOKEN_FUNDING * 10n ** BigInt(tron.fixtures.usdt.decimals));
}
