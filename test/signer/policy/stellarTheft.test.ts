/**
 * Thefts through Expand Signer's Stellar policy, tried on the devnet's Stellar testnet (chain 1501, a
 * ledger stand-in that checks signature weights and thresholds with @stellar/stellar-base, behind the
 * Horizon the credential pins). The attacker writes what the Signer is handed: the API's answer
 * `{chainId, from, gas, data: <envelope XDR>}` beside the intent the Expand node wrote for the honest
 * form. Each test first carries the theft out with the rule off: the Signer in n8n's engine signs
 * (Sign Transaction From Input Item), Expand chain/sendtransaction sends, and the attacker's gain is
 * read back from the ledger. Then the same attack with the rule on: refused in words naming the item,
 * the rule and the value, nothing signed, the journal's entry a refusal, and nothing applied. A rule
 * with no "off" (an operation acting for another account) is bypassed by signing with stellar-base
 * directly, as a signer without it would.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import {
	Account,
	Asset,
	Keypair,
	Memo,
	MuxedAccount,
	Operation,
	TransactionBuilder,
	type xdr,
} from '@stellar/stellar-base';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet, DevnetStellar } from '../../../devnet';
import { devnetCredentials } from '../../helpers/devnetCredentials';
import { SIGNER, type NodeSpec } from '../../helpers/n8n';
import {
	expectRefused,
	expectSent,
	lastJournalEntry as journalEntry,
	signAndSend as signAndSendItems,
} from '../../helpers/signAndSend';
import { useDevnet } from '../../helpers/useDevnet';

const ledgerFolder = mkdtempSync(join(tmpdir(), 'expand-stellar-theft-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledgerFolder;

const CHAIN = '1501';
/** Stroops per whole unit: every Stellar asset has 7 decimals. */
const UNIT = 10_000_000n;

let devnet: Devnet;
let testnet: DevnetStellar;
useDevnet((started) => {
	devnet = started;
	testnet = started.stellar.find((chain) => chain.chainId === CHAIN) as DevnetStellar;
});

/** The devnet's funded accounts on 1501 (10,000 XLM, 100,000 USDC each); 3 issues RWA1. */
const wallet = (index: number) => testnet.wallets[index];
/** The payee the workflow means to pay (the exchange in the memo and muxed thefts). */
const payee = () => wallet(1);
const usdc = () => new Asset(testnet.usdc.code, testnet.usdc.issuer);

/** The attacker: an account of its own with a USDC trustline, opened on the ledger once. */
const attacker = Keypair.random();
let attackerOpened = false;

/** Builds, signs with `signers` and sends through Expand chain/sendtransaction: the ledger's record. */
async function submitSigned(
	signers: Keypair[],
	source: string,
	operations: xdr.Operation[],
): Promise<{ hash: string; successful: boolean }> {
	const transaction = new TransactionBuilder(accountOnLedger(source), {
		fee: '100',
		networkPassphrase: testnet.passphrase,
		timebounds: { minTime: 0, maxTime: testnet.chain.now + 300 },
	});
	operations.forEach((operation) => transaction.addOperation(operation));
	const built = transaction.build();
	built.sign(...signers);
	return await sendThroughApi(built.toEnvelope().toXDR('base64'));
}

/** The attacker's account, opened with a USDC trustline on first use. */
async function theAttacker(): Promise<string> {
	if (!attackerOpened) {
		testnet.chain.fund(attacker.publicKey(), 100n * UNIT);
		const trust = await submitSigned([attacker], attacker.publicKey(), [
			Operation.changeTrust({ asset: usdc() }),
		]);
		expect(trust.successful).toBe(true);
		attackerOpened = true;
	}
	return attacker.publicKey();
}

/** The account `address` as stellar-base builds on it: its sequence on the ledger now. */
function accountOnLedger(address: string): Account {
	const account = testnet.chain.account(address);
	if (!account) throw new Error(`${address} is not on the ledger`);
	return new Account(address, account.sequence.toString());
}

