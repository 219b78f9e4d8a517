/**
 * Expand Signer with Chain Family Stellar, through n8n's engine, on the devnet's Stellar chain 1501 (its
 * ledger stand-in behind a Horizon): XLM and USDC payouts signed and sent with Expand chain/sendtransaction
 * as a workflow does, from a secret seed and from the devnet's BIP-39 mnemonic on m/44'/148'/N'; memos as
 * Horizon shows them on the applied transaction; payout IDs bound to what they pay, memo included;
 * sequences within one execution; Change Trust; the API's RWA answers (rwa/settrustline, rwa/issue,
 * rwa/transfer) from the Expand node signed From Input Item under Require Intent; one transaction per
 * item; a failed transaction read by Check Payouts; a fee bump and a re-sign after maxTime, each sent
 * beside its original; a run killed between signing and sending; and no trace of any key in anything the
 * runs leave.
 *
 * The Expand node writes rwa/issue, rwa/transfer and rwa/burn's intent as a transfer of the asset
 * CODE:ISSUER in stroops (the whole units asked × 10^7) from the signer to the account paid (a burn pays
 * the issuer): the Signer signs the API's answer under it and refuses it with another recipient, amount
 * or asset; a trustline and a freeze are calls that move nothing.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { Account, Asset, Keypair, Operation, TransactionBuilder } from '@stellar/stellar-base';
import { Mnemonic } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet, DevnetStellar } from '../../../../devnet';
import { intentDigest } from '../../../../nodes/shared/intent';
import { EXPAND, SIGNER, type NodeSpec, type RunResult } from '../../../helpers/n8n';
import { recordedRun, scanRecording } from '../../../helpers/recordedRun';
import { expectNoTrace, recordedTexts } from '../../../helpers/recordedTexts';
import { sendTransactionNode } from '../../../helpers/sendTransactionNode';

const ledgerFolder = mkdtempSync(join(tmpdir(), 'expand-stellar-node-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledgerFolder;

const CHAIN = '1501';

let devnet: Devnet;
let testnet: DevnetStellar;
const recording = scanRecording((started) => {
	devnet = started;
	testnet = devnet.stellar.find((chain) => chain.chainId === CHAIN) as DevnetStellar;
	return [testnet.rpcUrl];
});
const { output, runs } = recording;

const address = (index: number) => testnet.wallets[index].publicKey;

const mnemonicKey = (policy: IDataObject = {}) => ({
	keyType: 'mnemonic',
	mnemonic: testnet.mnemonic,
	payoutLedgerFolder: ledgerFolder,
	rpcUrls: `${CHAIN} = ${recording.proxy.url(testnet.rpcUrl)}`,
	...policy,
});
const seedKey = (policy: IDataObject = {}) => ({
	...mnemonicKey(policy),
	keyType: 'privateKey',
	privateKey: testnet.wallets[0].secret,
});

const run = async (nodes: NodeSpec[], items: object[], key: IDataObject) =>
	await recordedRun(recording, nodes, items, { stellar: key as never });

const signer = (parameters: IDataObject, continueOnFail = false): NodeSpec => ({
	name: 'Sign',
	type: SIGNER,
	parameters: {
		chainFamily: 'stellar',
		stellarChainId: CHAIN,
		...parameters,
	} as NodeSpec['parameters'],
	continueOnFail,
});
const send = (continueOnFail = false): NodeSpec => sendTransactionNode({}, continueOnFail);
/** The Expand node's RWA operation `operation` (rwa/…), as a workflow builds the unsigned transaction. */
const rwa = (operation: string, parameters: IDataObject): NodeSpec => ({
	name: 'Rwa',
	type: EXPAND,
	parameters: {
		resource: 'rwa',
		operation,
		chainId: CHAIN,
		assetCode: testnet.rwa.code,
		issuer: testnet.rwa.issuer,
		...parameters,
	} as NodeSpec['parameters'],
});

const jsonOf = (result: RunResult, name: string) => result.output(name).map((item) => item.json);

