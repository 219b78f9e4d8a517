/**
 * Thefts through Expand Signer's TON policy, tried on the devnet's TON testnet (chain 1101, the real TVM
 * on @ton/sandbox behind a toncenter-v2 API the credential pins). The attacker writes what the Signer is
 * handed: an input item (one message {to, value, body|comment, stateInit?, mode?} or TON Connect's
 * {messages}) beside an intent. Each test first carries the theft out with the rule off: the Signer in
 * n8n's engine signs, Expand chain/sendtransaction sends, and the attacker's gain is read back from the
 * chain. Then the same attack with the rule on: refused in words naming the item, the rule and the
 * value, nothing signed, the journal's entry a refusal, and nothing moved. A rule that holds whatever
 * the policy says (a send mode that empties or destroys the wallet) has no "off": the theft is signed
 * with @ton/ton directly, as a signer without it would.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import {
	Address,
	beginCell,
	type Cell,
	external,
	internal,
	SendMode,
	storeMessage,
	storeStateInit,
} from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet, DevnetTon } from '../../../devnet';
import { apiBalance } from '../../helpers/apiBalance';
import { devnetCredentials } from '../../helpers/devnetCredentials';
import { SIGNER, type NodeSpec } from '../../helpers/n8n';
import {
	expectRefused,
	expectSent,
	lastJournalEntry as journalEntry,
	signAndSend as signAndSendItems,
} from '../../helpers/signAndSend';
import { deployFakeJettonMaster } from '../../helpers/tonFakeJettonMaster';
import { useDevnet } from '../../helpers/useDevnet';

const ledgerFolder = mkdtempSync(join(tmpdir(), 'expand-ton-theft-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledgerFolder;

const CHAIN = '1101';
const TON = 1_000_000_000n;
const USDT = 1_000_000n;
/** What a receiving wallet's own transaction may cost it: the attacker's gain is the value less this. */
const RECEIVE_FEE = TON / 100n;

let devnet: Devnet;
let testnet: DevnetTon;
useDevnet((started) => {
	devnet = started;
	testnet = started.ton.find((chain) => chain.chainId === CHAIN) as DevnetTon;
});

/** The devnet's funded wallets on 1101: W5 then v4R2 of BIP-39 accounts 0, 1, 2, then of the TON mnemonic. */
const wallet = (index: number) => testnet.wallets[index];
/** The attacker: BIP-39 account 2's v4R2 wallet. */
const outsider = () => wallet(5);
/** The payee the workflow means to pay (an exchange's deposit wallet in the comment theft). */
const payee = () => wallet(3);

/** The treasury's key (wallet `index`) with this policy, its node pinned, its ledger and journal in the test's folder. */
const keyOf = (index: number, policy: IDataObject = {}) => ({
	keyType: 'privateKey',
	privateKey: wallet(index).secretKey,
	walletVersion: wallet(index).version === 'v5r1' ? 'W5' : 'v4R2',
	rpcUrls: `${CHAIN} = ${testnet.rpcUrl}`,
	payoutLedgerFolder: ledgerFolder,
	...policy,
});

