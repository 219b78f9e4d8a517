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

import type { SolanaRuntime } from '../../chains/solana';
import type { TronRuntime } from '../../chains/tron';
import { hexAddress } from '../../chains/tron/wire';
import type { ChainRuntime } from '../../gateway/evm';
import { writeEvmFunding } from '../evmFunding';

/** Native units (wei) the EVM account holds at start: 1,000 ETH. */
export const EVM_NATIVE_FUNDING = 1_000n * 10n ** 18n;
/** Whole tokens of each fixture ERC-20 (not WETH) the EVM account holds at start. */
export const EVM_TOKEN_FUNDING = 1_000_000n;
/** Lamports the Solana account holds at start: 100 SOL. */
export const SOLANA_NATIVE_FUNDING = 100n * 1_000_000_000n;
/** Whole USDC (the fixture SPL mint) the Solana account holds at start. */
export const SOLANA_TOKEN_FUNDING = 1_000_000n;

/** Native and every fixture DevToken (WETH is WETH9, left out) on an EVM chain, for `account`. */
export async function fundEvmAccount(chain: ChainRuntime, account: string): Promise<void> {
	await writeEvmFunding(chain, account, EVM_NATIVE_FUNDING, () => EVM_TOKEN_FUNDING);
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