async function horizon<T = Record<string, unknown>>(path: string): Promise<T> {
	return (await (await fetch(`${testnet.rpcUrl}${path}`)).json()) as T;
}

/** An account's balance of `asset` ('native' or CODE:ISSUER), in stroops, as Horizon shows it. */
async function balanceOf(owner: string, asset: string): Promise<bigint> {
	const account = await horizon<{
		balances: Array<{
			asset_type: string;
			asset_code?: string;
			asset_issuer?: string;
			balance: string;
		}>;
	}>(`/accounts/${owner}`);
	const line = account.balances.find((balance) =>
		asset === 'native'
			? balance.asset_type === 'native'
			: `${balance.asset_code}:${balance.asset_issuer}` === asset,
	);
	return BigInt((line?.balance ?? '0.0000000').replace('.', ''));
}
const sequenceOf = async (owner: string) =>
	BigInt((await horizon<{ sequence: string }>(`/accounts/${owner}`)).sequence);

/** Every output item of a node says which input item it answers. */
function expectPaired(result: RunResult, name: string) {
	expect(result.output(name).map((item) => item.pairedItem)).toEqual(
		result.output(name).map((_, item) => ({ item })),
	);
}

test('Transfer XLM from a secret seed and from the mnemonic is signed, sent with chain/sendtransaction and received whole', async () => {
	for (const { key, accountIndex, from } of [
		{ key: seedKey(), accountIndex: 0, from: address(0) },
		{ key: mnemonicKey(), accountIndex: 1, from: address(1) },
	]) {
		const before = await balanceOf(address(2), 'native');
		const result = await run(
			[
				signer({ operation: 'transferXlm', accountIndex, recipient: address(2), amount: '1.25' }),
				send(),
			],
			[{}],
			key,
		);
		expect(result.error).toBeUndefined();
		const [signed] = jsonOf(result, 'Sign');
		expect(signed).toMatchObject({ from, chainId: CHAIN, repeat: false, fee: '100' });
		expectPaired(result, 'Sign');
		expectPaired(result, 'Send');
		expect(jsonOf(result, 'Send')[0].transactionHash).toBe(signed.transactionHash);
		expect(await horizon(`/transactions/${String(signed.transactionHash)}`)).toMatchObject({
			successful: true,
			source_account: from,
		});
		expect(await balanceOf(address(2), 'native')).toBe(before + 12_500_000n);
	}
});

test('Transfer Asset pays USDC exactly with a text memo Horizon shows on the applied transaction; ID and hash memos too', async () => {
	const usdc = testnet.usdc.asset;
	const hashMemo = 'ab'.repeat(32);
	const memos = [
		{ memoType: 'text', memo: 'invoice 1042', shown: 'invoice 1042' },
		{ memoType: 'id', memo: '18446744073709551615', shown: '18446744073709551615' },
		{ memoType: 'hash', memo: hashMemo, shown: Buffer.from(hashMemo, 'hex').toString('base64') },
	];
	for (const { memoType, memo, shown } of memos) {
		const before = {
			payer: await balanceOf(address(1), usdc),
			payee: await balanceOf(address(2), usdc),
		};
		const result = await run(
			[
				signer({
					operation: 'transferAsset',
					accountIndex: 1,
					asset: usdc,
					recipient: address(2),
					amount: '2.5',
					memoType,
					memo,
					payoutId: `usdc-${memoType}`,
				}),
				send(),
			],
			[{}],
			mnemonicKey(),
		);
		expect(result.error).toBeUndefined();
		const [signed] = jsonOf(result, 'Sign');
		expect(signed).toMatchObject({ amountRaw: '25000000', memoType, repeat: false });
		expect(await horizon(`/transactions/${String(signed.transactionHash)}`)).toMatchObject({
			successful: true,
			memo_type: memoType,
			memo: shown,
		});
		expect(await balanceOf(address(1), usdc)).toBe(before.payer - 25_000_000n);
		expect(await balanceOf(address(2), usdc)).toBe(before.payee + 25_000_000n);
	}
});