/** Sends a signed envelope through Expand chain/sendtransaction, as Send does: the ledger's record of it. */
async function sendThroughApi(
	rawTransaction: string,
): Promise<{ hash: string; successful: boolean }> {
	const reply = await fetch(`${devnet.baseUrl}/chain/sendtransaction`, {
		method: 'POST',
		headers: { 'x-api-key': devnet.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify({ rawTransaction, chainId: CHAIN }),
	});
	const { data } = (await reply.json()) as { data: { transactionHash: string } };
	return { hash: data.transactionHash, successful: applied(data.transactionHash) };
}

/** Whether the transaction `hash` is in a ledger and applied (a failed one still answers its hash). */
const applied = (hash: unknown) => testnet.chain.transaction(String(hash))?.successful === true;

/**
 * The API's unsigned answer for `source` as an attacker writes it: its operations, the account's next
 * sequence (`ahead` more for a later item of the same execution), time bounds now..now+300 s, `memo`.
 */
function apiAnswer(
	source: string,
	operations: xdr.Operation[],
	options: { memo?: Memo; ahead?: number } = {},
): IDataObject {
	const account = accountOnLedger(source);
	for (let skipped = 0; skipped < (options.ahead ?? 0); skipped += 1)
		account.incrementSequenceNumber();
	const transaction = new TransactionBuilder(account, {
		fee: '100',
		networkPassphrase: testnet.passphrase,
		timebounds: { minTime: 0, maxTime: testnet.chain.now + 300 },
		...(options.memo ? { memo: options.memo } : {}),
	});
	operations.forEach((operation) => transaction.addOperation(operation));
	return {
		chainId: CHAIN,
		from: source,
		gas: String(100 * operations.length),
		data: transaction.build().toEnvelope().toXDR('base64'),
	};
}

/** What the form asked, as the Expand node writes it beside the API's answer: a transfer of `token` ('native' or CODE:ISSUER) in stroops. */
const intent = (
	sender: string,
	recipient: string,
	token: string,
	amount: bigint,
	memo?: string,
) => ({
	operation: 'transfer',
	effect: 'transfer',
	chainId: CHAIN,
	sender,
	recipient,
	token,
	amount: amount.toString(),
	...(memo === undefined ? {} : { memo }),
});

/** The treasury's key (secret seed) with this policy, its node pinned, its ledger and journal in the test's folder. */
const keyOf = (secret: string, policy: IDataObject = {}) => ({
	keyType: 'privateKey',
	privateKey: secret,
	rpcUrls: `${CHAIN} = ${testnet.rpcUrl}`,
	payoutLedgerFolder: ledgerFolder,
	...policy,
});

const signer = (parameters: IDataObject): NodeSpec => ({
	name: 'Sign',
	type: SIGNER,
	parameters: {
		chainFamily: 'stellar',
		stellarChainId: CHAIN,
		operation: 'signTransaction',
		...parameters,
	} as NodeSpec['parameters'],
	continueOnFail: true,
});

/** Items → Expand Signer → Expand Send Transaction, both going on past a failed item: what each node gave. */
const signAndSend = (items: object[], key: IDataObject, parameters: IDataObject = {}) =>
	signAndSendItems(
		items as IDataObject[],
		{ ...signer(parameters).parameters },
		{ ...devnetCredentials(devnet), expandStellarKeyApi: key as never },
	);

/** Signed by the Signer, landed by Expand's send and applied on the ledger. */
function expectApplied(signed: IDataObject, sent: IDataObject): void {
	expectSent(signed, sent);
	expect(applied(signed.transactionHash)).toBe(true);
}

/** The journal's newest entry for the account `address`, as List Payouts gives it. */
const lastJournalEntry = (secret: string, address: string) =>
	journalEntry(
		address,
		{ ...signer({}).parameters },
		{
			...devnetCredentials(devnet),
			expandStellarKeyApi: keyOf(secret) as never,
		},
	);

/** What `address` holds as Expand chain/getbalance reads the ledger: XLM, or USDC, in stroops. */
async function balance(address: string, asset: 'XLM' | 'USDC' = 'USDC'): Promise<bigint> {
	const query = new URLSearchParams({
		chainId: CHAIN,
		address,
		...(asset === 'USDC' ? { assetCode: testnet.usdc.code, issuer: testnet.usdc.issuer } : {}),
	});
	const reply = await fetch(`${devnet.baseUrl}/chain/getbalance?${query}`, {
		headers: { 'x-api-key': devnet.apiKey },
	});
	return BigInt(((await reply.json()) as { data: { balance: string } }).data.balance);
}

/** The account's sequence, signers and USDC on the ledger: what a refused item must leave as it was. */
function ledgerState(address: string) {
	const account = testnet.chain.account(address);
	return {
		sequence: account?.sequence,
		signers: [...(account?.signers ?? new Map()).entries()],
		usdc: account?.trustlines.get(testnet.usdc.asset)?.balance,
		xlm: account?.balance,
	};
}

/** A payment of `units` whole USDC (stellar-base takes the amount as a decimal string). */
const payUsdc = (destination: string, units: bigint) =>
	Operation.payment({ destination, asset: usdc(), amount: units.toString() });

test('a substituted operation: the intent asks 100 USDC to the payee, the envelope pays them to the attacker (or 10,000 USDC to the payee); signed without the intent both apply; with it, refused naming the recipient and the amount', async () => {
	const treasury = wallet(0);
	const thief = await theAttacker();
	const items = () => [
		apiAnswer(treasury.publicKey, [payUsdc(thief, 100n)]),
		apiAnswer(treasury.publicKey, [payUsdc(payee().publicKey, 10_000n)], { ahead: 1 }),
	];
	const asked = intent(treasury.publicKey, payee().publicKey, testnet.usdc.asset, 100n * UNIT);

	// Rule off: the same envelopes without the intent that would bind them.
	const before = { thief: await balance(thief), payee: await balance(payee().publicKey) };
	const off = await signAndSend(items(), keyOf(treasury.secret));
	off.signed.forEach((signed, index) => expectApplied(signed, off.sent[index]));
	expect((await balance(thief)) - before.thief).toBe(100n * UNIT);
	expect((await balance(payee().publicKey)) - before.payee).toBe(10_000n * UNIT);

	// Rule on: each item carries the intent its form wrote.
	const held = ledgerState(treasury.publicKey);
	const on = await signAndSend(
		items().map((answer) => ({ ...answer, intent: asked })),
		keyOf(treasury.secret),
	);
	expectRefused(
		on.signed[0],
		on.sent[0],
		`Refused by the rule "intent": the transaction is not what the form asked (transfer): recipient: asked ${payee().publicKey}, the transaction pays ${thief}; nothing was signed (item 0)`,
	);
	expectRefused(
		on.signed[1],
		on.sent[1],
		'Refused by the rule "intent": the transaction is not what the form asked (transfer): amount: asked 1000000000 (smallest unit), the transaction moves 100000000000 (smallest unit); nothing was signed (item 1)',
	);
	expect(await lastJournalEntry(treasury.secret, treasury.publicKey)).toMatchObject({
		outcome: 'refused',
		rule: 'intent',
	});
	expect(ledgerState(treasury.publicKey)).toEqual(held);
});

/** A strict-receive path payment of USDC for USDC with an empty path: `destAmount` arrives, at most `sendMax` may leave. */
const pathPayUsdc = (destination: string, destAmount: bigint, sendMax: bigint) =>
	Operation.pathPaymentStrictReceive({
		sendAsset: usdc(),
		sendMax: sendMax.toString(),
		destination,
		destAsset: usdc(),
		destAmount: destAmount.toString(),
		path: [],
	});

test('a path payment whose sendMax passes the cap: 1 USDC to receive for at most 50,000 USDC; without a cap it is signed, and a destAmount set to the sendMax takes all 50,000 to the attacker; under USDC = 1,000 per transaction both are refused naming the sendMax', async () => {
	const treasury = wallet(0);
	const thief = await theAttacker();
	const small = () => apiAnswer(treasury.publicKey, [pathPayUsdc(thief, 1n, 50_000n)]);
	const whole = () => apiAnswer(treasury.publicKey, [pathPayUsdc(thief, 50_000n, 50_000n)]);

	// Rule off: no cap. With an empty path the ledger delivers destAmount for destAmount; on the network a
	// path through the attacker's own offers at its price makes the same signature spend up to sendMax.
	// The devnet matches no offers, so what can leave is shown with destAmount raised to the sendMax.
	let before = await balance(thief);
	const off = await signAndSend([small()], keyOf(treasury.secret));
	expectApplied(off.signed[0], off.sent[0]);
	expect((await balance(thief)) - before).toBe(1n * UNIT);
	before = await balance(thief);
	const offWhole = await signAndSend([whole()], keyOf(treasury.secret));
	expectApplied(offWhole.signed[0], offWhole.sent[0]);
	expect((await balance(thief)) - before).toBe(50_000n * UNIT);

	const capped = keyOf(treasury.secret, { maxPerTransaction: `${testnet.usdc.asset} = 1000` });
	const held = ledgerState(treasury.publicKey);
	const on = await signAndSend([small(), whole()], capped);
	for (const index of [0, 1])
		expectRefused(
			on.signed[index],
			on.sent[index],
			`Refused by the rule "maxPerTransaction": Stellar path payment (strict receive, at most sendMax) of 50000 (500000000000 in the smallest unit) of token ${testnet.usdc.asset} is above the limit of 1000 per transaction; nothing was signed (item ${index})`,
		);
	expect(await lastJournalEntry(treasury.secret, treasury.publicKey)).toMatchObject({
		outcome: 'refused',
		rule: 'maxPerTransaction',
	});
	expect(ledgerState(treasury.publicKey)).toEqual(held);
});

/** A fresh treasury holding only XLM (a merge needs no trustlines left): its key pair, funded `xlm` on the ledger. */
function xlmTreasury(xlm: bigint): Keypair {
	const keys = Keypair.random();
	testnet.chain.fund(keys.publicKey(), xlm * UNIT);
	return keys;
}

test("an account merge into the attacker: with Allow Account Management the treasury's every XLM goes to the attacker and the account is gone; without it (the default) refused under handsOver, with no other policy field", async () => {
	const thief = await theAttacker();
	const merge = (treasury: Keypair) =>
		apiAnswer(treasury.publicKey(), [Operation.accountMerge({ destination: thief })]);

	const merged = xlmTreasury(1_000n);
	const before = await balance(thief, 'XLM');
	const off = await signAndSend(
		[merge(merged)],
		keyOf(merged.secret(), { allowAccountManagement: true }),
	);
	expectApplied(off.signed[0], off.sent[0]);
	expect(testnet.chain.account(merged.publicKey())).toBeUndefined();
	// The whole balance less the merge's own fee of 100 stroops.
	expect((await balance(thief, 'XLM')) - before).toBe(1_000n * UNIT - 100n);

	const kept = xlmTreasury(1_000n);
	const held = ledgerState(kept.publicKey());
	const on = await signAndSend([merge(kept)], keyOf(kept.secret()));
	expectRefused(
		on.signed[0],
		on.sent[0],
		`Refused by the rule "handsOver": the transaction merges the account into ${thief} (account merge: its whole XLM balance, and the account closed), which hands the account over or empties it; the signer never signs that, whatever the policy says; nothing was signed (item 0)`,
	);
	expect(await lastJournalEntry(kept.secret(), kept.publicKey())).toMatchObject({
		outcome: 'refused',
		rule: 'handsOver',
	});
	expect(ledgerState(kept.publicKey())).toEqual(held);
});

test('a bump sequence to 2^63 - 1 in place of a trustline the form asked: with Allow Account Management it is signed, and no transaction of the treasury can ever apply again (its 1,000 XLM frozen for good); without it (the default) refused under handsOver, whatever the call intent', async () => {
	const INT64_MAX = '9223372036854775807';
	const bump = (treasury: Keypair) => ({
		...apiAnswer(treasury.publicKey(), [Operation.bumpSequence({ bumpTo: INT64_MAX })]),
		intent: { operation: 'rwa/settrustline', effect: 'call', chainId: CHAIN },
	});

	const frozen = xlmTreasury(1_000n);
	const off = await signAndSend(
		[bump(frozen)],
		keyOf(frozen.secret(), { allowAccountManagement: true }),
	);
	expectApplied(off.signed[0], off.sent[0]);
	expect(testnet.chain.account(frozen.publicKey())?.sequence).toBe(BigInt(INT64_MAX));
	// The next transaction needs the sequence 2^63, which no int64 holds: whatever it carries, tx_bad_seq.
	const after = new TransactionBuilder(new Account(frozen.publicKey(), '9223372036854775806'), {
		fee: '100',
		networkPassphrase: testnet.passphrase,
		timebounds: { minTime: 0, maxTime: testnet.chain.now + 300 },
	})
		.addOperation(
			Operation.payment({ destination: payee().publicKey, asset: Asset.native(), amount: '1' }),
		)
		.build();
	after.sign(frozen);
	expect((await sendThroughApi(after.toEnvelope().toXDR('base64'))).successful).toBe(false);
	expect(testnet.chain.account(frozen.publicKey())?.balance).toBeGreaterThan(999n * UNIT);

	const kept = xlmTreasury(1_000n);
	const held = ledgerState(kept.publicKey());
	const on = await signAndSend([bump(kept)], keyOf(kept.secret()));
	expectRefused(
		on.signed[0],
		on.sent[0],
		`Refused by the rule "handsOver": the transaction bumps the account's sequence to ${INT64_MAX} (bump sequence: every transaction it signed below that can no longer apply, and at 2^63 - 1 none ever can again), which hands the account over or empties it; the signer never signs that, whatever the policy says; nothing was signed (item 0)`,
	);
	expect(ledgerState(kept.publicKey())).toEqual(held);
});

test('a set options adding the attacker as a signer of weight 1 (the thresholds are 0): with Allow Account Management it is signed, and the attacker then moves 5,000 USDC out with its own signature alone; without it refused under handsOver', async () => {
	const [treasury, other] = [wallet(2), wallet(0)];
	const thief = await theAttacker();
	const addSigner = (source: string) =>
		apiAnswer(source, [Operation.setOptions({ signer: { ed25519PublicKey: thief, weight: 1 } })]);

	const off = await signAndSend(
		[addSigner(treasury.publicKey)],
		keyOf(treasury.secret, { allowAccountManagement: true }),
	);
	expectApplied(off.signed[0], off.sent[0]);
	expect(testnet.chain.account(treasury.publicKey)?.signers.get(thief)).toBe(1);
	const before = await balance(thief);
	const drained = await submitSigned([attacker], treasury.publicKey, [payUsdc(thief, 5_000n)]);
	expect(drained.successful).toBe(true);
	expect((await balance(thief)) - before).toBe(5_000n * UNIT);

	const held = ledgerState(other.publicKey);
	const on = await signAndSend([addSigner(other.publicKey)], keyOf(other.secret));
	expectRefused(
		on.signed[0],
		on.sent[0],
		`Refused by the rule "handsOver": the transaction changes who controls the account with set options (signer ${thief} weight 1), which hands the account over or empties it; the signer never signs that, whatever the policy says; nothing was signed (item 0)`,
	);
	expect(await lastJournalEntry(other.secret, other.publicKey)).toMatchObject({
		outcome: 'refused',
		rule: 'handsOver',
	});
	expect(ledgerState(other.publicKey)).toEqual(held);
});

test("another source account: the treasury's key is a signer of a vault account, and the envelope slips in a payment whose source is the vault; signed with stellar-base directly the attacker takes 1,500 of the vault's XLM; the Signer refuses it naming the vault", async () => {
	const treasury = wallet(0);
	const treasuryKeys = Keypair.fromSecret(treasury.secret);
	const thief = await theAttacker();
	const vault = xlmTreasury(2_000n);
	const cosigned = await submitSigned([vault], vault.publicKey(), [
		Operation.setOptions({ signer: { ed25519PublicKey: treasury.publicKey, weight: 1 } }),
	]);
	expect(cosigned.successful).toBe(true);
	const slipped = () =>
		apiAnswer(treasury.publicKey, [
			Operation.payment({
				source: vault.publicKey(),
				destination: thief,
				asset: Asset.native(),
				amount: '1500',
			}),
		]);

	// Rule off: the envelope signed with the key by stellar-base, as a signer without the check would.
	const before = await balance(thief, 'XLM');
	const unchecked = TransactionBuilder.fromXDR(String(slipped().data), testnet.passphrase);
	unchecked.sign(treasuryKeys);
	const sent = await sendThroughApi(unchecked.toEnvelope().toXDR('base64'));
	expect(sent.successful).toBe(true);
	expect((await balance(thief, 'XLM')) - before).toBe(1_500n * UNIT);

	const held = [ledgerState(treasury.publicKey), ledgerState(vault.publicKey())];
	const journaled = await lastJournalEntry(treasury.secret, treasury.publicKey);
	const on = await signAndSend([slipped()], keyOf(treasury.secret));
	expectRefused(
		on.signed[0],
		on.sent[0],
		`Operation 1 of the Stellar transaction acts for ${vault.publicKey()}, not the signing account ${treasury.publicKey} (item 0)`,
	);
	// Checked before the policy reads it, as Tron's owner is: an item error, no journal entry.
	expect(await lastJournalEntry(treasury.secret, treasury.publicKey)).toEqual(journaled);
	expect([ledgerState(treasury.publicKey), ledgerState(vault.publicKey())]).toEqual(held);
});

/** The text memo of the ledger's transaction `hash`. */
function memoOnLedger(hash: unknown): string {
	const record = testnet.chain.transaction(String(hash));
	return String(record?.memo.value);
}

test('a changed memo: the intent names the deposit memo INV-1 (typed "text:INV-1" or plain), the envelope carries INV-2; signed without the intent, the exchange is credited under INV-2; with it refused naming both; and a payout ID signed with one memo is refused with another', async () => {
	const [treasury, exchange] = [wallet(0), payee()];
	const deposit = (memo: string, ahead = 0) =>
		apiAnswer(treasury.publicKey, [payUsdc(exchange.publicKey, 25n)], {
			memo: Memo.text(memo),
			ahead,
		});

	const before = await balance(exchange.publicKey);
	const off = await signAndSend([deposit('INV-2')], keyOf(treasury.secret));
	expectApplied(off.signed[0], off.sent[0]);
	expect(memoOnLedger(off.signed[0].transactionHash)).toBe('INV-2');
	expect((await balance(exchange.publicKey)) - before).toBe(25n * UNIT);

	const held = ledgerState(treasury.publicKey);
	const asked = (memo: string) =>
		intent(treasury.publicKey, exchange.publicKey, testnet.usdc.asset, 25n * UNIT, memo);
	const on = await signAndSend(
		[
			{ ...deposit('INV-2'), intent: asked('text:INV-1') },
			{ ...deposit('INV-2'), intent: asked('INV-1') },
		],
		keyOf(treasury.secret),
	);
	for (const index of [0, 1])
		expectRefused(
			on.signed[index],
			on.sent[index],
			`Refused by the rule "intent": the transaction is not what the form asked (transfer): memo: asked "text:INV-1", the transaction carries "text:INV-2"; nothing was signed (item ${index})`,
		);
	expect(await lastJournalEntry(treasury.secret, treasury.publicKey)).toMatchObject({
		outcome: 'refused',
		rule: 'intent',
	});
	expect(ledgerState(treasury.publicKey)).toEqual(held);

	const payout = (memo: string) => ({ ...deposit(memo), payoutId: 'deposit-42' });
	const byPayoutId = { payoutId: '={{ $json.payoutId }}' };
	const first = await signAndSend([payout('INV-1')], keyOf(treasury.secret), byPayoutId);
	expectApplied(first.signed[0], first.sent[0]);
	expect(memoOnLedger(first.signed[0].transactionHash)).toBe('INV-1');
	const paid = ledgerState(treasury.publicKey);
	const reused = await signAndSend([payout('INV-2')], keyOf(treasury.secret), byPayoutId);
	expect(reused.signed[0].error).toMatch(
		new RegExp(
			`^Refused by the rule "payoutId": payout ID "deposit-42" was already signed on [0-9T:.-]+Z as ${String(first.signed[0].transactionHash)} for other content \\(recipient, amount, asset or memo\\); a payout ID is never signed for new content; nothing was signed \\(item 0\\)$`,
		),
	);
	expect(Object.keys(reused.signed[0])).toEqual(['error']);
	expect(reused.sent[0].transactionHash).toBeUndefined();
	expect(await lastJournalEntry(treasury.secret, treasury.publicKey)).toMatchObject({
		outcome: 'refused',
		rule: 'payoutId',
		payoutId: 'deposit-42',
	});
	expect(ledgerState(treasury.publicKey)).toEqual(paid);
});

/** The exchange's muxed account for its customer `id`: M…, credited by the exchange to that customer. */
const muxedOf = (address: string, id: string) =>
	new MuxedAccount(new Account(address, '0'), id).accountId();

/** The destination of the first operation of the ledger's transaction `hash`, as it was paid (M… keeps its ID). */
function paidTo(hash: unknown): string {
	const record = testnet.chain.transaction(String(hash));
	const [operation] = TransactionBuilder.fromXDR(String(record?.envelopeXdr), testnet.passphrase)
		.operations as Operation.Payment[];
	return operation.destination;
}

test("a payment to a muxed ID of an outsider: Allowed Recipients lists the exchange's G…, the envelope pays M… of the exchange with the attacker's customer ID; without the list it is credited to that ID; with it refused (a G… entry admits no M… of it); with the exchange's M… of the payee's ID listed, only that ID passes; and an intent naming the payee's M… refuses the outsider's", async () => {
	const [treasury, exchange] = [wallet(0), payee()];
	const theirs = muxedOf(exchange.publicKey, '666');
	const ours = muxedOf(exchange.publicKey, '42');
	const deposit = (to: string, ahead = 0) =>
		apiAnswer(treasury.publicKey, [payUsdc(to, 50n)], { ahead });
	// The payee row the attacker wrote: the intent names the M… paid, so only the list stands in the way.
	const asked = (to: string, ahead = 0) => ({
		...deposit(to, ahead),
		intent: intent(treasury.publicKey, to, testnet.usdc.asset, 50n * UNIT),
	});

	const before = await balance(exchange.publicKey);
	const off = await signAndSend([deposit(theirs)], keyOf(treasury.secret));
	expectApplied(off.signed[0], off.sent[0]);
	expect(paidTo(off.signed[0].transactionHash)).toBe(theirs);
	expect((await balance(exchange.publicKey)) - before).toBe(50n * UNIT);

	const held = ledgerState(treasury.publicKey);
	const byBase = await signAndSend(
		[asked(theirs)],
		keyOf(treasury.secret, { allowedRecipients: exchange.publicKey }),
	);
	const notListed = (index: number) =>
		`Refused by the rule "allowedRecipients": the recipient ${theirs} (Stellar payment of token ${testnet.usdc.asset}) is not on the allowed list; nothing was signed (item ${index})`;
	expectRefused(byBase.signed[0], byBase.sent[0], notListed(0));
	expect(await lastJournalEntry(treasury.secret, treasury.publicKey)).toMatchObject({
		outcome: 'refused',
		rule: 'allowedRecipients',
	});
	expect(ledgerState(treasury.publicKey)).toEqual(held);

	const byId = await signAndSend(
		[asked(ours), asked(theirs, 1)],
		keyOf(treasury.secret, { allowedRecipients: ours }),
	);
	expectApplied(byId.signed[0], byId.sent[0]);
	expect(paidTo(byId.signed[0].transactionHash)).toBe(ours);
	expectRefused(byId.signed[1], byId.sent[1], notListed(1));

	// Without a list, the intent the form wrote for the payee's ID binds the ID too.
	const swapped = await signAndSend(
		[
			{
				...deposit(theirs),
				intent: intent(treasury.publicKey, ours, testnet.usdc.asset, 50n * UNIT),
			},
		],
		keyOf(treasury.secret),
	);
	expectRefused(
		swapped.signed[0],
		swapped.sent[0],
		`Refused by the rule "intent": the transaction is not what the form asked (transfer): recipient: asked ${ours}, the transaction pays ${theirs}; nothing was signed (item 0)`,
	);
});
