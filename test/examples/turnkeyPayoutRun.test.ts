/**
 * The stablecoin payout run via Turnkey (examples/turnkey-payout-run.devnet.json, as saved, through
 * n8n-core's engine) against the devnet's Turnkey stand-in, with the playground's EVM signing
 * credential of Key Type Turnkey (its payees listed, USDC capped per transfer): every payee row
 * signed by Turnkey once, sent and paid exactly its amount; the row off Allowed Recipients refused
 * by the Signer with nothing asked of Turnkey; a rerun pays nobody and Turnkey signs nothing new.
 */
import type { Devnet } from '../../devnet';
import { CUSTODY_CHAIN_ID, turnkeyPayoutKey } from '../../playground/prepare';
// The engine is released after the file's tests.
import '../helpers/n8n';
import { balanceOf } from '../helpers/chainReads';
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

const ledger = payoutLedger('turnkey-payout-run-');
const MALLORY = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ROWS = [
	{ address: '0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec', units: 1_250_000_000n },
	{ address: '0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097', units: 980_500_000n },
	{ address: '0xcd3B766CCDd6AE721141F452C550Ca635964ce71', units: 400_000_000n },
	{ address: '0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec', units: 75_250_000n },
];

let devnet: Devnet;
useDevnet((started) => {
	devnet = started;
});

const runExample = () =>
	runApprovedExample('turnkey-payout-run.devnet.json', {
		expandApi: devnetExpandApi(devnet),
		expandSignerApi: turnkeyPayoutKey(devnet, ledger),
	});

async function holdings(): Promise<Record<string, string>> {
	const chain = devnet.chains.find((entry) => entry.chainId === CUSTODY_CHAIN_ID)!;
	const state: Record<string, string> = {};
	for (const owner of [
		devnet.turnkey.accounts.evm,
		...new Set(ROWS.map((row) => row.address)),
		MALLORY,
	])
		state[owner] = String(
			await balanceOf(devnet, CUSTODY_CHAIN_ID, owner, chain.tokens.USDC.address),
		);
	return state;
}

const turnkeyCounts = () => ({
	activities: devnet.turnkey.activities().length,
	signatures: devnet.turnkey.signatures,
});

test('approved: every payee row signed by Turnkey once and paid exactly its USDC; the row off Allowed Recipients refused naming the rule and the address, nothing asked of Turnkey for it', async () => {
	const before = await holdings();
	const counts = turnkeyCounts();
	const result = await runExample();
	expect(result.error).toBeUndefined();
	expect(payoutStatuses(result)).toEqual(FOUR_PAID_ONE_REFUSED);
	const rows = payoutResults(result);
	expect(rows[4].reason).toContain('"allowedRecipients"');
	expect(rows[4].reason).toContain(MALLORY);
	expect(turnkeyCounts()).toEqual({
		activities: counts.activities + 4,
		signatures: counts.signatures + 4,
	});
	const expected = { ...before };
	const payer = devnet.turnkey.accounts.evm;
	for (const row of ROWS) {
		expected[row.address] = String(BigInt(expected[row.address]) + row.units);
		expected[payer] = String(BigInt(expected[payer]) - row.units);
	}
	expect(await holdings()).toEqual(expected);
});

test('run again: nobody paid twice, every payee row "paid earlier", no new Turnkey activity or signature', async () => {
	const before = await holdings();
	const counts = turnkeyCounts();
	const result = await runExample();
	expect(result.error).toBeUndefined();
	expect(payoutStatuses(result)).toEqual(FOUR_PAID_EARLIER_ONE_REFUSED);
	expect(turnkeyCounts()).toEqual(counts);
	expect(await holdings()).toEqual(before);
});
