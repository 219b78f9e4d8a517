/**
 * The USDC payout run on Stellar (examples/stellar-usdc-payout-run.devnet.json, as saved, through
 * n8n-core's engine) on the devnet's Stellar testnet, chain 1501, with the playground's Stellar key
 * (account 0 of the devnet mnemonic; accounts 1 to 3 listed, USDC capped per payment): every payee
 * row's USDC reaches the payee exactly once, to the unit, with the row's memo, as the devnet's Horizon
 * shows it; the row to an account off the list is refused by the Signer naming the rule and the
 * account; a second run pays nobody. The approver approves (the Wait node's answer); every other node
 * runs as saved.
 */
import { Asset, TransactionBuilder } from '@stellar/stellar-base';

import type { Devnet, DevnetStellar } from '../../devnet';
import { stellarPayoutChain, stellarPayoutKey } from '../../playground/prepare';
// The engine is released after the file's tests.
import '../helpers/n8n';
import { devnetExpandApi } from '../helpers/devnetCredentials';
import {
	FOUR_PAID_EARLIER_ONE_REFUSED,
	FOUR_PAID_ONE_REFUSED,
	payoutLedger,
	payoutResults,
	payoutStatuses,
	runApprovedExample,
} from '../helpers/examplePayoutRun';
import { useDevnet } from '../helpers/useDevnet';

const ledger = payoutLedger('stellar-payout-run-');

/** The example's stand-in sheet, by devnet Stellar account: Dave's exchange account twice (his memo ID), Erin, Frank; Mallory's account is none of the devnet's. */
const ROWS = [
	{ rowId: '1', account: 1, stroops: 12_500_000_000n, memo: ['id', '4410237'] },
	{ rowId: '2', account: 2, stroops: 9_805_000_000n, memo: ['text', 'Payroll November 2026'] },
	{ rowId: '3', account: 3, stroops: 4_000_000_000n, memo: ['text', 'Invoice 1042'] },
	{ rowId: '4', account: 1, stroops: 752_500_000n, memo: ['id', '4410237'] },
];
const MALLORY = 'GBAVSYGVUYK6OVFDMECPMYU2Z6U7QCJ7HYHV5J2SPWKQQW3RCC4LHUPA';
const PAYER = 0;

let devnet: Devnet;
let testnet: DevnetStellar;
useDevnet((started) => {
	devnet = started;
	testnet = stellarPayoutChain(started);
});

/** The example as saved, the approver approving. */
const runExample = () =>
	runApprovedExample('stellar-usdc-payout-run.devnet.json', {
		expandApi: devnetExpandApi(devnet),
		expandStellarKeyApi: stellarPayoutKey(devnet, ledger),
	});

async function horizon<T>(resource: string): Promise<T> {
	const response = await fetch(`${testnet.rpcUrl}/${resource}`);
	expect(response.status).toBe(200);
	return (await response.json()) as T;
}

interface HorizonBalance {
	asset_type: string;
	asset_code?: string;
	asset_issuer?: string;
	balance: string;
}

/** Every devnet Stellar account's USDC in stroops, as Horizon shows it, by account index. */
async function usdcBalances(): Promise<bigint[]> {
	return await Promise.all(
		testnet.wallets.map(async (wallet) => {
			const { balances } = await horizon<{ balances: HorizonBalance[] }>(
				`accounts/${wallet.publicKey}`,
			);
			const line = balances.find(
				(entry) =>
					entry.asset_code === testnet.usdc.code && entry.asset_issuer === testnet.usdc.issuer,
			);
			const [whole, fraction = ''] = (line?.balance ?? '0').split('.');
			return BigInt(whole) * 10_000_000n + BigInt(fraction.padEnd(7, '0'));
		}),
	);
}

function expectedAfter(before: bigint[]): bigint[] {
	const after = [...before];
	for (const row of ROWS) {
		after[row.account] += row.stroops;
		after[PAYER] -= row.stroops;
	}
	return after;
}

/** What a transaction did, as the devnet's Horizon answers it: its memo and its one payment, read by stellar-base. */
async function paymentOf(hash: string) {
	const record = await horizon<{
		successful: boolean;
		memo_type: string;
		memo?: string;
		envelope_xdr: string;
		source_account: string;
	}>(`transactions/${hash}`);
	const transaction = TransactionBuilder.fromXDR(record.envelope_xdr, testnet.passphrase);
	if (!('operations' in transaction)) throw new Error('a fee bump');
	expect(transaction.operations).toHaveLength(1);
	const [payment] = transaction.operations;
	if (payment.type !== 'payment') throw new Error(`a ${payment.type} operation`);
	return {
		successful: record.successful,
		from: record.source_account,
		to: payment.destination,
		asset: (payment.asset as Asset).toString(),
		amount: payment.amount,
		memo: [record.memo_type, record.memo],
	};
}

test("approved: every payee row paid exactly its USDC once with its memo (Horizon's word), on consecutive sequence numbers; the row to an account off Allowed Recipients refused by the Signer, naming the rule and the account", async () => {
	const before = await usdcBalances();
	const result = await runExample();
	expect(result.error).toBeUndefined();
	expect(await usdcBalances()).toEqual(expectedAfter(before));
	const rows = payoutResults(result);
	expect(rows.map((row) => [row.rowId, row.status])).toEqual(FOUR_PAID_ONE_REFUSED);
	for (const [index, row] of ROWS.entries()) {
		const paid = await paymentOf(rows[index].transactionHash);
		expect(paid).toEqual({
			successful: true,
			from: testnet.wallets[PAYER].publicKey,
			to: testnet.wallets[row.account].publicKey,
			asset: testnet.usdc.asset,
			amount: (Number(row.stroops) / 1e7).toFixed(7),
			memo: row.memo,
		});
	}
	const sequences = rows.slice(0, 4).map((row) => BigInt(row.sequence));
	expect(sequences).toEqual(sequences.map((_sequence, index) => sequences[0] + BigInt(index)));
	expect(rows.slice(0, 4).every((row) => /^\d+$/.test(row.ledger))).toBe(true);
	expect(rows[4].reason).toContain('"allowedRecipients"');
	expect(rows[4].reason).toContain(MALLORY);
	expect(rows[4].transactionHash).toBe('');
	const approval = result.output('Preflight')[0].json as { totals: Record<string, object> };
	expect(approval.totals).toEqual({ USDC: { units: '30057500000', amount: '3005.75' } });
});

// After the first test's run, with the same run ID and ledger.
test('run again: nobody paid twice, every payee row "paid earlier", nothing sent, the off-list row refused again', async () => {
	const before = await usdcBalances();
	const sent = devnet.faults.received.length;
	const result = await runExample();
	expect(result.error).toBeUndefined();
	expect(await usdcBalances()).toEqual(before);
	expect(
		devnet.faults.received.slice(sent).filter((call) => call.path === '/chain/sendtransaction'),
	).toEqual([]);
	expect(result.output('Not sent yet')).toEqual([]);
	expect(payoutStatuses(result)).toEqual(FOUR_PAID_EARLIER_ONE_REFUSED);
});