test('a rerun of the same payout IDs pays nobody (repeat: true), and a payout ID re-used with another memo is refused', async () => {
	const usdc = testnet.usdc.asset;
	const parameters = {
		operation: 'transferAsset',
		accountIndex: 1,
		asset: usdc,
		recipient: address(2),
		amount: '1',
		memoType: 'text',
		memo: '={{ $json.memo }}',
		payoutId: '={{ $json.id }}',
	};
	const items = [
		{ id: 'stellar-memo-1', memo: 'deposit 7781' },
		{ id: 'stellar-memo-2', memo: 'deposit 7782' },
	];
	const before = await balanceOf(address(2), usdc);
	const first = await run([signer(parameters), send()], items, mnemonicKey());
	expect(first.error).toBeUndefined();
	const again = await run([signer(parameters), send(true)], items, mnemonicKey());
	expect(jsonOf(again, 'Sign')).toMatchObject(
		jsonOf(first, 'Sign').map((signed) => ({
			repeat: true,
			alreadySent: true,
			transactionHash: signed.transactionHash,
		})),
	);
	const otherMemo = await run(
		[signer(parameters, true)],
		[{ id: 'stellar-memo-1', memo: 'deposit 9999' }],
		mnemonicKey(),
	);
	expect(String(jsonOf(otherMemo, 'Sign')[0].error)).toMatch(
		/^Refused by the rule "payoutId": payout ID "stellar-memo-1" was already signed on .* for other content \(recipient, amount, asset or memo\); a payout ID is never signed for new content; nothing was signed \(item 0\)$/,
	);
	expectPaired(otherMemo, 'Sign');
	expect(jsonOf(otherMemo, 'Sign')[0].rawTransaction).toBeUndefined();
	expect(await balanceOf(address(2), usdc)).toBe(before + 20_000_000n);
});

test('several items of one execution take consecutive sequence numbers, a refused one none, and all apply when sent in order', async () => {
	const sequence = await sequenceOf(address(1));
	const before = await balanceOf(address(2), 'native');
	const result = await run(
		[
			signer(
				{
					operation: 'transferXlm',
					accountIndex: 1,
					recipient: address(2),
					amount: '={{ $json.amount }}',
				},
				true,
			),
			send(true),
		],
		[{ amount: '0.1' }, { amount: '0.2' }, { amount: '50' }, { amount: '0.3' }],
		mnemonicKey({ maxPerTransaction: 'native = 10' }),
	);
	expect(result.error).toBeUndefined();
	const signed = jsonOf(result, 'Sign');
	expect(signed.map((json) => json.sequence)).toEqual([
		String(sequence + 1n),
		String(sequence + 2n),
		undefined,
		String(sequence + 3n),
	]);
	expect(String(signed[2].error)).toMatch(
		/^Refused by the rule "maxPerTransaction": .*50.*10.*; nothing was signed \(item 2\)$/,
	);
	expectPaired(result, 'Sign');
	expect(await sequenceOf(address(1))).toBe(sequence + 3n);
	expect(await balanceOf(address(2), 'native')).toBe(before + 6_000_000n);
});

/** The Expand node's answer to rwa/`operation` (the unsigned envelope and the intent it writes beside it). */
async function rwaAnswer(operation: string, parameters: IDataObject): Promise<IDataObject> {
	const result = await run([rwa(operation, parameters)], [{}], mnemonicKey());
	expect(result.error).toBeUndefined();
	return jsonOf(result, 'Rwa')[0];
}

/**
 * The Expand node's intent with `changes` (another recipient, amount or asset): what an API or a step
 * that substitutes them would hand on, its form item's digest made again so only the content differs.
 */
function substitutedIntent(answer: IDataObject, changes: IDataObject): IDataObject {
	const { formItem, ...written } = answer.intent as IDataObject;
	const asked = { ...written, ...changes };
	return { ...asked, formItem: { ...(formItem as IDataObject), digest: intentDigest(asked) } };
}

