/**
 * Funds a custodian stand-in's EVM account by writing state, not by sending transactions: no block is
 * mined and no devnet wallet's nonce or balance changes, so nothing else on the devnet sees a
 * difference. Shared by the Fireblocks and Turnkey stand-ins.
 */
import { AbiCoder, keccak256, toBeHex, zeroPadValue } from 'ethers';

import type { ChainRuntime } from '../gateway/evm';

/** DevToken's storage: slot 3 totalSupply, slot 4 the balanceOf mapping (name, symbol, decimals before). */
const TOTAL_SUPPLY_SLOT = 3n;
const BALANCES_SLOT = 4n;

/**
 * Sets `account`'s native balance to `nativeWei` and, for each fixture DevToken `wholeTokens` names
 * an amount for (whole units; undefined: left out, as WETH9 must be, whose storage differs), its
 * token balance, raising the token's totalSupply by as much.
 */
export async function writeEvmFunding(
	chain: ChainRuntime,
	account: string,
	nativeWei: bigint,
	wholeTokens: (symbol: string) => bigint | undefined,
): Promise<void> {
	await chain.rpc('hardhat_setBalance', [account, toBeHex(nativeWei)]);
	const coder = AbiCoder.defaultAbiCoder();
	for (const token of Object.values(chain.fixtures.tokens)) {
		const whole = token.symbol === 'WETH' ? undefined : wholeTokens(token.symbol);
		if (whole === undefined) continue;
		const amount = whole * 10n ** BigInt(token.decimals);
		const balanceSlot = keccak256(coder.encode(['address', 'uint256'], [account, BALANCES_SLOT]));
		const supplySlot = toBeHex(TOTAL_SUPPLY_SLOT);
		const [supply, held] = await Promise.all([
			chain.rpc<string>('eth_getStorageAt', [token.address, supplySlot, 'latest']),
			chain.rpc<string>('eth_getStorageAt', [token.address, balanceSlot, 'latest']),
		]);
		await chain.rpc('hardhat_setStorageAt', [
			token.address,
			balanceSlot,
			zeroPadValue(toBeHex(amount), 32),
		]);
		await chain.rpc('hardhat_setStorageAt', [
			token.address,
			supplySlot,
			zeroPadValue(toBeHex(BigInt(supply) - BigInt(held) + amount), 32),
		]);
	}
}
