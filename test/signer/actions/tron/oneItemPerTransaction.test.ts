/**
 * One item per Tron transaction ID across executions, in the folder and in the PostgreSQL ledger: a
 * Tron transaction names no nonce, so the same unsigned bytes handed in again (a replayed input item,
 * a sheet row copied under a new payout ID) are the same transaction, which lands once. The ledger's
 * record of each signed transaction ID, created exclusively, refuses it for another payout ID in a
 * later execution, naming what it was signed for, and between a payout ID and an item without one;
 * the same payout ID gets its transaction back. Without payout IDs on either side it is signed again
 * (nothing is kept exactly once across executions without them, and the same bytes pay once).
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { id } from 'ethers';
import type { IDataObject } from 'n8n-workflow';
import { TronWeb } from 'tronweb';

import type { Devnet, DevnetTron } from '../../../../devnet';
import { TronAccount } from '../../../../packages/signer/nodes/ExpandSigner/families/tron/keys';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { devnetPerStore } from '../../../helpers/devnetPerStore';
import { useDevnet } from '../../../helpers/useDevnet';
import { LEDGER_STORES, ledgerStores, type TestLedger } from '../../../helpers/ledgerStores';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { sendTransactionNode } from '../../../helpers/sendTransactionNode';

const root = mkdtempSync(join(tmpdir(), 'expand-tron-txid-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = root;
const stores = ledgerStores(root);

let devnet: Devnet;
let ledger: TestLedger;
const nile = () => devnet.tron.find((chain) => chain.chainId === '1001') as DevnetTron;
const treasury = () => nile().wallets[1];
const payee = () => nile().wallets[2];

/** An unsigned transfer of 1 TRX from the treasury to the payee, as tronweb builds it on the node's head block. */
const unsignedTransfer = async () =>
	await new TronWeb({ fullHost: nile().rpcUrl }).transactionBuilder.sendTrx(
		payee().address,
		1_000_000,
		treasury().address,
	);

/** Items → Expand Signer (Sign Transaction, From Input Item, the item's payout ID) → Send, in an execution of its own. */
async function signAndSend(items: IDataObject[], ledgerFields: IDataObject = ledger.fields) {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: {
					chainFamily: 'tron',
					tronChainId: '1001',
					operation: 'signTransaction',
					payoutId: '={{ $json.payoutId ?? "" }}',
				},
				continueOnFail: true,
			},
			sendTransactionNode({}, true),
		],
		{
			...devnetCredentials(devnet),
			expandTronKeyApi: {
				keyType: 'privateKey',
				privateKey: treasury().privateKey,
				rpcUrls: `1001 = ${nile().rpcUrl}`,
				...ledgerFields,
			} as never,
		},
	);
	expect(result.error).toBeUndefined();
	return result.output('Sign').map((item) => item.json);
}

const paid = () => nile().chain.balance(payee().hexAddress);