/** `items` (API answers) signed From Input Item by account `accountIndex` under their payout IDs, and sent. */
async function signedAndSent(items: IDataObject[], accountIndex: number, continueOnFail = false) {
	const result = await run(
		[
			signer(
				{ operation: 'signTransaction', accountIndex, payoutId: '={{ $json.payoutId }}' },
				continueOnFail,
			),
			send(continueOnFail),
		],
		items,
		mnemonicKey({ requireIntent: 'always' }),
	);
	expect(result.error).toBeUndefined();
	expectPaired(result, 'Sign');
	return { result, signed: jsonOf(result, 'Sign'), sent: jsonOf(result, 'Send') };
}

/** List Payouts → Check Payouts: the row of each transaction hash asked. */
async function checked(hashes: unknown[]): Promise<IDataObject[]> {
	const result = await run(
		[
			signer({ operation: 'listPayouts', status: 'signed' }),
			{ ...signer({ operation: 'checkPayouts' }), name: 'Check' },
		],
		[{}],
		mnemonicKey(),
	);
	expect(result.error).toBeUndefined();
	expectPaired(result, 'Check');
	const rows = jsonOf(result, 'Check');
	return hashes.map(
		(hash) => rows.find((row) => row.transactionHash === hash) ?? { missing: String(hash) },
	);
}

test("the API's RWA answers From Input Item under the Expand node's own intent: a trustline (a call), the issue and a transfer (transfers of CODE:ISSUER in stroops); another amount or recipient refused; one to an account without a trustline reads failed", async () => {
	const rwa1 = testnet.rwa.asset;
	const trustAnswer = await rwaAnswer('settrustline', { from: address(1), amount: '1000' });
	// A trustline moves nothing: a call of its signer, which the Signer admits.
	expect(trustAnswer.intent).toMatchObject({
		operation: 'rwa/settrustline',
		effect: 'call',
		sender: address(1),
		recipient: null,
		token: rwa1,
	});
	const trust = await signedAndSent([{ ...trustAnswer, payoutId: 'rwa-trust-1' }], 1);
	expect(trust.signed[0]).toMatchObject({ from: address(1), chainId: CHAIN, repeat: false });
	expect(trust.sent[0].transactionHash).toBe(trust.signed[0].transactionHash);
	const line = () =>
		horizon<{ balances: Array<Record<string, unknown>> }>(`/accounts/${address(1)}`).then(
			(account) =>
				account.balances.find(
					(balance) => `${String(balance.asset_code)}:${String(balance.asset_issuer)}` === rwa1,
				),
		);
	expect(await line()).toMatchObject({ limit: '1000.0000000', is_authorized: false });
	await authorise(address(1));
	expect(await line()).toMatchObject({ is_authorized: true });
	const issueAnswer = await rwaAnswer('issue', { to: address(1), amount: '50' });
	expect(issueAnswer.intent).toMatchObject({
		operation: 'rwa/issue',
		effect: 'transfer',
		chainId: CHAIN,
		sender: address(3),
		recipient: address(1),
		token: rwa1,
		amount: '500000000',
		amountTyped: '50',
		decimals: 7,
	});
	// An intent asking 5,000 where the transaction issues 50: the amount differs.
	const more = await signedAndSent(
		[
			{
				...issueAnswer,
				intent: substitutedIntent(issueAnswer, {
					amount: '50000000000',
					amountTyped: '5000',
				}),
				payoutId: 'rwa-issue-more',
			},
		],
		3,
		true,
	);
	expect(String(more.signed[0].error)).toMatch(
		/^Refused by the rule "intent": .*amount: asked 50000000000 \(smallest unit\), the transaction moves 500000000 \(smallest unit\); nothing was signed \(item 0\)$/,
	);
	const issued = await signedAndSent([{ ...issueAnswer, payoutId: 'rwa-issue-1' }], 3);
	expect(issued.sent[0].transactionHash).toBe(issued.signed[0].transactionHash);
	expect(await balanceOf(address(1), rwa1)).toBe(500_000_000n);
	// The same form item's answer handed in again under another payout ID: one form item, one transaction.
	const twice = await signedAndSent([{ ...issueAnswer, payoutId: 'rwa-issue-2' }], 3, true);
	expect(String(twice.signed[0].error)).toMatch(
		/^Refused by the rule "oneTransactionPerFormItem": form item 0 of node "Rwa" .* under payout ID "rwa-issue-1" .*; this is another \(payout ID "rwa-issue-2"\).*; nothing was signed \(item 0\)$/,
	);
	expect(await balanceOf(address(1), rwa1)).toBe(500_000_000n);
	// Account 2 has no trustline to RWA1: the transfer applies as a failed transaction (op_no_trust), its sequence and fee taken.
	const sequence = await sequenceOf(address(1));
	const transferAnswer = await rwaAnswer('transfer', {
		from: address(1),
		to: address(2),
		amount: '5',
	});
	const substituted = await signedAndSent(
		[
			{
				...transferAnswer,
				intent: substitutedIntent(transferAnswer, { recipient: address(0) }),
				payoutId: 'rwa-substituted',
			},
		],
		1,
		true,
	);
	expect(String(substituted.signed[0].error)).toMatch(
		/^Refused by the rule "intent": .*recipient: asked G.*, the transaction pays G.*; nothing was signed \(item 0\)$/,
	);
	const unpaid = await signedAndSent([{ ...transferAnswer, payoutId: 'rwa-no-trust' }], 1);
	expect(await sequenceOf(address(1))).toBe(sequence + 1n);
	expect(await balanceOf(address(1), rwa1)).toBe(500_000_000n);
	const [applied, failed] = await checked([
		issued.signed[0].transactionHash,
		unpaid.signed[0].transactionHash,
	]);
	expect(applied).toMatchObject({
		payoutId: 'rwa-issue-1',
		chainStatus: 'mined',
		success: 'true',
		feePaid: '100',
		block: expect.stringMatching(/^\d+$/),
	});
	expect(failed).toMatchObject({
		payoutId: 'rwa-no-trust',
		asset: rwa1,
		amount: '50000000',
		chainStatus: 'mined',
		success: 'false',
		feePaid: '100',
		statusMessage: expect.stringMatching(
			/failed .*its sequence used\): none of its operations took effect/,
		),
	});
});

