/** Reads of the devnet's EVM chains that the real-n8n and queue-mode checks compare workflow outputs with. */
import { formatUnits, Interface } from 'ethers';

import type { Devnet } from '../../devnet';

const erc20 = new Interface(['function balanceOf(address) view returns (uint256)']);
const router = new Interface([
	'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
]);

/** What `owner` holds of `token` ('native' or '' for the chain's own asset) on a devnet chain, at a block tag. */
export async function balanceOf(
	devnet: Devnet,
	chainId: string,
	owner: string,
	token: string,
	tag = 'latest',
): Promise<bigint> {
	if (token === 'native' || token === '')
		return BigInt(await devnet.rpc<string>(chainId, 'eth_getBalance', [owner, tag]));
	return BigInt(
		await devnet.rpc<string>(chainId, 'eth_call', [
			{ to: token, data: erc20.encodeFunctionData('balanceOf', [owner]) },
			tag,
		]),
	);
}

/** The devnet DEX's price of one whole `token`, in USDC's smallest unit (its Uniswap V2 router's getAmountsOut), now. */
export async function dexPrice(
	devnet: Devnet,
	chainId: string,
	token: string,
	decimals: number,
): Promise<bigint> {
	const chain = devnet.chains.find((entry) => entry.chainId === chainId)!;
	const data = router.encodeFunctionData('getAmountsOut', [
		10n ** BigInt(decimals),
		[token, chain.tokens.USDC.address],
	]);
	const [amounts] = router.decodeFunctionResult(
		'getAmountsOut',
		await devnet.rpc<string>(chainId, 'eth_call', [{ to: chain.uniswapV2.router, data }, 'latest']),
	);
	return amounts[1] as bigint;
}

/** The same price in whole USDC, as a number (for outputs that carry it as one). */
export async function dexQuote(
	devnet: Devnet,
	chainId: string,
	token: string,
	decimals: number,
): Promise<number> {
	const chain = devnet.chains.find((entry) => entry.chainId === chainId)!;
	return Number(
		formatUnits(await dexPrice(devnet, chainId, token, decimals), chain.tokens.USDC.decimals),
	);
}
