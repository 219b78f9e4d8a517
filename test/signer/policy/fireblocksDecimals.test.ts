/**
 * Fireblocks takes a token amount in whole units: the Signer writes them from the token's decimals.
 * Read from a chain node the API names, a node that lies about decimals() multiplies what Fireblocks
 * moves (a 6-decimal token said to have 0: 1 USDC checked, 1,000,000 USDC created) while the policy,
 * the intent and the budgets count the smallest units. So a token's decimals come from a limit line
 * of the policy or from a node the credential pins; else the item is refused before any request.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { getAddress, Interface } from 'ethers';

import type { Devnet } from '../../../devnet';
import { useDevnet } from '../../helpers/useDevnet';
import { runFireblocks } from '../actions/fireblocks/fireblocksRun';

const RECIPIENT = getAddress('0x' + 'd7'.repeat(20));
const erc20 = new Interface(['function transfer(address,uint256)']);

const ledger = mkdtempSync(join(tmpdir(), 'fireblocks-decimals-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledger;

let devnet: Devnet;
useDevnet((started) => (devnet = started));
afterAll(() => rmSync(ledger, { recursive: true, force: true }));

const usdc = () => devnet.fireblocks.assets.USDC_DEVNET.address as string;
/** Create Transaction of a transaction arriving in the item: 1 USDC (1,000,000 smallest units) to RECIPIENT. */
const createUsdc = (payoutId: string) => ({
	operation: 'createTransaction',
	source: 'input',
	payoutId,
});
const usdcItem = () => ({
	chainId: '31337',
	from: devnet.fireblocks.addresses['31337'],
	to: usdc(),
	value: '0',
	data: erc20.encodeFunctionData('transfer', [RECIPIENT, 1_000_000n]),
});

test('a token payout whose decimals only a node the API names gives is refused before any request to Fireblocks; pinned, or written in a limit line, it is created in exact whole units', async () => {
	devnet.fireblocks.autoApprove = false;
	const before = devnet.fireblocks.requests.length;
	const [unpinned] = await runFireblocks(devnet, ledger, [usdcItem()], createUsdc('fbd-unpinned'), {
		policy: { rpcUrls: '' },
	});
	expect(unpinned.error).toBe(
		`Refused by the rule "rpcUrls": Fireblocks takes token ${usdc().toLowerCase()}'s amount in whole units, written from its decimals, and only a chain node the API names could give them (a node lying about decimals multiplies what Fireblocks moves); pin chain 31337's node in the credential's RPC URLs or give the token's decimals in an amount limit line ("${usdc().toLowerCase()}:6 = …"); nothing was signed (item 0)`,
	);
	expect(devnet.fireblocks.requests.length).toBe(before);
	const [pinned] = await runFireblocks(devnet, ledger, [usdcItem()], createUsdc('fbd-pinned'));
	expect(pinned.error).toBeUndefined();
	expect(pinned.request).toMatchObject({ assetId: 'USDC_DEVNET', amount: '1' });
	const [written] = await runFireblocks(devnet, ledger, [usdcItem()], createUsdc('fbd-written'), {
		policy: { rpcUrls: '', maxPerTransaction: `${usdc()}:6 = 10`, requireIntent: 'never' },
	});
	expect(written.error).toBeUndefined();
	expect(written.request).toMatchObject({ assetId: 'USDC_DEVNET', amount: '1' });
});
