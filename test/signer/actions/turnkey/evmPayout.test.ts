/**
 * EVM payouts signed by a Turnkey wallet account (Key Type: Turnkey) on the devnet's Turnkey stand-in,
 * sent through Expand's send on chain 31337: the Signer's policy runs first, a payout's exact request
 * is kept in the ledger before it is sent, a rerun never makes a second activity or signature, and
 * Turnkey's answer is never trusted.
 */
import { Transaction, Wallet } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { ledgerFolder } from '../../../helpers/ledgerFolder';
import { signAndSend } from '../../../helpers/signAndSend';
import { useDevnet } from '../../../helpers/useDevnet';
import { startLyingTurnkey } from './lyingTurnkey';
import { payEvm, turnkeyCounters, turnkeyKey } from './turnkeyRun';

const CHAIN = '31337';
const folder = ledgerFolder('expand-turnkey-evm-');

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const evmKey = (data: IDataObject = {}) =>
	turnkeyKey(devnet, devnet.turnkey.accounts.evm, folder, data);

const balanceOf = async (address: string) =>
	BigInt(await devnet.rpc<string>(CHAIN, 'eth_getBalance', [address, 'latest']));

const pay = (payoutId: string, to: string, data: IDataObject = {}, value = '1000') =>
	payEvm(devnet, evmKey(data), payoutId, to, value);

const counters = () => turnkeyCounters(devnet);

beforeEach(() => {
	devnet.turnkey.requireConsensus = false;
});

test('a payout signed by Turnkey is sent and lands once; its rerun returns the repeat with no new activity or signature', async () => {
	const payee = Wallet.createRandom().address;
	const before = counters();
	const first = await pay('tk-evm-1', payee);
	expect(first.signed[0]).toMatchObject({
		payoutId: 'tk-evm-1',
		repeat: false,
		from: devnet.turnkey.accounts.evm,
	});
	expect(first.sent[0].transactionHash).toBe(first.signed[0].transactionHash);
	expect(await balanceOf(payee)).toBe(1000n);
	expect(counters().activities).toBe(before.activities + 1);
	expect(counters().signatures).toBe(before.signatures + 1);
	// The signature recovers to Sign With.
	expect(Transaction.from(String(first.signed[0].rawTransaction)).from).toBe(
		devnet.turnkey.accounts.evm,
	);

	const again = await pay('tk-evm-1', payee);
	expect(again.signed[0]).toMatchObject({
		repeat: true,
		transactionHash: first.signed[0].transactionHash,
	});
	expect(await balanceOf(payee)).toBe(1000n);
	expect(counters().activities).toBe(before.activities + 1);
	expect(counters().signatures).toBe(before.signatures + 1);
});

test("Turnkey's 429s and a 503 are waited out through the shared pace: the payout is signed once, one activity, paid once", async () => {
	const payee = Wallet.createRandom().address;
	const before = counters();
	devnet.turnkey.faults.failNext(429, 2);
	devnet.turnkey.faults.failNext(503);
	const paid = await pay('tk-evm-busy', payee);
	expect(paid.signed[0]).toMatchObject({ payoutId: 'tk-evm-busy', repeat: false });
	expect(await balanceOf(payee)).toBe(1000n);
	expect(counters().activities).toBe(before.activities + 1);
	expect(counters().signatures).toBe(before.signatures + 1);
	// The three refused tries and the one that signed.
	const statuses = devnet.turnkey
		.requests()
		.slice(before.requests)
		.filter((request) => request.path === '/public/v1/submit/sign_transaction')
		.map((request) => request.status);
	expect(statuses).toEqual([429, 429, 503, 200]);
});

test('a sign answer lost on every try fails the item; the rerun resends the kept request byte for byte: one activity, one signature, paid once', async () => {
	const payee = Wallet.createRandom().address;
	const before = counters();
	devnet.turnkey.faults.dropNextSignAnswer(3);
	const lost = await pay('tk-evm-lost', payee);
	expect(lost.signed[0].error).toMatch(
		/Turnkey did not answer \/public\/v1\/submit\/sign_transaction/,
	);
	expect(lost.sent[0].transactionHash).toBeUndefined();
	const submitted = devnet.turnkey
		.requests()
		.slice(before.requests)
		.filter((request) => request.path === '/public/v1/submit/sign_transaction');
	expect(submitted).toHaveLength(3);
	expect(new Set(submitted.map((request) => request.body)).size).toBe(1);

	const rerun = await pay('tk-evm-lost', payee);
	expect(rerun.signed[0]).toMatchObject({ repeat: false, payoutId: 'tk-evm-lost' });
	const resent = devnet.turnkey
		.requests()
		.slice(before.requests)
		.filter((request) => request.path === '/public/v1/submit/sign_transaction');
	expect(resent).toHaveLength(4);
	expect(resent[3].body).toBe(submitted[0].body);
	expect(counters().activities).toBe(before.activities + 1);
	expect(counters().signatures).toBe(before.signatures + 1);
	expect(rerun.sent[0].transactionHash).toBe(rerun.signed[0].transactionHash);
	expect(await balanceOf(payee)).toBe(1000n);
});