/** The issuer (account 3) authorises `trustor`'s trustline to RWA1: an operation the Signer cannot read, signed under no spending rule and sent. */
async function authorise(trustor: string) {
	const issuer = address(3);
	const envelope = new TransactionBuilder(new Account(issuer, String(await sequenceOf(issuer))), {
		fee: '100',
		networkPassphrase: testnet.passphrase,
	})
		.addOperation(
			Operation.setTrustLineFlags({
				trustor,
				asset: new Asset(testnet.rwa.code, issuer),
				flags: { authorized: true },
			}),
		)
		.setTimeout(300)
		.build();
	const result = await run(
		[
			signer({
				operation: 'signTransaction',
				accountIndex: 3,
				source: 'fields',
				envelopeXdr: envelope.toXDR(),
			}),
			send(),
		],
		[{}],
		mnemonicKey(),
	);
	expect(result.error).toBeUndefined();
}

test("Change Trust opens account 2's trustline to RWA1; once the issuer authorises it, an RWA transfer reaches it under the node's intent (one naming another asset refused); a burn pays the issuer back; a freeze revokes the trustline", async () => {
	const rwa1 = testnet.rwa.asset;
	const trusted = await run(
		[signer({ operation: 'changeTrust', accountIndex: 2, asset: rwa1, limit: '500' }), send()],
		[{}],
		mnemonicKey(),
	);
	expect(trusted.error).toBeUndefined();
	expectPaired(trusted, 'Sign');
	const [signed] = jsonOf(trusted, 'Sign');
	expect(jsonOf(trusted, 'Send')[0].transactionHash).toBe(signed.transactionHash);
	await authorise(address(2));
	const transferAnswer = await rwaAnswer('transfer', {
		from: address(1),
		to: address(2),
		amount: '7',
	});
	const otherAsset = await signedAndSent(
		[
			{
				...transferAnswer,
				intent: substitutedIntent(transferAnswer, { token: testnet.usdc.asset }),
				payoutId: 'rwa-other-asset',
			},
		],
		1,
		true,
	);
	expect(String(otherAsset.signed[0].error)).toMatch(
		/^Refused by the rule "intent": .*token: asked USDC:G.*, the transaction moves RWA1:G.*\(item 0\)$/,
	);
	const before = {
		payer: await balanceOf(address(1), rwa1),
		payee: await balanceOf(address(2), rwa1),
	};
	await signedAndSent([{ ...transferAnswer, payoutId: 'rwa-transfer-1' }], 1);
	expect(await balanceOf(address(1), rwa1)).toBe(before.payer - 70_000_000n);
	expect(await balanceOf(address(2), rwa1)).toBe(before.payee + 70_000_000n);
	// A burn is a payment back to the issuer: a transfer to it, which the Signer reads as such.
	const burnAnswer = await rwaAnswer('burn', { from: address(2), amount: '2' });
	expect(burnAnswer.intent).toMatchObject({
		operation: 'rwa/burn',
		effect: 'transfer',
		sender: address(2),
		recipient: address(3),
		token: rwa1,
		amount: '20000000',
	});
	await signedAndSent([{ ...burnAnswer, payoutId: 'rwa-burn-1' }], 2);
	expect(await balanceOf(address(2), rwa1)).toBe(before.payee + 50_000_000n);
	// A freeze moves nothing: a call of the issuer, which the Signer admits; the holder's trustline is no longer authorised.
	const freezeAnswer = await rwaAnswer('freeze', { user: address(2) });
	expect(freezeAnswer.intent).toMatchObject({
		operation: 'rwa/freeze',
		effect: 'call',
		sender: address(3),
		token: rwa1,
	});
	await signedAndSent([{ ...freezeAnswer, payoutId: 'rwa-freeze-1' }], 3);
	const frozen = await horizon<{ balances: Array<Record<string, unknown>> }>(
		`/accounts/${address(2)}`,
	);
	expect(
		frozen.balances.find(
			(balance) => `${String(balance.asset_code)}:${String(balance.asset_issuer)}` === rwa1,
		),
	).toMatchObject({ is_authorized: false });
});

