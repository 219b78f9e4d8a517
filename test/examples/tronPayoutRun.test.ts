/**
 * The USDT payout run on Tron (examples/tron-usdt-payout-run.devnet.json, as saved, through n8n-core's
 * engine) on the devnet's Tron stand-in, chain 1001, with the playground's Tron key (its payees
 * listed, USDT capped per transfer): every payee row is paid exactly its amount, the row to an
 * address off the list is refused by the Signer naming the rule and the address, and a second run
 * pays nobody. The approver approves (the Wait node's answer); every other node runs as saved.
 */
import type { Devnet, DevnetTron } from '../../devnet';
import {
	TRON_PAYOUT_CHAIN_ID,
	TRON_PAYOUT_WALLET_INDEX,
	tronPayoutKey,
} from '../../playground/prepare';
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

const ledger = payoutLedger('tron-payout-run-');

/** The example's stand-in sheet, by devnet Tron wallet: Dave twice, Erin, Frank (no account yet), and Mallory (not a payee). */
const ROWS = [
	{ rowId: '1', wallet: 2, units: 1_250_000_000n },
	{ rowId: '2', wallet: 3, units: 980_500_000n },
	{ rowId: '3', wallet: 4, units: 400_000_000n },
	{ rowId: '4', wallet: 2, units: 75_250_000n },
	{ rowId: '5', wallet: 0, units: 300_000_000n },
];
const PAID_ROWS = ROWS.slice(0, 4);

let devnet: Devnet;
let nile: DevnetTron;
useDevnet((started) => {
	devnet = started;
	nile = started.tron.find((chain) => chain.chainId === TRON_PAYOUT_CHAIN_ID) as DevnetTron;
});

/** The example as saved, the approver approving. */
const runExample = () =>
	runApprovedExample('tron-usdt-payout-run.devnet.json', {
		expandApi: devnetExpandApi(devnet),
		expandTronKeyApi: tronPayoutKey(devnet, ledger),
	});

/** Every wallet's USDT on chain 1001, by wallet index. */
const usdtBalances = () =>
	nile.wallets.map((wallet) => nile.chain.usdt.balanceOf(wallet.hexAddress).toString());

function expectedAfter(before: string[]): string[] {
	const after = before.map(BigInt);
	for (const row of PAID_ROWS) {
		after[row.wallet] += row.units;
		after[TRON_PAYOUT_WALLET_INDEX] -= row.units;
	}
	return after.map(String);
}

test('approved: every payee row paid exactly its USDT once; the row to an address off Allowed Recipients refused by the Signer, naming the rule and the address', async () => {
	const before = usdtBalances();
	const result = await runExample();
	expect(result.error).toBeUndefined();
	expect(usdtBalances()).toEqual(expectedAfter(before));
	const rows = payoutResults(result);
	expect(rows.map((row) => [row.rowId, row.status])).toEqual(FOUR_PAID_ONE_REFUSED);
	for (const row of rows.slice(0, 4)) {
		const landed = nile.chain.transaction(row.transactionHash);
		expect({ row: row.rowId, result: landed?.contractRet }).toEqual({
			row: row.rowId,
			result: 'SUCCESS',
		});
		expect(row.blockNumber).toBe(String(landed?.blockNumber));
	}
	expect(rows[4].reason).toContain('"allowedRecipients"');
	expect(rows[4].reason).toContain(nile.wallets[0].address);
	expect(rows[4].transactionHash).toBe('');
	const approval = result.output('Preflight')[0].json as { totals: Record<string, object> };
	expect(approval.totals).toEqual({ USDT: { units: '3005750000', amount: '3005.75' } });
});

// After the first test's run, with the same run ID and ledger.
test('run again: nobody paid twice, every payee row "paid earlier", the off-list row refused again', async () => {
	const before = usdtBalances();
	const result = await runExample();
	expect(result.error).toBeUndefined();
	expect(usdtBalances()).toEqual(before);
	expect(payoutStatuses(result)).toEqual(FOUR_PAID_EARLIER_ONE_REFUSED);
});