test('an activity held for consensus fails the item naming it; approved on the devnet, the rerun signs it once', async () => {
	const payee = Wallet.createRandom().address;
	const before = counters();
	devnet.turnkey.requireConsensus = true;
	const held = await pay('tk-evm-consensus', payee);
	const activity = devnet.turnkey.activities()[before.activities];
	expect(activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
	expect(held.signed[0].error).toBe(
		`Turnkey holds sign-transaction activity ${activity.id} for consensus (ACTIVITY_STATUS_CONSENSUS_NEEDED): approve it in Turnkey, then run the item again; a rerun with the same payout ID picks up this activity and signs nothing new (item 0)`,
	);
	expect(devnet.turnkey.signatures).toBe(before.signatures);
	devnet.turnkey.approve(activity.id);
	devnet.turnkey.requireConsensus = false;
	const rerun = await pay('tk-evm-consensus', payee);
	expect(rerun.signed[0]).toMatchObject({ repeat: false });
	expect(counters().activities).toBe(before.activities + 1);
	expect(counters().signatures).toBe(before.signatures + 1);
	expect(await balanceOf(payee)).toBe(1000n);
}, 30_000);

test('an off-policy recipient is refused with no request to Turnkey', async () => {
	const before = counters();
	const allowed = Wallet.createRandom().address;
	const outsider = Wallet.createRandom().address;
	const refused = await pay('tk-evm-off', outsider, { allowedRecipients: allowed });
	expect(refused.signed[0].error).toMatch(/^Refused by the rule "allowedRecipients"/);
	expect(counters()).toEqual(before);
});

test('Sign Message with a Turnkey key is refused naming the operation and the key type, with no request', async () => {
	const before = counters();
	const { signed } = await signAndSend(
		[{}],
		{ operation: 'signMessage', message: 'hello' } as never,
		devnetCredentials(devnet, { signer: evmKey() }),
	);
	expect(signed[0].error).toMatch(
		/Sign Message is not served by a Turnkey key \(the credential's Key Type: Turnkey\)/,
	);
	expect(counters()).toEqual(before);
});

test("Turnkey's answer signed by another key (a lying server in front) is refused naming the activity; nothing is sent", async () => {
	const other = Wallet.createRandom();
	const proxy = await startLyingTurnkey(devnet.turnkey.url, (signedHex) => {
		const tx = Transaction.from(`0x${signedHex.replace(/^0x/, '')}`);
		const forged = Transaction.from(tx.unsignedSerialized);
		forged.signature = other.signingKey.sign(forged.unsignedHash);
		return forged.serialized.slice(2);
	});
	try {
		const payee = Wallet.createRandom().address;
		const before = counters();
		const lied = await pay('tk-evm-lie', payee, {
			baseUrl: proxy.url,
		});
		const activity = devnet.turnkey.activities()[before.activities];
		expect(lied.signed[0].error).toBe(
			`Refused by the rule "turnkey": Turnkey's answer to activity ${activity.id} is not the transaction the Signer sent, signed by Sign With: its signature is by ${other.address}, not Sign With ${devnet.turnkey.accounts.evm}; nothing was signed (item 0)`,
		);
		expect(lied.sent[0].transactionHash).toBeUndefined();
		expect(await balanceOf(payee)).toBe(0n);
	} finally {
		await proxy.close();
	}
});

test('an activity held for consensus for an item without a payout ID fails saying a rerun would not pick it up: reject it, give the item a Payout ID', async () => {
	const before = counters();
	devnet.turnkey.requireConsensus = true;
	const { signed } = await signAndSend(
		[{}],
		{
			operation: 'signTransaction',
			source: 'fields',
			// Another chain: on 31337 an earlier test's nonce stays claimed while its signature may exist at Turnkey.
			chainId: '31338',
			to: Wallet.createRandom().address,
			value: '1000',
		} as never,
		devnetCredentials(devnet, { signer: evmKey() }),
	);
	const activity = devnet.turnkey.activities()[before.activities];
	expect(activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
	expect(signed[0].error).toBe(
		`Turnkey holds sign-transaction activity ${activity.id} for consensus (ACTIVITY_STATUS_CONSENSUS_NEEDED); the item has no payout ID, so running it again asks Turnkey for a new activity and never picks up this one: reject this one in Turnkey, then give the item a Payout ID and run it again (with one, a rerun picks up its held activity once approved) (item 0)`,
	);
	devnet.turnkey.reject(activity.id);
	expect(devnet.turnkey.signatures).toBe(before.signatures);
}, 30_000);