test('one transaction, one item: an envelope signed under one payout ID is refused under another (oneItemPerTransaction)', async () => {
	const envelope = new TransactionBuilder(
		new Account(address(1), String(await sequenceOf(address(1)))),
		{ fee: '100', networkPassphrase: testnet.passphrase },
	)
		.addOperation(
			Operation.payment({ destination: address(2), asset: Asset.native(), amount: '0.3' }),
		)
		.setTimeout(300)
		.build()
		.toXDR();
	const sign = (payoutId: string) =>
		run(
			[
				signer(
					{
						operation: 'signTransaction',
						accountIndex: 1,
						source: 'fields',
						envelopeXdr: envelope,
						payoutId,
					},
					true,
				),
			],
			[{}],
			mnemonicKey(),
		).then((result) => jsonOf(result, 'Sign')[0]);
	const first = await sign('envelope-a');
	expect(first).toMatchObject({ repeat: false, payoutId: 'envelope-a' });
	const second = await sign('envelope-b');
	expect(String(second.error)).toMatch(
		new RegExp(
			`^Refused by the rule "oneItemPerTransaction": transaction ${String(first.transactionHash)} was signed for .*payout ID "envelope-a".*; this is payout ID "envelope-b".*\\(item 0\\)$`,
		),
	);
	expect(second.rawTransaction).toBeUndefined();
});

