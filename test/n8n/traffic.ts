/**
 * Chain activity that keeps coming while the test stops, starts, deactivates and reactivates n8n's
 * triggers: USDC transfers between devnet wallets and empty blocks, one block each (the devnet
 * mines a block per transaction), until stopped.
 */
import { Interface, parseUnits } from 'ethers';

import type { Devnet, DevnetChain } from '../../devnet';

const erc20 = new Interface(['function transfer(address to, uint256 amount) returns (bool)']);

/** Sends `amount` (whole USDC, e.g. "12.5") from one devnet wallet to another; resolves with the transaction hash once mined. */
export async function sendUsdc(
	devnet: Devnet,
	chain: DevnetChain,
	from: number,
	to: number,
	amount: string,
): Promise<string> {
	const data = erc20.encodeFunctionData('transfer', [
		chain.wallets[to].address,
		parseUnits(amount, chain.tokens.USDC.decimals),
	]);
	return devnet.rpc<string>(chain.chainId, 'eth_sendTransaction', [
		{ from: chain.wallets[from].address, to: chain.tokens.USDC.address, data },
	]);
}

export async function headOf(devnet: Devnet, chainId: string): Promise<number> {
	return Number(BigInt(await devnet.rpc<string>(chainId, 'eth_blockNumber')));
}

export interface Traffic {
	/** Transactions sent so far, with what they were. */
	sent: Array<{ hash: string; from: number; to: number; amount: string }>;
	/** Stops after the step under way; rejects if a step failed. */
	stop(): Promise<void>;
}

/**
 * One step every `everyMs`, in a fixed rotation: USDC 1 → 5, 2 → 6 and 5 → 3 (the transfer log
 * watches wallets 5 and 6, both directions), 3 → 8 (not watched), and an empty block. Amounts vary
 * per step and stay far below the wallets' balances.
 */
export function startTraffic(devnet: Devnet, chain: DevnetChain, everyMs = 200): Traffic {
	const sent: Traffic['sent'] = [];
	let stopped = false;
	const steps: Array<{ from: number; to: number } | 'mine'> = [
		{ from: 1, to: 5 },
		{ from: 2, to: 6 },
		{ from: 5, to: 3 },
		{ from: 3, to: 8 },
		'mine',
	];
	const loop = (async () => {
		for (let step = 0; !stopped; step++) {
			const what = steps[step % steps.length];
			if (what === 'mine') await devnet.mine(chain.chainId, 1);
			else {
				// Wallet 5 pays on from what it received (1.xx USDC and up).
				const amount =
					what.from === 5 ? '0.25' : `${(step % 50) + 1}.${String(step % 97).padStart(2, '0')}`;
				sent.push({
					hash: await sendUsdc(devnet, chain, what.from, what.to, amount),
					...what,
					amount,
				});
			}
			await new Promise((resolve) => setTimeout(resolve, everyMs));
		}
	})();
	// Surfaces in stop(); until then a failed step must not end the process as an unhandled rejection.
	loop.catch(() => undefined);
	return {
		sent,
		stop: async () => {
			stopped = true;
			await loop;
		},
	};
}
