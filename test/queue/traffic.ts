/** Blocks on chain B and USDC transfers between two watched wallets on chain A, produced while the queue checks run. */
import { Interface } from 'ethers';

import type { Devnet } from '../../devnet';

const erc20 = new Interface(['function transfer(address to, uint256 amount) returns (bool)']);

export interface Traffic {
	/** The first block of chain B mined for the triggers. */
	firstBlock: number;
	/** The hashes of the USDC transfers sent so far. */
	sent: string[];
	/** One more USDC transfer between the watched wallets (wallets 1 and 2 of chain A, alternating). */
	usdcTransfer(index: number): Promise<void>;
	/** Stops producing and waits for the producer's last round. */
	stop(): Promise<void>;
}

/** Mines a block on chain B every second, and every third second sends a USDC transfer on chain A. */
export async function startTraffic(devnet: Devnet): Promise<Traffic> {
	const [chainA, chainB] = devnet.chains;
	const firstBlock =
		Number(BigInt(await devnet.rpc<string>(chainB.chainId, 'eth_blockNumber'))) + 1;
	const sent: string[] = [];
	const usdcTransfer = async (index: number) => {
		const [from, to] =
			index % 2
				? [chainA.wallets[1].address, chainA.wallets[2].address]
				: [chainA.wallets[2].address, chainA.wallets[1].address];
		const data = erc20.encodeFunctionData('transfer', [to, 1_000_000n + BigInt(index)]);
		sent.push(
			await devnet.rpc<string>(chainA.chainId, 'eth_sendTransaction', [
				{ from, to: chainA.tokens.USDC.address, data },
			]),
		);
	};
	let producing = true;
	const producer = (async () => {
		for (let index = 0; producing; index++) {
			await devnet.mine(chainB.chainId, 1);
			if (index % 3 === 0) await usdcTransfer(index);
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	})();
	return {
		firstBlock,
		sent,
		usdcTransfer,
		stop: async () => {
			producing = false;
			await producer;
		},
	};
}