test('a second payout ID with the same content signed in the same second, before the first was sent, is the same transaction: refused (oneItemPerTransaction), naming the first; the payee is paid once', async () => {
	const before = await balanceOf(address(2), 'native');
	const pay = (payoutId: string) =>
		run(
			[
				signer(
					{
						operation: 'transferXlm',
						accountIndex: 1,
						recipient: address(2),
						amount: '0.4',
						payoutId,
					},
					true,
				),
			],
			[{}],
			mnemonicKey(),
		).then((result) => jsonOf(result, 'Sign')[0]);
	// One second for both: the same sequence (the first not sent), the same maxTime, so the same bytes.
	const frozen = Date.now();
	jest.spyOn(Date, 'now').mockReturnValue(frozen);
	let first: IDataObject;
	let second: IDataObject;
	try {
		first = await pay('same-a');
		second = await pay('same-b');
	} finally {
		jest.restoreAllMocks();
	}
	expect(first).toMatchObject({ repeat: false, payoutId: 'same-a' });
	expect(String(second.error)).toMatch(
		new RegExp(
			`^Refused by the rule "oneItemPerTransaction": transaction ${String(first.transactionHash)} was signed for .*payout ID "same-a".*; this is payout ID "same-b".*\\(item 0\\)$`,
		),
	);
	expect(second.rawTransaction).toBeUndefined();
	const sent = await run([send()], [first], mnemonicKey());
	expect(jsonOf(sent, 'Send')[0].transactionHash).toBe(first.transactionHash);
	expect(await balanceOf(address(2), 'native')).toBe(before + 4_000_000n);
});

test('a run killed between signing and sending, run again, pays each payout once', async () => {
	const parameters = {
		operation: 'transferXlm',
		accountIndex: 1,
		recipient: address(2),
		amount: '={{ $json.amount }}',
		payoutId: '={{ $json.id }}',
	};
	const items = [
		{ id: 'killed-1', amount: '0.11' },
		{ id: 'killed-2', amount: '0.12' },
		{ id: 'killed-3', amount: '0.13' },
	];
	const before = await balanceOf(address(2), 'native');
	// The killed run: all three signed and recorded, only the first sent before it died.
	const killed = await run([signer(parameters)], items, mnemonicKey());
	const [firstSigned] = jsonOf(killed, 'Sign');
	const sent = await run([send()], [firstSigned], mnemonicKey());
	expect(jsonOf(sent, 'Send')[0].transactionHash).toBe(firstSigned.transactionHash);
	// Run again: every payout is a repeat of what was signed; the rest are sent in order and apply.
	const resumed = await run([signer(parameters), send(true)], items, mnemonicKey());
	expect(jsonOf(resumed, 'Sign')).toMatchObject(
		jsonOf(killed, 'Sign').map((signed, index) => ({
			repeat: true,
			alreadySent: index === 0,
			transactionHash: signed.transactionHash,
		})),
	);
	expectPaired(resumed, 'Send');
	for (const signed of jsonOf(killed, 'Sign'))
		expect(await horizon(`/transactions/${String(signed.transactionHash)}`)).toMatchObject({
			successful: true,
		});
	expect(await balanceOf(address(2), 'native')).toBe(before + 3_600_000n);
});

test('Speed Up Payout while pending: a fee bump of the same transaction; the original and the bump both sent, only one applies', async () => {
	const before = await balanceOf(address(2), 'native');
	const pay = {
		operation: 'transferXlm',
		accountIndex: 1,
		recipient: address(2),
		amount: '0.5',
		payoutId: 'bumped-1',
	};
	const [first] = jsonOf(await run([signer(pay)], [{}], mnemonicKey()), 'Sign');
	expect((await checked([first.transactionHash]))[0]).toMatchObject({ chainStatus: 'pending' });
	const bumped = await run(
		[
			signer({
				operation: 'speedUpPayout',
				accountIndex: 1,
				payoutId: 'bumped-1',
				feePerOperation: '1000',
			}),
		],
		[{}],
		mnemonicKey(),
	);
	const [bump] = jsonOf(bumped, 'Sign');
	expect(bump).toMatchObject({
		replaces: first.transactionHash,
		innerTransactionHash: first.transactionHash,
		sequence: first.sequence,
	});
	const sentBoth = await run([send(true)], [first, bump], mnemonicKey());
	expectPaired(sentBoth, 'Send');
	expect(await balanceOf(address(2), 'native')).toBe(before + 5_000_000n);
	const rows = await checked([first.transactionHash, bump.transactionHash]);
	expect(rows.filter((row) => row.chainStatus === 'mined' && row.success === 'true')).toHaveLength(
		1,
	);
});

