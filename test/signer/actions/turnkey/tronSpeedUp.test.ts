/**
 * Speed Up Payout of a Tron payout signed through a Turnkey key (chain 1001, its full node pinned): the
 * payout is signed and never sent; once it has expired and the solidified chain shows it in no block,
 * Turnkey signs its replacement (a new activity over the new raw_data, checked as every answer is), it
 * lands, and a rerun of the payout returns it without asking Turnkey again: paid once.
 */
import { Wallet } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet, DevnetTron } from '../../../../devnet';
import {
	base58Address,
	recoveredAddress,
} from '../../../../packages/signer/nodes/ExpandSigner/families/tron';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { ledgerFolder } from '../../../helpers/ledgerFolder';
import { movedClock } from '../../../helpers/movedClock';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { sendTransactionNode } from '../../../helpers/sendTransactionNode';
import { useDevnet } from '../../../helpers/useDevnet';
import { turnkeyKey } from './turnkeyRun';

const CHAIN = '1001';
/** The Signer's transactions stay valid 5 minutes; a little more makes every one signed before it expire. */
const PAST_EXPIRY_MS = 6 * 60 * 1000;
const folder = ledgerFolder('expand-turnkey-tron-speed-up-');

let devnet: Devnet;
let nile: DevnetTron;
useDevnet((started) => {
	devnet = started;
	nile = started.tron.find((chain) => chain.chainId === CHAIN) as DevnetTron;
});
const clock = movedClock();

/** The Signer on one item with the Turnkey Tron key, then Send when `send`: the Signer's output. */
async function signer(parameters: IDataObject, send = false): Promise<IDataObject> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: { chainFamily: 'tron', tronChainId: CHAIN, ...parameters } as never,
				continueOnFail: true,
			},
			...(send ? [sendTransactionNode()] : []),
		],
		devnetCredentials(devnet, {
			tron: turnkeyKey(devnet, devnet.turnkey.accounts.tron, folder, {
				rpcUrls: `${CHAIN} = ${nile.rpcUrl}`,
			}),
		}),
	);
	expect(result.error).toBeUndefined();
	return result.output('Sign')[0].json;
}

test('a Turnkey Tron payout never sent, expired: sped up through Turnkey, the replacement lands once and the rerun returns it', async () => {
	const to = `41${Wallet.createRandom().address.slice(2).toLowerCase()}`;
	const payout = {
		operation: 'transferTrx',
		recipient: base58Address(to),
		amount: '700000',
		payoutId: 'tk-tron-stuck',
	};
	const start = {
		activities: devnet.turnkey.activities().length,
		signatures: devnet.turnkey.signatures,
	};
	const original = await signer(payout);
	expect(original.error).toBeUndefined();
	expect(devnet.turnkey.signatures).toBe(start.signatures + 1);

	clock.pass(PAST_EXPIRY_MS);
	const replacement = await signer({ operation: 'speedUpPayout', payoutId: 'tk-tron-stuck' }, true);
	expect(replacement).toMatchObject({
		payoutId: 'tk-tron-stuck',
		repeat: false,
		replaces: original.transactionHash,
		replacements: 1,
		from: devnet.turnkey.accounts.tron,
	});
	expect(replacement.transactionHash).not.toBe(original.transactionHash);
	expect(recoveredAddress(String(replacement.transactionHash), String(replacement.signature))).toBe(
		devnet.turnkey.accounts.tron,
	);
	expect(devnet.turnkey.activities().length).toBe(start.activities + 2);
	expect(devnet.turnkey.signatures).toBe(start.signatures + 2);
	expect(nile.chain.transaction(String(replacement.transactionHash))).toBeDefined();
	expect(nile.chain.balance(to)).toBe(700_000n);

	const rerun = await signer(payout);
	expect(rerun).toMatchObject({
		repeat: true,
		alreadySent: true,
		transactionHash: replacement.transactionHash,
	});
	expect(devnet.turnkey.signatures).toBe(start.signatures + 2);
	expect(nile.chain.balance(to)).toBe(700_000n);
}, 60_000);