const signer = (parameters: IDataObject): NodeSpec => ({
	name: 'Sign',
	type: SIGNER,
	parameters: {
		chainFamily: 'ton',
		tonChainId: CHAIN,
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
		{ ...devnetCredentials(devnet), expandTonKeyApi: key as never },
	);

/** The journal's newest entry for the treasury `index`, as List Payouts gives it. */
const lastJournalEntry = (index: number) =>
	journalEntry(
		wallet(index).address,
		{ ...signer({}).parameters },
		{
			...devnetCredentials(devnet),
			expandTonKeyApi: keyOf(index) as never,
		},
	);

const ton = (address: string) => apiBalance(devnet, CHAIN, address);
const usdt = (address: string) => apiBalance(devnet, CHAIN, address, testnet.usdt.address);
/** What the treasury `index` and the outsider hold, TON and USDT, as Expand chain/getbalance reads the chain. */
const holdings = async (index: number) => ({
	treasuryTon: await ton(wallet(index).address),
	treasuryUsdt: await usdt(wallet(index).address),
	outsiderTon: await ton(outsider().address),
	outsiderUsdt: await usdt(outsider().address),
});

const boc = (cell: Cell) => cell.toBoc().toString('base64');

/** A TEP-74 jetton transfer body, as any wallet app writes it: `amount` to `destination`, the rest of the TON back to `response`. */
function jettonTransfer(amount: bigint, destination: string, response: string): Cell {
	return beginCell()
		.storeUint(0x0f8a7ea5, 32)
		.storeUint(0, 64)
		.storeCoins(amount)
		.storeAddress(Address.parse(destination))
		.storeAddress(Address.parse(response))
		.storeMaybeRef(null)
		.storeCoins(0)
		.storeBit(false)
		.endCell();
}

/** What the form asked, as Expand's builders write it beside the transaction: a transfer of `token` ('native' or a jetton master). */
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

test('a substituted message: the intent asks 10 USDT to the payee, the message pays them to the outsider; signed without the intent, the outsider is paid; with it, refused naming the outsider', async () => {
	const treasury = wallet(0);
	const substituted = {
		to: treasury.jettonWallet,
		value: '50000000',
		body: boc(jettonTransfer(10n * USDT, outsider().address, treasury.address)),
	};

	// Rule off: the same message without the intent that would bind it.
	const before = await holdings(0);
	const off = await signAndSend([{ transaction: substituted }], keyOf(0));
	expectSent(off.signed[0], off.sent[0]);
	const after = await holdings(0);
	expect(after.outsiderUsdt - before.outsiderUsdt).toBe(10n * USDT);
	expect(before.treasuryUsdt - after.treasuryUsdt).toBe(10n * USDT);

	// Rule on: the item carries the intent the workflow asked for.
	const on = await signAndSend(
		[
			{
				transaction: substituted,
				intent: intent(treasury.address, payee().address, testnet.usdt.address, 10n * USDT),
			},
		],
		keyOf(0),
	);
	expectRefused(
		on.signed[0],
		on.sent[0],
		`Refused by the rule "intent": the transaction is not what the form asked (transfer): recipient: asked ${payee().address}, the transaction pays ${outsider().address}; what it does: the transaction also pays TON attached to a jetton transfer for ${outsider().address}, whom the form did not name; nothing was signed (item 0)`,
	);
	expect(await lastJournalEntry(0)).toMatchObject({ outcome: 'refused', rule: 'intent' });
	expect(await holdings(0)).toEqual(after);
});

test('several messages summed past a cap: one W5 message with three out-messages of 40 TON to the outsider; without a limit 120 TON leave, under native = 100 refused for their sum', async () => {
	const threeOf40 = {
		messages: Array.from({ length: 3 }, () => ({
			address: outsider().address,
			amount: (40n * TON).toString(),
		})),
	};

	const before = await holdings(2);
	const off = await signAndSend([{ transaction: threeOf40 }], keyOf(2));
	expectSent(off.signed[0], off.sent[0]);
	const after = await holdings(2);
	expect(after.outsiderTon - before.outsiderTon).toBeGreaterThan(120n * TON - RECEIVE_FEE);
	expect(before.treasuryTon - after.treasuryTon).toBeGreaterThan(120n * TON);

	const on = await signAndSend(
		[{ transaction: threeOf40 }],
		keyOf(2, { maxPerTransaction: 'native = 100' }),
	);
	expectRefused(
		on.signed[0],
		on.sent[0],
		'Refused by the rule "maxPerTransaction": 3 transfers (TON transfer, TON transfer, TON transfer) of 120 (120000000000 in the smallest unit) of the native asset are above the limit of 100 per transaction; nothing was signed (item 0)',
	);
	expect(await lastJournalEntry(2)).toMatchObject({
		outcome: 'refused',
		rule: 'maxPerTransaction',
	});
	expect(await holdings(2)).toEqual(after);
});

/** Chain 1101's W5 wallet_id carries the testnet's global id. */
const TESTNET_GLOBAL_ID = -3;

/** The wallet `index`'s contract as @ton/ton builds it, and its key pair. */
function walletOf(index: number) {
	const keys = keyPairFromSeed(Buffer.from(wallet(index).secretKey, 'hex'));
	const contract =
		wallet(index).version === 'v5r1'
			? WalletContractV5R1.create({
					publicKey: keys.publicKey,
					walletId: { networkGlobalId: TESTNET_GLOBAL_ID },
				})
			: WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
	return { contract, keys };
}

/** The wallet's seqno, read on the chain. */
async function seqnoOf(address: string): Promise<number> {
	testnet.chain.tick();
	const { stackReader } = await testnet.chain.blockchain.runGetMethod(
		Address.parse(address),
		'seqno',
	);
	return stackReader.readNumber();
}

/** Sends an external message through Expand chain/sendtransaction, as Send does: its answer. */
async function sendThroughApi(rawTransaction: string): Promise<IDataObject> {
	const reply = await fetch(`${devnet.baseUrl}/chain/sendtransaction`, {
		method: 'POST',
		headers: { 'x-api-key': devnet.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify({ rawTransaction, chainId: CHAIN }),
	});
	return (await reply.json()) as IDataObject;
}

/** What a signer without the rule signs: the wallet `index`'s transfer of nothing to the outsider with `sendMode`, sent. */
async function signDirectlyAndSend(index: number, sendMode: number): Promise<IDataObject> {
	const { contract, keys } = walletOf(index);
	const args = {
		seqno: await seqnoOf(wallet(index).address),
		secretKey: keys.secretKey,
		timeout: testnet.chain.now + 300,
		sendMode,
		messages: [internal({ to: Address.parse(outsider().address), value: 0n, bounce: false })],
	};
	const body =
		contract instanceof WalletContractV5R1
			? contract.createTransfer(args)
			: contract.createTransfer(args);
	const message = external({ to: contract.address, body });
	return await sendThroughApi(
		beginCell().store(storeMessage(message)).endCell().toBoc().toString('base64'),
	);
}

test("send mode 128 (the whole balance) and +32 (destroy the wallet): the Signer refuses both with no policy field set; signed with @ton/ton directly, the outsider takes a W5 wallet's every TON and a v4R2 wallet is emptied and deleted", async () => {
	const [w5, v4] = [6, 7];
	const handOver = (mode: number) => ({
		transaction: { to: outsider().address, value: '0', bounce: false, mode },
	});
	const words = (mode: number, what: string) =>
		`Refused by the rule "handsOver": the transaction sends to ${outsider().address} with mode ${mode}, which ${what}, which hands the account over or empties it; the signer never signs that, whatever the policy says; nothing was signed (item 0)`;
	const wholeBalance = "carries the wallet's whole balance (+128)";
	const destroys = 'destroys the wallet once its balance is zero (+32)';

	const held = [await ton(wallet(w5).address), await ton(wallet(v4).address)];
	const allModes = SendMode.CARRY_ALL_REMAINING_BALANCE | SendMode.IGNORE_ERRORS;
	const w5Refused = await signAndSend([handOver(allModes)], keyOf(w5));
	expectRefused(w5Refused.signed[0], w5Refused.sent[0], words(130, wholeBalance));
	expect(await lastJournalEntry(w5)).toMatchObject({ outcome: 'refused', rule: 'handsOver' });
	const destroy = allModes | SendMode.DESTROY_ACCOUNT_IF_ZERO;
	const v4Refused = await signAndSend([handOver(destroy)], keyOf(v4));
	expectRefused(
		v4Refused.signed[0],
		v4Refused.sent[0],
		words(162, `${wholeBalance} and ${destroys}`),
	);
	expect(await lastJournalEntry(v4)).toMatchObject({ outcome: 'refused', rule: 'handsOver' });
	expect([await ton(wallet(w5).address), await ton(wallet(v4).address)]).toEqual(held);

	// Rule off: the same messages signed with the key by @ton/ton, and sent.
	let before = await ton(outsider().address);
	expect(await signDirectlyAndSend(w5, allModes)).toMatchObject({
		data: { transactionHash: expect.any(String) },
	});
	expect(await ton(wallet(w5).address)).toBe(0n);
	expect((await ton(outsider().address)) - before).toBeGreaterThan(held[0] - RECEIVE_FEE);

	before = await ton(outsider().address);
	expect(await signDirectlyAndSend(v4, destroy)).toMatchObject({
		data: { transactionHash: expect.any(String) },
	});
	expect(await ton(wallet(v4).address)).toBe(0n);
	expect((await ton(outsider().address)) - before).toBeGreaterThan(held[1] - RECEIVE_FEE);
	const deleted = await testnet.chain.blockchain.getContract(Address.parse(wallet(v4).address));
	expect(deleted.accountState).toBeUndefined();
});

test("a jetton wallet that is not the sender's: a fake master answering the treasury's USDT jetton wallet, named as the intent's token, reads 1,000 USDT to the outsider as its own jetton's; without a USDT line it is signed and the outsider is paid; under 100 USDT per transaction the jetton wallet both claim is read as neither's and refused, as is a jetton transfer sent to the outsider's own jetton wallet", async () => {
	const treasury = wallet(0);
	const fake = await deployFakeJettonMaster(testnet, treasury.jettonWallet);
	const item = {
		transaction: {
			to: treasury.jettonWallet,
			value: '50000000',
			body: boc(jettonTransfer(1_000n * USDT, outsider().address, treasury.address)),
		},
		intent: intent(treasury.address, outsider().address, fake, 1_000n * USDT),
	};

	// Rule off: no USDT line, so only the intent's master is asked which jetton wallet is the treasury's, and
	// its word is taken (as it was under the USDT line too, the later answer winning, until both were read as neither's).
	const before = await holdings(0);
	const off = await signAndSend([item], keyOf(0));
	expectSent(off.signed[0], off.sent[0]);
	const after = await holdings(0);
	expect(after.outsiderUsdt - before.outsiderUsdt).toBe(1_000n * USDT);
	expect(before.treasuryUsdt - after.treasuryUsdt).toBe(1_000n * USDT);

	const limited = keyOf(0, { maxPerTransaction: `${testnet.usdt.address}:6 = 100` });
	const on = await signAndSend([item], limited);
	expectRefused(
		on.signed[0],
		on.sent[0],
		`Refused by the rule "intent": the transaction is not what the form asked (transfer): what it does: asked a transfer, the transaction also calls a jetton transfer from a jetton wallet not shown to be the sender's (${treasury.jettonWallet}) (program ${treasury.jettonWallet}); token: asked ${fake}, the transaction moves the native asset; recipient: asked ${outsider().address}, the transaction pays ${treasury.jettonWallet}; amount: asked 1000000000 (smallest unit), the transaction moves 50000000 (smallest unit); nothing was signed (item 0)`,
	);
	expect(await lastJournalEntry(0)).toMatchObject({ outcome: 'refused', rule: 'intent' });

	const toOutsidersWallet = {
		transaction: {
			to: outsider().jettonWallet,
			value: (50n * TON).toString(),
			body: boc(jettonTransfer(10n * USDT, outsider().address, treasury.address)),
		},
	};
	const opaque = await signAndSend([toOutsidersWallet], limited);
	expectRefused(
		opaque.signed[0],
		opaque.sent[0],
		`Refused by the rule "allowedContracts": the transaction holds a jetton transfer from a jetton wallet not shown to be the sender's (${outsider().jettonWallet}) (program ${outsider().jettonWallet}), which the signer cannot read as a transfer, and the program is not on Allowed Contracts and Programs; nothing was signed (item 0)`,
	);
	expect(await lastJournalEntry(0)).toMatchObject({
		outcome: 'refused',
		rule: 'allowedContracts',
	});
	expect(await holdings(0)).toEqual(after);
});

/** The outsider's new v4R2 wallet (another wallet_id than its funded one): its state init and address. */
function outsidersNewWallet(walletId: number) {
	const { publicKey, secretKey } = keyPairFromSeed(Buffer.from(outsider().secretKey, 'hex'));
	const contract = WalletContractV4.create({ workchain: 0, publicKey, walletId });
	return {
		contract,
		secretKey,
		address: contract.address.toRawString(),
		stateInit: boc(beginCell().store(storeStateInit(contract.init)).endCell()),
	};
}

test("a state init: 50 TON that deploy the outsider's new wallet; with Allow Contract Deployment it is signed and the outsider spends them; without it, under native = 100, refused", async () => {
	const deployed = outsidersNewWallet(1);
	const deploy = (target: ReturnType<typeof outsidersNewWallet>) => ({
		transaction: {
			to: target.address,
			value: (50n * TON).toString(),
			bounce: false,
			stateInit: target.stateInit,
		},
		intent: intent(wallet(1).address, target.address, 'native', 50n * TON),
	});
	const policy = { maxPerTransaction: 'native = 100' };

	const off = await signAndSend(
		[deploy(deployed)],
		keyOf(1, { ...policy, allowContractDeployment: true }),
	);
	expectSent(off.signed[0], off.sent[0]);
	const contract = testnet.chain.blockchain.openContract(deployed.contract);
	expect(await contract.getSeqno()).toBe(0);
	const before = await ton(outsider().address);
	await contract.sendTransfer({
		seqno: 0,
		secretKey: deployed.secretKey,
		messages: [
			internal({ to: Address.parse(outsider().address), value: 49n * TON, bounce: false }),
		],
	});
	expect((await ton(outsider().address)) - before).toBeGreaterThan(49n * TON - RECEIVE_FEE);

	const refused = outsidersNewWallet(2);
	const held = await ton(wallet(1).address);
	const on = await signAndSend([deploy(refused)], keyOf(1, policy));
	expectRefused(
		on.signed[0],
		on.sent[0],
		'Refused by the rule "allowContractDeployment": the transaction deploys a contract, which is refused while an amount limit or the recipient list is set; turn on Allow Contract Deployment to sign it; nothing was signed (item 0)',
	);
	expect(await lastJournalEntry(1)).toMatchObject({
		outcome: 'refused',
		rule: 'allowContractDeployment',
	});
	expect(await ton(wallet(1).address)).toBe(held);
	expect(await ton(refused.address)).toBe(0n);
});

/** The text comments the wallet `address` received, oldest first, as the chain holds them. */
function commentsReceived(address: string): string[] {
	return testnet.chain
		.accountTransactions(Address.parse(address))
		.reverse()
		.flatMap((transaction) => {
			const body = transaction.inMessage?.body.beginParse();
			if (!body || body.remainingBits < 32 || body.loadUint(32) !== 0) return [];
			return [body.loadStringTail()];
		});
}

test('a changed comment: the intent names the deposit memo "INV-1", the message carries the outsider\'s "INV-2"; signed without the intent, the exchange is credited INV-2; with it refused naming both; and a payout ID signed with one comment is refused with another', async () => {
	const [treasury, exchange] = [wallet(4), payee()];
	const deposit = { to: exchange.address, value: (25n * TON).toString(), comment: 'INV-2' };

	const off = await signAndSend([{ transaction: deposit }], keyOf(4));
	expectSent(off.signed[0], off.sent[0]);
	expect(commentsReceived(exchange.address).slice(-1)).toEqual(['INV-2']);

	const held = await ton(treasury.address);
	const on = await signAndSend(
		[
			{
				transaction: deposit,
				intent: intent(treasury.address, exchange.address, 'native', 25n * TON, 'INV-1'),
			},
		],
		keyOf(4),
	);
	expectRefused(
		on.signed[0],
		on.sent[0],
		'Refused by the rule "intent": the transaction is not what the form asked (transfer): memo: asked "INV-1", the transaction carries "INV-2"; nothing was signed (item 0)',
	);
	expect(await lastJournalEntry(4)).toMatchObject({ outcome: 'refused', rule: 'intent' });
	expect(await ton(treasury.address)).toBe(held);

	const payout = (comment: string) => ({
		payoutId: 'deposit-42',
		transaction: { to: exchange.address, value: TON.toString(), comment },
	});
	const first = await signAndSend([payout('INV-1')], keyOf(4), {
		payoutId: '={{ $json.payoutId }}',
	});
	expectSent(first.signed[0], first.sent[0]);
	const received = commentsReceived(exchange.address);
	expect(received.slice(-1)).toEqual(['INV-1']);
	const reused = await signAndSend([payout('INV-2')], keyOf(4), {
		payoutId: '={{ $json.payoutId }}',
	});
	expect(reused.signed[0].error).toMatch(
		new RegExp(
			`^Refused by the rule "payoutId": payout ID "deposit-42" was already signed on [0-9T:.-]+Z as ${String(first.signed[0].transactionHash)} for other content \\(recipient, amount, asset or comment\\); a payout ID is never signed for new content; nothing was signed \\(item 0\\)$`,
		),
	);
	expect(Object.keys(reused.signed[0])).toEqual(['error']);
	expect(reused.sent[0].transactionHash).toBeUndefined();
	expect(await lastJournalEntry(4)).toMatchObject({
		outcome: 'refused',
		rule: 'payoutId',
		payoutId: 'deposit-42',
	});
	expect(commentsReceived(exchange.address)).toEqual(received);
});