describe.each(LEDGER_STORES)('%s ledger', (kind) => {
	devnetPerStore(stores, kind, (started, created) => ([devnet, ledger] = [started, created]));

	test('one unsigned transaction signed under payout ID "row-1" is refused under "row-2" in a later execution, naming the first; "row-1" again returns its transaction; the payee is paid once', async () => {
		const transaction = await unsignedTransfer();
		const before = paid();
		const [first] = await signAndSend([{ payoutId: 'row-1', transaction }]);
		expect(first).toMatchObject({ payoutId: 'row-1', transactionHash: transaction.txID });
		expect(
			(await ledger.names()).filter((name) => name.startsWith('expand-txid-1001-')),
		).toHaveLength(1);

		const [second] = await signAndSend([{ payoutId: 'row-2', transaction }]);
		expect(second.error).toMatch(
			new RegExp(
				`^Refused by the rule "oneItemPerTransaction": transaction ${transaction.txID} was signed for payout ID "row-1" \\(item 0 of execution [^)]+\\) on [0-9T:.-]+Z; this is payout ID "row-2", and the same transaction would land once while both read as paid; payout ID "row-2" needs a transaction of its own: a transfer the Signer builds is built anew when run again, one handed in needs other bytes \\(another nonce, blockhash, reference block or seqno\\); nothing was signed \\(item 0\\)$`,
			),
		);
		const [again] = await signAndSend([{ payoutId: 'row-1', transaction }]);
		expect(again).toMatchObject({
			payoutId: 'row-1',
			repeat: true,
			transactionHash: transaction.txID,
		});
		expect(paid() - before).toBe(1_000_000n);
	});

	test("without payout IDs: the bytes signed for item 0 of one execution are signed again in the next (a retry after a failed send), the same transaction, which pays once; a payout ID is refused for them, and an item without one for a payout ID's, each saying what to do", async () => {
		const transaction = await unsignedTransfer();
		const before = paid();
		const [first] = await signAndSend([{ transaction }]);
		expect(first).toMatchObject({ transactionHash: transaction.txID, repeat: false });
		const [again] = await signAndSend([{ transaction }]);
		expect(again).toMatchObject({ transactionHash: transaction.txID, repeat: false });
		expect(again.rawTransaction).toBe(first.rawTransaction);
		expect(paid() - before).toBe(1_000_000n);

		const [withId] = await signAndSend([{ payoutId: 'row-late', transaction }]);
		expect(withId.error).toMatch(
			new RegExp(
				`^Refused by the rule "oneItemPerTransaction": transaction ${transaction.txID} was signed for item 0 of execution [^ ]+ on [0-9T:.-]+Z; this is payout ID "row-late", and the same transaction would land once while both read as paid; the earlier signature, made without a payout ID, is byte for byte this transaction: if this is that payment, send it again \\(give payouts a payout ID from their first run, so reruns get their transaction back\\); else payout ID "row-late" needs a transaction of its own: .+; nothing was signed \\(item 0\\)$`,
			),
		);

		nile().chain.mine();
		const other = await unsignedTransfer();
		expect((await signAndSend([{ payoutId: 'row-named', transaction: other }]))[0]).toMatchObject({
			payoutId: 'row-named',
			transactionHash: other.txID,
		});
		const [anonymous] = await signAndSend([{ transaction: other }]);
		expect(anonymous.error).toMatch(
			new RegExp(
				`^Refused by the rule "oneItemPerTransaction": transaction ${other.txID} was signed for payout ID "row-named" \\(item 0 of execution [^)]+\\) on [0-9T:.-]+Z; this is another item, and the same transaction would land once while both read as paid; if this is that payout, run it with payout ID "row-named" to get its transaction back; else this item needs a transaction of its own: .+; nothing was signed \\(item 0\\)$`,
			),
		);
		expect(paid() - before).toBe(2_000_000n);
	});

	test("another worker records the transaction ID for its own payout while this one signs it: this one's signature is dropped and refused, naming the other's record; the payout ID is not used up", async () => {
		const transaction = await unsignedTransfer();
		const other = {
			chainId: '1001',
			transactionHash: transaction.txID,
			payoutId: 'row-other',
			executionId: 'another-worker-7',
			node: 'Sign',
			itemIndex: 3,
			signedAt: '2026-11-26T12:00:00.000Z',
		};
		const key = TronAccount.prototype.privateKey;
		let plantedWhileSigning = false;
		const signing = jest.spyOn(TronAccount.prototype, 'privateKey').mockImplementation(function (
			this: TronAccount,
		) {
			signing.mockRestore();
			plantedWhileSigning = true;
			ledger.createNow(
				`expand-txid-1001-${id(transaction.txID).slice(2)}.json`,
				JSON.stringify(other),
			);
			return key.call(this);
		});
		const before = paid();
		const [raced] = await signAndSend([{ payoutId: 'row-race', transaction }]);
		expect(plantedWhileSigning).toBe(true);
		expect(raced).toEqual({
			error: `Refused by the rule "oneItemPerTransaction": transaction ${transaction.txID} was signed for payout ID "row-other" (item 3 of execution another-worker-7) on 2026-11-26T12:00:00.000Z; this is payout ID "row-race", and the same transaction would land once while both read as paid; payout ID "row-race" needs a transaction of its own: a transfer the Signer builds is built anew when run again, one handed in needs other bytes (another nonce, blockhash, reference block or seqno); nothing was signed (item 0)`,
		});
		expect(paid()).toBe(before);
		// tronweb builds on the head block and gives the transaction the block's time: only a new block makes new bytes.
		nile().chain.mine();
		const [again] = await signAndSend([
			{ payoutId: 'row-race', transaction: await unsignedTransfer() },
		]);
		expect(again).toMatchObject({ payoutId: 'row-race', repeat: false });
	});
});

describe('no payout ledger', () => {
	useDevnet((started) => (devnet = started));

	test('the same bytes as two items of one execution: the second is refused in memory, naming the first item; the payee is paid once', async () => {
		const transaction = await unsignedTransfer();
		const before = paid();
		const [first, second] = await signAndSend([{ transaction }, { transaction }], {});
		expect(first).toMatchObject({ transactionHash: transaction.txID });
		expect(second.error).toMatch(
			new RegExp(
				`^Refused by the rule "oneItemPerTransaction": transaction ${transaction.txID} was signed for item 0 of execution [^ ]+ on [0-9T:.-]+Z; this is another item, and the same transaction would land once while both read as paid; the earlier signature is byte for byte this transaction: send that one; this item needs a transaction of its own: a transfer the Signer builds is built anew when run again, one handed in needs other bytes \\(another nonce, blockhash, reference block or seqno\\); nothing was signed \\(item 1\\)$`,
			),
		);
		expect(paid() - before).toBe(1_000_000n);
	});
});
