/**
 * The Fireblocks stand-in's vault is funded by writing chain state (devnet/custody/evmFunding.ts): it
 * holds what FIREBLOCKS_FUNDING says from the start, and no transaction of the chain paid it, so no
 * devnet wallet's nonce or balance moved for it.
 */
import { Interface, parseUnits } from 'ethers';

import type { Devnet } from '../../../devnet';
import { FIREBLOCKS_FUNDING } from '../../../devnet/custody/fireblocks';
import { useDevnet } from '../../helpers/useDevnet';

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const erc20 = new Interface([
	'function balanceOf(address) view returns (uint256)',
	'function totalSupply() view returns (uint256)',
]);

test('the vault holds its funding, and no transaction on the chain sent it', async () => {
	const vault = devnet.fireblocks.addresses['31337'];
	const rpc = <T>(method: string, params: unknown[]) => devnet.rpc<T>('31337', method, params);
	expect(BigInt(await rpc<string>('eth_getBalance', [vault, 'latest']))).toBe(
		parseUnits(FIREBLOCKS_FUNDING.ETH, 18),
	);
	expect(await rpc<string>('eth_getTransactionCount', [vault, 'latest'])).toBe('0x0');
	const funded = Object.values(devnet.fireblocks.assets).filter(
		(asset) => asset.address && FIREBLOCKS_FUNDING[asset.symbol],
	);
	expect(funded.map((asset) => asset.symbol).sort()).toEqual(['DAI', 'LINK', 'USDC']);
	for (const asset of funded) {
		const read = async (name: 'balanceOf' | 'totalSupply', args: unknown[]) =>
			BigInt(
				await rpc<string>('eth_call', [
					{ to: asset.address, data: erc20.encodeFunctionData(name, args) },
					'latest',
				]),
			);
		const held = await read('balanceOf', [vault]);
		expect(held).toBe(parseUnits(FIREBLOCKS_FUNDING[asset.symbol], asset.decimals));
		// The supply counts it: the token's books stay whole.
		expect(await read('totalSupply', [])).toBeGreaterThanOrEqual(held);
	}
	// No transaction in any block pays or mentions the vault.
	const head = Number(await rpc<string>('eth_blockNumber', []));
	const needle = vault.slice(2).toLowerCase();
	for (let number = 0; number <= head; number++) {
		const block = await rpc<{
			transactions: Array<{ to: string | null; from: string; input: string }>;
		}>('eth_getBlockByNumber', [`0x${number.toString(16)}`, true]);
		for (const tx of block.transactions) {
			expect(String(tx.to).toLowerCase()).not.toBe(vault.toLowerCase());
			expect(tx.input.toLowerCase()).not.toContain(needle);
		}
	}
});
