/**
 * A second Transfer SOL identical to one signed for another payout ID waits for the chain's next
 * blockhash (actions/solana/ownBlockhash.ts). The devnet's chain 901 makes a block only with a
 * transaction unless the test mines one, so it stands for a chain whose node makes no blocks: the
 * wait ends in a refusal that says so, not in one that calls the payout a duplicate, and the payout ID
 * is not used up. A cancelled execution stops the wait at once.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { ExecuteContext } from 'n8n-core';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { ITEMS, SIGNER, runPipeline, type NodeSpec } from '../../../helpers/n8n';
import { useDevnet } from '../../../helpers/useDevnet';

const folder = mkdtempSync(join(tmpdir(), 'expand-solana-blockhash-wait-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = folder;

let devnet: Devnet;
useDevnet((started) => (devnet = started));

/** Transfer SOL of 0.001 SOL to wallet 2, one item per payout ID, in one execution; goes on past an error. */
async function transfer(payoutIds: string[]): Promise<IDataObject[]> {
	const result = await runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: { items: JSON.stringify(payoutIds.map((payoutId) => ({ payoutId }))) },
			},
			{
				name: 'Sign',
				type: SIGNER,
				parameters: {
					chainFamily: 'solana',
					solanaChainId: '901',
					operation: 'transferSol',
					recipient: devnet.solana.wallets[2].address,
					amount: '1000000',
					payoutId: '={{ $json.payoutId }}',
				},
				continueOnFail: true,
			} as NodeSpec,
		],
		devnetCredentials(devnet, {
			solana: {
				keyType: 'secretKey',
				secretKey: devnet.solana.wallets[1].secretKey,
				payoutLedgerFolder: folder,
			},
		}),
	);
	expect(result.error).toBeUndefined();
	return result.output('Sign').map((item) => item.json);
}

test('no new blockhash within the wait: the second identical transfer is refused as a chain making no blocks, naming its blockhash, after about 10 s; run again once a block comes, its payout ID is signed', async () => {
	const started = Date.now();
	const [first, second] = await transfer(['stall-1', 'stall-2']);
	expect(first).toMatchObject({ payoutId: 'stall-1', repeat: false });
	expect(second).toEqual({
		error: `Refused by the rule "oneItemPerTransaction": the chain's node showed no new blockhash within 10 s after ${String(first.blockhash)}, and on it this transfer is the transaction signed for another payout or item; run again once it makes blocks; nothing was signed (item 1)`,
	});
	expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);

	devnet.solana.chain.mine();
	const [again] = await transfer(['stall-2']);
	expect(again).toMatchObject({ payoutId: 'stall-2', repeat: false });
	expect(again.blockhash).not.toBe(first.blockhash);
}, 60_000);

test('the execution cancelled while the second identical transfer waits: the wait stops at once and nothing is signed for it', async () => {
	devnet.solana.chain.mine();
	const cancel = new AbortController();
	const signal = jest
		.spyOn(ExecuteContext.prototype, 'getExecutionCancelSignal')
		.mockReturnValue(cancel.signal);
	const timer = setTimeout(() => cancel.abort(), 1000);
	const started = Date.now();
	try {
		const [first, second] = await transfer(['cancel-1', 'cancel-2']);
		expect(first).toMatchObject({ payoutId: 'cancel-1', repeat: false });
		expect(second).toEqual({
			error: `The execution was cancelled while the transfer waited for a new blockhash after ${String(first.blockhash)}; nothing was signed (item 1)`,
		});
		expect(Date.now() - started).toBeLessThan(5000);
	} finally {
		clearTimeout(timer);
		signal.mockRestore();
	}
}, 60_000);

test('two executions without payout IDs paying the same payee the same SOL on one blockhash: the second is built on the next blockhash, a transaction of its own, not signed again as the first (which only a retry of the same bytes is)', async () => {
	devnet.solana.chain.mine();
	const [first] = await transfer(['']);
	expect(first.error).toBeUndefined();
	const timer = setInterval(() => devnet.solana.chain.mine(), 200);
	let second: IDataObject;
	try {
		[second] = await transfer(['']);
	} finally {
		clearInterval(timer);
	}
	expect(second.error).toBeUndefined();
	expect(second.transactionHash).not.toBe(first.transactionHash);
	expect(second.blockhash).not.toBe(first.blockhash);
}, 60_000);