function secrets(): string[] {
	const seed = Mnemonic.fromPhrase(testnet.mnemonic).computeSeed();
	const keys = [...testnet.wallets.map((wallet) => wallet.secret), testnet.usdc.issuerSecret];
	return [
		...keys.flatMap((secret) => [
			secret,
			secret.toLowerCase(),
			secret.slice(0, 40),
			Keypair.fromSecret(secret).rawSecretKey().toString('hex'),
			Keypair.fromSecret(secret).rawSecretKey().toString('base64'),
		]),
		seed.slice(2),
		testnet.mnemonic,
		testnet.mnemonic.split(' ').slice(0, 4).join(' '),
	];
}

test('no trace of any key: requests to the API and Horizon, responses, outputs, errors, logs, ledger and journal', async () => {
	const secret = testnet.wallets[0].secret;
	for (const key of [
		seedKey(),
		{ ...seedKey(), privateKey: secret.toLowerCase() },
		{ ...seedKey(), privateKey: secret.slice(0, 50) },
		{ ...mnemonicKey(), mnemonic: `${testnet.mnemonic.split(' ').slice(0, -1).join(' ')} zzzz` },
	])
		await run(
			[
				signer(
					{ operation: 'transferXlm', accountIndex: 0, recipient: address(2), amount: '0.01' },
					true,
				),
				send(true),
			],
			[{}],
			key,
		);
	expect(recording.proxy.requests.some((request) => request.target === testnet.rpcUrl)).toBe(true);
	const hidden = secrets();
	expect(hidden.length).toBeGreaterThan(20);
	const ledger = readdirSync(ledgerFolder).map((name) =>
		readFileSync(join(ledgerFolder, name), 'utf8'),
	);
	expect(ledger.some((text) => text.includes('stellar-memo-1') && text.includes('refused'))).toBe(
		true,
	);
	expectNoTrace(
		[...recordedTexts(recording.proxy, runs, output.lines), ...ledger],
		output.lines,
		hidden,
	);
});

// Last: it moves this process's clock (which the Signer and the devnet's chain both read) past the payout's maxTime.
test('Speed Up Payout re-signs only once the maxTime passed (before it, the same fee is no bump and nothing is re-signed); the original and the re-sign both sent: only the re-sign applies, paid once', async () => {
	const before = await balanceOf(address(2), 'native');
	const pay = {
		operation: 'transferXlm',
		accountIndex: 1,
		recipient: address(2),
		amount: '0.7',
		payoutId: 'expired-1',
	};
	const speedUp = (feePerOperation: string) =>
		run(
			[
				signer(
					{ operation: 'speedUpPayout', accountIndex: 1, payoutId: 'expired-1', feePerOperation },
					true,
				),
			],
			[{}],
			mnemonicKey(),
		).then((result) => jsonOf(result, 'Sign')[0]);
	const [first] = jsonOf(await run([signer(pay)], [{}], mnemonicKey()), 'Sign');
	// While its maxTime is to come, the same fee per operation is no bump, and nothing is re-signed.
	expect(String((await speedUp('100')).error)).toMatch(
		/^Refused by the rule "payoutId": .*does not raise it.*\(item 0\)$/,
	);
	const realNow = Date.now.bind(Date);
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 6 * 60 * 1000);
	try {
		expect((await checked([first.transactionHash]))[0]).toMatchObject({ chainStatus: 'dropped' });
		const resigned = await speedUp('100');
		expect(resigned).toMatchObject({ replaces: first.transactionHash });
		expect(resigned.transactionHash).not.toBe(first.transactionHash);
		const sent = await run([send(true)], [first, resigned], mnemonicKey());
		expectPaired(sent, 'Send');
		expect(await horizon(`/transactions/${String(resigned.transactionHash)}`)).toMatchObject({
			successful: true,
		});
		expect(await horizon(`/transactions/${String(first.transactionHash)}`)).toMatchObject({
			status: 404,
		});
		expect(await balanceOf(address(2), 'native')).toBe(before + 7_000_000n);
		expect(String((await speedUp('1000')).error)).toMatch(/was applied as/);
	} finally {
		jest.restoreAllMocks();
	}
});
