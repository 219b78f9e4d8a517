/**
 * Two payouts of the same TON to the same payee on the devnet's chain 1101. In one execution they take
 * consecutive seqnos: two messages, both accepted, each read landed by Check Payouts. Across executions
 * the wallet's seqno is read again from the chain: a payout not sent yet leaves it where it was, and a
 * second payout ID with the same content signed within the same second is the same message, byte for
 * byte, which the wallet accepts once while both read as paid. Shown with the binding off, then what the
 * Signer does: the second payout ID is refused (oneItemPerTransaction), naming the first.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { Address } from '@ton/core';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet, DevnetTon } from '../../../../devnet';
import type { TonWallet } from '../../../../devnet/chains/ton';
import { checkedPayouts } from '../../../helpers/checkedPayouts';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { sendTransactionNode } from '../../../helpers/sendTransactionNode';
import { transactionIdBindingOff } from '../../../helpers/transactionIdBindingOff';
import { useDevnet } from '../../../helpers/useDevnet';

const ledgerFolder = mkdtempSync(join(tmpdir(), 'expand-ton-identical-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledgerFolder;

let devnet: Devnet;
let testnet: DevnetTon;
useDevnet((started) => {
	devnet = started;
	testnet = started.ton.find((chain) => chain.chainId === '1101') as DevnetTon;
});

const bip39W5 = (index: number) =>
	testnet.wallets.find(
		(wallet) => wallet.source === 'bip39' && wallet.index === index && wallet.version === 'v5r1',
	) as TonWallet;

const credentials = () =>
	devnetCredentials(devnet, {
		ton: {
			keyType: 'mnemonic',
			mnemonic: testnet.mnemonic,
			walletVersion: 'W5',
			payoutLedgerFolder: ledgerFolder,
			rpcUrls: `1101 = ${testnet.rpcUrl}`,
		},
	});

/** Items (each with its payout ID) → the Signer paying 1 TON from account 0 to account 2 → Send when `sent`. */
async function pay(ids: string[], sent = true) {
	const result = await runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: { items: JSON.stringify(ids.map((id) => ({ id }))) },
			},
			{
				name: 'Sign',
				type: SIGNER,
				parameters: {
					chainFamily: 'ton',
					tonChainId: '1101',
					operation: 'transferTon',
					accountIndex: 0,
					recipient: bip39W5(2).address,
					amount: '1000000000',
					payoutId: '={{ $json.id }}',
				},
				continueOnFail: true,
			},
			...(sent ? [sendTransactionNode({}, true)] : []),
		],
		credentials(),
	);
	expect(result.error).toBeUndefined();
	return {
		signed: result.output('Sign').map((item) => item.json as IDataObject),
		sent: sent ? result.output('Send').map((item) => item.json as IDataObject) : [],
	};
}

/** The payments account 2 received from account 0 since the chain's transaction count `since`. */
const paidSince = (since: number) =>
	testnet.chain.blockchain
		.snapshot()
		.transactions.slice(since)
		.filter((transaction) => {
			const message = transaction.inMessage;
			return (
				message?.info.type === 'internal' &&
				message.info.src.equals(Address.parse(bip39W5(0).address)) &&
				message.info.dest.equals(Address.parse(bip39W5(2).address))
			);
		}).length;
const transactionCount = () => testnet.chain.blockchain.snapshot().transactions.length;

/** Freezes the clock (the Signer's valid_until and the chain's time) for `during`. */
async function atOneInstant<T>(during: () => Promise<T>): Promise<T> {
	const now = Date.now();
	const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
	try {
		return await during();
	} finally {
		clock.mockRestore();
	}
}

test('two payout IDs paying the same payee the same TON in one execution take two seqnos: two messages, both accepted, each read landed by Check Payouts', async () => {
	const since = transactionCount();
	const { signed, sent } = await pay(['invoice-1', 'invoice-2']);
	expect(signed.map((json) => json.payoutId)).toEqual(['invoice-1', 'invoice-2']);
	expect(signed[1].seqno).toBe(Number(signed[0].seqno) + 1);
	expect(signed[1].transactionHash).not.toBe(signed[0].transactionHash);
	expect(sent.map((json) => json.transactionHash)).toEqual(
		signed.map((json) => json.transactionHash),
	);
	expect(paidSince(since)).toBe(2);
	expect(await checkedPayouts('ton', credentials(), ['invoice-1', 'invoice-2'], 'signed')).toEqual([
		[signed[0].transactionHash, 'mined'],
		[signed[1].transactionHash, 'mined'],
	]);
});

test('without the binding, a second payout ID signed in the same second before the first was sent is the same message: the wallet accepts it once while both read as paid', async () => {
	const restore = transactionIdBindingOff();
	try {
		const since = transactionCount();
		const [first, second] = await atOneInstant(async () => [
			(await pay(['row-unbound-1'], false)).signed[0],
			(await pay(['row-unbound-2'], false)).signed[0],
		]);
		expect(second.transactionHash).toBe(first.transactionHash);
		expect(second.rawTransaction).toBe(first.rawTransaction);
		expect(second).toMatchObject({ payoutId: 'row-unbound-2', repeat: false });
		const sendBoc = async (signed: IDataObject) =>
			(await (
				await fetch(`${testnet.rpcUrl}/sendBoc`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ boc: signed.rawTransaction }),
				})
			).json()) as { ok: boolean };
		expect(await sendBoc(first)).toMatchObject({ ok: true });
		expect(await sendBoc(second)).toMatchObject({ ok: false });
		expect(paidSince(since)).toBe(1);
		expect(
			await checkedPayouts('ton', credentials(), ['row-unbound-1', 'row-unbound-2'], 'signed'),
		).toEqual([
			[first.transactionHash, 'mined'],
			[first.transactionHash, 'mined'],
		]);
	} finally {
		restore();
	}
});

test('the Signer refuses the second payout ID for the same message (oneItemPerTransaction), naming the first; the first payout ID gets its message back; the payee is paid once', async () => {
	const since = transactionCount();
	const [first, second, again] = await atOneInstant(async () => [
		(await pay(['row-1'], false)).signed[0],
		(await pay(['row-2'], false)).signed[0],
		(await pay(['row-1'])).signed[0],
	]);
	expect(first).toMatchObject({ payoutId: 'row-1', repeat: false });
	expect(second.error).toMatch(
		new RegExp(
			`^Refused by the rule "oneItemPerTransaction": transaction ${String(first.transactionHash)} was signed for payout ID "row-1" \\(item 0 of execution [^)]+\\) on [0-9T:.-]+Z; this is payout ID "row-2", and the same transaction would land once while both read as paid; payout ID "row-2" needs a transaction of its own: .+; nothing was signed \\(item 0\\)$`,
		),
	);
	expect(second.rawTransaction).toBeUndefined();
	expect(again).toMatchObject({
		payoutId: 'row-1',
		repeat: true,
		transactionHash: first.transactionHash,
	});
	expect(paidSince(since)).toBe(1);
});
