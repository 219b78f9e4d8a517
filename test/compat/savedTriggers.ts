import * as path from 'node:path';

import { Interface, parseUnits, Wallet } from 'ethers';
import type { INode } from 'n8n-workflow';

import type { Devnet } from '../../devnet';
import { readSavedWorkflow } from '../../scripts/engine/savedWorkflow';
import { activateTrigger, type ActiveTrigger, TRIGGER, waitFor } from '../../scripts/engine/n8n';
import { fieldPaths, type RunDigest } from './digest';
import { migrated } from './savedRuns';
import { devnetCredentials } from '../helpers/devnetCredentials';

const erc20 = new Interface(['function transfer(address,uint256) returns (bool)']);

/** A saved workflow that starts with Expand Trigger: what happens on the chain while it is active, and how many items that gives. */
export interface SavedTrigger {
	file: string;
	activity(devnet: Devnet): Promise<void>;
	items: number;
}

/** A transfer of whole units of a token (or the native asset) from a devnet wallet, mined in its own block. */
async function send(
	devnet: Devnet,
	chainId: string,
	from: number,
	asset: string,
	to: string,
	amount: string,
): Promise<void> {
	const chain = devnet.chains.find((entry) => entry.chainId === chainId)!;
	const wallet = chain.wallets[from];
	const nonce = Number(
		BigInt(
			await devnet.rpc<string>(chainId, 'eth_getTransactionCount', [wallet.address, 'pending']),
		),
	);
	const token = asset === 'native' ? undefined : chain.tokens[asset];
	const transaction = token
		? {
				to: token.address,
				data: erc20.encodeFunctionData('transfer', [to, parseUnits(amount, token.decimals)]),
				value: 0n,
			}
		: { to, data: '0x', value: parseUnits(amount, 18) };
	const signed = await new Wallet(wallet.privateKey).signTransaction({
		...transaction,
		chainId: Number(chainId),
		gasLimit: 100000,
		nonce,
		maxFeePerGas: parseUnits('10', 'gwei'),
		maxPriorityFeePerGas: 1n,
	});
	await devnet.rpc(chainId, 'eth_sendRawTransaction', [signed]);
}

/** 2 ETH, then 0.5 ETH, from wallet 1 to wallet 2 on chain 31337. */
async function largeAndSmall(devnet: Devnet): Promise<void> {
	await send(devnet, '31337', 1, 'native', devnet.chains[0].wallets[2].address, '2');
	await send(devnet, '31337', 1, 'native', devnet.chains[0].wallets[2].address, '0.5');
}

/** The first release's trigger workflows, each given the chain activity its event watches for. */
export const savedTriggers: SavedTrigger[] = [
	{
		// Watches wallets 1-3 for transfers of at least 1 ETH, saved in wei ("1000000000000000000"): 2 ETH counts, 0.5 ETH does not.
		file: 'large-transfer-watch.devnet.904f474.json',
		activity: largeAndSmall,
		items: 1,
	},
	{
		// The same watch saved in whole units ("1") by a later 0.1.0 build.
		file: 'large-transfer-watch.devnet.json',
		activity: largeAndSmall,
		items: 1,
	},
	{
		// USDC into wallet 3 from 100 USDC on: 150 counts, 50 does not.
		file: 'usdc-received-slack.devnet.json',
		activity: async (devnet) => {
			await send(devnet, '31337', 1, 'USDC', devnet.chains[0].wallets[3].address, '150');
			await send(devnet, '31337', 1, 'USDC', devnet.chains[0].wallets[3].address, '50');
		},
		items: 1,
	},
	{
		// USDC in or out of wallets 5 and 6 on chain 31338.
		file: 'transfer-log.json',
		activity: async (devnet) => {
			await send(devnet, '31338', 1, 'USDC', devnet.chains[1].wallets[5].address, '10');
			await send(devnet, '31338', 1, 'DAI', devnet.chains[1].wallets[5].address, '10');
		},
		items: 1,
	},
	{
		file: 'block-log.json',
		activity: (devnet) => devnet.mine('31338', 3),
		items: 3,
	},
	{
		// WETH and LINK prices on the stream: one update each at subscription.
		file: 'price-alert.devnet.json',
		activity: async () => undefined,
		items: 2,
	},
];

const emittedItems = (trigger: ActiveTrigger) => trigger.emitted.flat();

/** Activates the saved workflow's trigger node as saved, makes its activity happen and digests what it emitted. */
export async function runSavedTrigger(
	devnet: Devnet,
	folder: string,
	run: SavedTrigger,
): Promise<RunDigest> {
	const workflow = migrated(readSavedWorkflow(path.join(folder, run.file)));
	const node = workflow.nodes.find((candidate) => candidate.type === TRIGGER) as INode;
	const credentials = devnetCredentials(devnet, { expand: { streamUrl: devnet.streamUrl } });
	const trigger = await activateTrigger(
		node.parameters,
		credentials,
		'trigger',
		{},
		node.typeVersion,
	);
	try {
		await run.activity(devnet);
		await waitFor(() => {
			trigger.tick();
			if (trigger.errors.length) throw trigger.errors[0];
			return emittedItems(trigger).length >= run.items;
		}, 30000);
		// A few more polls: anything extra would show in the count.
		for (let poll = 0; poll < 5; poll++) {
			trigger.tick();
			await new Promise((resolve) => setTimeout(resolve, 60));
		}
	} finally {
		await trigger.close();
	}
	const items = emittedItems(trigger);
	const fields = [...new Set(items.flatMap((item) => fieldPaths(item.json)))].sort();
	return {
		status: trigger.errors.length ? 'error' : 'success',
		nodes: { [node.name]: { items: items.length, fields } },
		moved: {},
	};
}
