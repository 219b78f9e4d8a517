/**
 * Expand Signer with Chain Family TON, through n8n's engine, on the devnet's TON chains (the real TVM
 * behind a toncenter v2 API): TON and USDT payouts signed and sent with Expand chain/sendtransaction as a
 * workflow does, from W5 and v4R2 wallets of both key kinds (the devnet's BIP-39 mnemonic on
 * m/44'/607'/N' and the TON mnemonic); a jetton comment read where its recipient reads it; payout IDs
 * bound to what they pay; messages From Input Item; a v4R2 message's replay on the other chain; and no
 * trace of any key in anything the runs leave.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { Address, beginCell, Cell, external, loadMessage, storeMessage } from '@ton/core';
import { Mnemonic } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet, DevnetTon } from '../../../../devnet';
import type { TonWallet } from '../../../../devnet/chains/ton';
import { readComment } from '../../../../packages/signer/nodes/ExpandSigner/families/ton';
import { apiBalance } from '../../../helpers/apiBalance';
import { SIGNER, type NodeSpec, type RunResult } from '../../../helpers/n8n';
import { recordedRun, scanRecording } from '../../../helpers/recordedRun';
import { expectNoTrace, recordedTexts } from '../../../helpers/recordedTexts';
import { sendTransactionNode } from '../../../helpers/sendTransactionNode';

const ledgerFolder = mkdtempSync(join(tmpdir(), 'expand-ton-node-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledgerFolder;

const TRANSFER_NOTIFICATION = 0x7362d09c;

let devnet: Devnet;
let testnet: DevnetTon;
let mainnet: DevnetTon;
const recording = scanRecording((started) => {
	devnet = started;
	testnet = devnet.ton.find((chain) => chain.chainId === '1101') as DevnetTon;
	mainnet = devnet.ton.find((chain) => chain.chainId === '1100') as DevnetTon;
	return [testnet.rpcUrl, mainnet.rpcUrl];
});
const { output, runs } = recording;

type Version = TonWallet['version'];
/** A funded wallet: the BIP-39 mnemonic's account `index`, or the TON mnemonic's (index undefined). */
const wallet = (index: number | undefined, version: Version = 'v5r1', chain = testnet) =>
	chain.wallets.find(
		(entry) =>
			entry.version === version &&
			(index === undefined
				? entry.source === 'ton-mnemonic'
				: entry.source === 'bip39' && entry.index === index),
	) as TonWallet;

const credentialVersion = (version: Version) => (version === 'v5r1' ? 'W5' : 'v4R2');
const bip39Key = (version: Version = 'v5r1', policy: IDataObject = {}) => ({
	keyType: 'mnemonic',
	mnemonic: testnet.mnemonic,
	walletVersion: credentialVersion(version),
	payoutLedgerFolder: ledgerFolder,
	rpcUrls: `1101 = ${recording.proxy.url(testnet.rpcUrl)}\n1100 = ${recording.proxy.url(mainnet.rpcUrl)}`,
	...policy,
});
const tonMnemonicKey = (version: Version = 'v5r1', policy: IDataObject = {}) => ({
	...bip39Key(version, policy),
	keyType: 'tonMnemonic',
	mnemonic: testnet.tonMnemonic,
});

const run = async (nodes: NodeSpec[], items: object[], key: IDataObject) =>
	await recordedRun(recording, nodes, items, { ton: key as never });

const signer = (parameters: IDataObject, continueOnFail = false): NodeSpec => ({
	name: 'Sign',
	type: SIGNER,
	parameters: {
		chainFamily: 'ton',
		tonChainId: '1101',
		...parameters,
	} as NodeSpec['parameters'],
	continueOnFail,
});
const send = (continueOnFail = false): NodeSpec => sendTransactionNode({}, continueOnFail);

const jsonOf = (result: RunResult, name: string) => result.output(name).map((item) => item.json);
const usdt = async (owner: string, chain = testnet) =>
	await apiBalance(devnet, chain.chainId, owner, chain.usdt.address);
const seqnoOf = async (chain: DevnetTon, address: string) =>
	Number(
		(
			await (await chain.chain.blockchain.getContract(Address.parse(address))).get('seqno')
		).stackReader.readBigNumber(),
	);

/** The internal messages `to` received from `from` since the chain's transaction count `since`. */
function received(chain: DevnetTon, to: string, from: string, since: number) {
	return chain.chain.blockchain
		.snapshot()
		.transactions.slice(since)
		.map((transaction) => transaction.inMessage)
		.filter(
			(message) =>
				message?.info.type === 'internal' &&
				message.info.dest.equals(Address.parse(to)) &&
				message.info.src.equals(Address.parse(from)),
		)
		.map((message) => ({
			value: message!.info.type === 'internal' ? message!.info.value.coins : 0n,
			body: message!.body,
		}));
}
const transactionCount = (chain: DevnetTon) =>
	chain.chain.blockchain.snapshot().transactions.length;

/** The comment a jetton transfer_notification carries in its forward payload (either in place or in a reference). */
function notifiedComment(body: Cell): { amount: bigint; comment?: string } | undefined {
	const slice = body.beginParse();
	if (slice.loadUint(32) !== TRANSFER_NOTIFICATION) return undefined;
	slice.loadUintBig(64);
	const amount = slice.loadCoins();
	slice.loadAddress();
	const payload = slice.loadBit() ? slice.loadRef() : slice.asCell();
	return { amount, comment: readComment(payload) };
}

test('Transfer TON from W5 and v4R2 wallets of both key kinds is signed, sent with chain/sendtransaction and received whole; each item keeps its pairedItem', async () => {
	const payee = wallet(2).address;
	const payers = [
		{ key: bip39Key('v5r1'), from: wallet(1, 'v5r1') },
		{ key: bip39Key('v4r2'), from: wallet(1, 'v4r2') },
		{ key: tonMnemonicKey('v5r1'), from: wallet(undefined, 'v5r1') },
		{ key: tonMnemonicKey('v4r2'), from: wallet(undefined, 'v4r2') },
	];
	for (const { key, from } of payers) {
		const since = transactionCount(testnet);
		const result = await run(
			[
				signer({
					operation: 'transferTon',
					accountIndex: key.keyType === 'mnemonic' ? 1 : 0,
					recipient: wallet(2).bounceable,
					amountFormat: 'decimal',
					amount: '0.25',
				}),
				send(),
			],
			[{}],
			key,
		);
		expect(result.error).toBeUndefined();
		const [signed] = jsonOf(result, 'Sign');
		expect(signed).toMatchObject({
			from: from.address,
			chainId: '1101',
			walletVersion: key.walletVersion,
			recipient: payee,
			amountRaw: '250000000',
			asset: 'TON',
			repeat: false,
		});
		expect(result.output('Sign')[0].pairedItem).toEqual({ item: 0 });
		expect(jsonOf(result, 'Send')[0].transactionHash).toBe(signed.transactionHash);
		expect(received(testnet, payee, from.address, since).map(({ value }) => value)).toEqual([
			250_000_000n,
		]);
	}
});

test('Transfer Jetton with a Comment: the recipient holds exactly the amount more USDT and its jetton wallet notifies it with the comment', async () => {
	const payer = wallet(0);
	const payee = wallet(2);
	const before = { payer: await usdt(payer.address), payee: await usdt(payee.address) };
	const since = transactionCount(testnet);
	const result = await run(
		[
			signer({
				operation: 'transferJetton',
				accountIndex: 0,
				jettonMaster: testnet.usdt.bounceable,
				recipient: payee.nonBounceable,
				amountFormat: 'smallestUnit',
				amount: '12500000',
				comment: 'invoice 1042',
				payoutId: 'usdt-invoice-1042',
			}),
			send(),
		],
		[{}],
		bip39Key(),
	);
	expect(result.error).toBeUndefined();
	const [signed] = jsonOf(result, 'Sign');
	expect(signed).toMatchObject({ amountRaw: '12500000', comment: 'invoice 1042', repeat: false });
	expect(jsonOf(result, 'Send')[0].transactionHash).toBe(signed.transactionHash);
	expect(await usdt(payee.address)).toBe(before.payee + 12_500_000n);
	expect(await usdt(payer.address)).toBe(before.payer - 12_500_000n);
	const notifications = received(testnet, payee.address, payee.jettonWallet, since)
		.map(({ body }) => notifiedComment(body))
		.filter(Boolean);
	expect(notifications).toEqual([{ amount: 12_500_000n, comment: 'invoice 1042' }]);
});

test('a rerun of the same payout IDs pays nobody (repeat: true), and a payout ID re-used with another comment is refused: the comment is bound', async () => {
	const payee = wallet(2).address;
	const parameters = {
		operation: 'transferTon',
		accountIndex: 0,
		recipient: payee,
		amount: '1000000',
		comment: '={{ $json.memo }}',
		payoutId: '={{ $json.id }}',
	};
	const items = [
		{ id: 'ton-memo-1', memo: 'deposit 7781' },
		{ id: 'ton-memo-2', memo: 'deposit 7782' },
	];
	const since = transactionCount(testnet);
	const first = await run([signer(parameters), send()], items, bip39Key());
	expect(first.error).toBeUndefined();
	// Run again as the workflow is, Send included: the repeats are the messages already accepted, which the wallet refuses.
	const again = await run([signer(parameters), send(true)], items, bip39Key());
	expect(jsonOf(again, 'Send').every((json) => json.error !== undefined)).toBe(true);
	expect(jsonOf(again, 'Sign')).toMatchObject(
		jsonOf(first, 'Sign').map((signed) => ({
			repeat: true,
			alreadySent: true,
			transactionHash: signed.transactionHash,
		})),
	);
	const otherMemo = await run(
		[signer(parameters, true)],
		[{ id: 'ton-memo-1', memo: 'deposit 9999' }],
		bip39Key(),
	);
	expect(String(jsonOf(otherMemo, 'Sign')[0].error)).toMatch(
		/^Refused by the rule "payoutId": payout ID "ton-memo-1" was already signed on .* for other content \(recipient, amount, asset or comment\); a payout ID is never signed for new content; nothing was signed \(item 0\)$/,
	);
	expect(otherMemo.output('Sign')[0].pairedItem).toEqual({ item: 0 });
	const listed = await run([signer({ operation: 'listPayouts' })], [{}], bip39Key());
	expect(
		jsonOf(listed, 'Sign')
			.filter((entry) => entry.payoutId === 'ton-memo-1')
			.map((entry) => [entry.outcome, entry.family, entry.chainId, entry.transactionHash]),
	).toEqual([
		['signed', 'ton', '1101', jsonOf(first, 'Sign')[0].transactionHash],
		['repeat', 'ton', '1101', jsonOf(first, 'Sign')[0].transactionHash],
		['refused', 'ton', '1101', ''],
	]);
	expect(jsonOf(otherMemo, 'Sign')[0].rawTransaction).toBeUndefined();
	expect(
		received(testnet, payee, wallet(0).address, since).map(({ body }) => readComment(body)),
	).toEqual(['deposit 7781', 'deposit 7782']);
});

test('several items of one execution take consecutive seqnos, a refused one none, and all land when sent in order', async () => {
	const from = wallet(1, 'v4r2');
	const seqno = await seqnoOf(testnet, from.address);
	const result = await run(
		[
			signer(
				{
					operation: 'transferTon',
					accountIndex: 1,
					recipient: wallet(2).address,
					amount: '={{ $json.amount }}',
				},
				true,
			),
			send(true),
		],
		[{ amount: '1000' }, { amount: '2000' }, { amount: '20000000000' }, { amount: '3000' }],
		bip39Key('v4r2', { maxPerTransaction: 'native = 10' }),
	);
	expect(result.error).toBeUndefined();
	const signed = jsonOf(result, 'Sign');
	expect(signed.map((json) => json.seqno)).toEqual([seqno, seqno + 1, undefined, seqno + 2]);
	// A refused item takes no seqno: the next one is not left waiting behind a message never signed.
	expect(String(signed[2].error)).toMatch(
		/^Refused by the rule "maxPerTransaction": .*20 .*10.*; nothing was signed \(item 2\)$/,
	);
	expect(result.output('Sign').map((item) => item.pairedItem)).toEqual(
		[0, 1, 2, 3].map((item) => ({ item })),
	);
	expect(await seqnoOf(testnet, from.address)).toBe(seqno + 3);
});

test('From Input Item: one message and TON Connect messages[] are read, held to their intent and land; an unreadable shape and a substituted recipient are refused', async () => {
	const payee = wallet(2).address;
	const intent = (amount: string, recipient = payee) => ({
		effect: 'transfer',
		chainId: '1101',
		token: 'native',
		recipient,
		amount,
	});
	const since = transactionCount(testnet);
	const result = await run(
		[signer({ operation: 'signTransaction', transaction: '={{ $json.tx }}' }, true), send(true)],
		[
			{
				tx: { to: wallet(2).bounceable, value: '3000000', comment: 'one' },
				intent: intent('3000000'),
			},
			{
				tx: {
					validUntil: Math.floor(Date.now() / 1000) + 120,
					messages: [{ address: payee, amount: '4000000' }],
				},
				intent: intent('4000000'),
			},
			{ tx: { recipient: payee, sum: '1' } },
			{ tx: { to: payee, value: '5000000' }, intent: intent('5000000', wallet(0).address) },
		],
		tonMnemonicKey(),
	);
	expect(result.error).toBeUndefined();
	const signed = jsonOf(result, 'Sign');
	expect(signed.slice(0, 2).map((json) => json.seqno)).toEqual([
		Number(signed[0].seqno),
		Number(signed[0].seqno) + 1,
	]);
	expect(String(signed[2].error)).toBe(
		'The TON transaction of the input item cannot be read: the message names no TON address to send to (item 2)',
	);
	expect(signed[2].rawTransaction).toBeUndefined();
	expect(String(signed[3].error)).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked ((not named)): recipient: asked ${wallet(0).address}, the transaction pays ${payee}; nothing was signed (item 3)`,
	);
	expect(result.output('Sign').map((item) => item.pairedItem)).toEqual(
		[0, 1, 2, 3].map((item) => ({ item })),
	);
	expect(
		received(testnet, payee, wallet(undefined).address, since).map(({ value }) => value),
	).toEqual([3_000_000n, 4_000_000n]);
});

test('From Input Item: a TON Connect request made for another network or another wallet is refused, naming the field, and nothing is signed', async () => {
	const payee = wallet(2).address;
	const own = wallet(undefined).address;
	const request = (extra: object) => ({
		validUntil: Math.floor(Date.now() / 1000) + 120,
		messages: [{ address: payee, amount: '1000000' }],
		...extra,
	});
	const since = transactionCount(testnet);
	const result = await run(
		[signer({ operation: 'signTransaction', transaction: '={{ $json.tx }}' }, true)],
		[
			{ tx: request({ network: '-239', from: own }) },
			{ tx: request({ network: '-3', from: wallet(0).address }) },
			{ tx: request({ network: '-3', from: own }) },
		],
		tonMnemonicKey(),
	);
	const signed = jsonOf(result, 'Sign');
	expect(String(signed[0].error)).toBe(
		'The transaction\'s network "-239" is not chain 1101\'s (-3): it was made for another TON network (item 0)',
	);
	expect(String(signed[1].error)).toBe(
		`The transaction's from "${wallet(0).address}" is not this account's wallet (${own}): it was made for another wallet (item 1)`,
	);
	expect(signed.slice(0, 2).map((json) => json.rawTransaction)).toEqual([undefined, undefined]);
	expect(typeof signed[2].rawTransaction).toBe('string');
	expect(result.output('Sign').map((item) => item.pairedItem)).toEqual(
		[0, 1, 2].map((item) => ({ item })),
	);
	expect(transactionCount(testnet)).toBe(since);
});

test("From Input Item, a TON Connect jetton transfer with a comment is held to its intent's jetton, recipient, amount and memo; another memo is refused", async () => {
	const payer = wallet(1);
	const payee = wallet(0);
	/** TEP-74 transfer: the payee as destination, the payer as response_destination, the comment as forward payload in a reference. */
	const jettonTransfer = (memo: string) =>
		beginCell()
			.storeUint(0x0f8a7ea5, 32)
			.storeUint(0, 64)
			.storeCoins(2_500_000n)
			.storeAddress(Address.parse(payee.address))
			.storeAddress(Address.parse(payer.address))
			.storeBit(false)
			.storeCoins(1n)
			.storeBit(true)
			.storeRef(beginCell().storeUint(0, 32).storeStringTail(memo).endCell())
			.endCell()
			.toBoc()
			.toString('base64');
	const item = (memo: string, askedMemo: string) => ({
		tx: {
			messages: [
				{ address: payer.jettonWallet, amount: '50000000', payload: jettonTransfer(memo) },
			],
		},
		intent: {
			effect: 'transfer',
			chainId: '1101',
			token: testnet.usdt.address,
			recipient: payee.address,
			amount: '2500000',
			memo: askedMemo,
		},
	});
	const before = await usdt(payee.address);
	const since = transactionCount(testnet);
	const result = await run(
		[
			signer(
				{
					operation: 'signTransaction',
					accountIndex: 1,
					transaction: '={{ $json.tx }}',
				},
				true,
			),
			send(true),
		],
		[item('order 55', 'order 55'), item('order 56', 'order 55')],
		bip39Key(),
	);
	expect(result.error).toBeUndefined();
	const [signed, refused] = jsonOf(result, 'Sign');
	expect(signed.error).toBeUndefined();
	expect(String(refused.error)).toBe(
		'Refused by the rule "intent": the transaction is not what the form asked ((not named)): memo: asked "order 55", the transaction carries "order 56"; nothing was signed (item 1)',
	);
	expect(jsonOf(result, 'Send')[0].transactionHash).toBe(signed.transactionHash);
	expect(await usdt(payee.address)).toBe(before + 2_500_000n);
	expect(
		received(testnet, payee.address, payee.jettonWallet, since).map(({ body }) =>
			notifiedComment(body),
		),
	).toEqual([{ amount: 2_500_000n, comment: 'order 55' }]);
});

test("a v4R2 message signed for 1101 is accepted by the same wallet on 1100 when the seqnos match; W5's is refused there (its wallet_id names the network)", async () => {
	const v4 = wallet(2, 'v4r2');
	expect(wallet(2, 'v4r2', mainnet).address).toBe(v4.address);
	expect(await seqnoOf(mainnet, v4.address)).toBe(await seqnoOf(testnet, v4.address));
	const payee = wallet(0).address;
	const sign = async (version: Version) =>
		jsonOf(
			await run(
				[
					signer({
						operation: 'transferTon',
						accountIndex: 2,
						recipient: payee,
						amount: '7000000',
					}),
				],
				[{}],
				bip39Key(version),
			),
			'Sign',
		)[0];
	const sendBoc = async (chain: DevnetTon, boc: string) =>
		(await (
			await fetch(`${chain.rpcUrl}/sendBoc`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ boc }),
			})
		).json()) as { ok: boolean };

	const signedV4 = await sign('v4r2');
	const since = transactionCount(mainnet);
	expect(await sendBoc(mainnet, String(signedV4.rawTransaction))).toMatchObject({ ok: true });
	expect(received(mainnet, payee, v4.address, since).map(({ value }) => value)).toEqual([
		7_000_000n,
	]);

	// W5: the same key's wallet on 1100 is another address; the body re-addressed to it fails the wallet_id check.
	const signedW5 = await sign('v5r1');
	const message = loadMessage(
		Cell.fromBoc(Buffer.from(String(signedW5.rawTransaction), 'base64'))[0].beginParse(),
	);
	const mainnetW5 = Address.parse(wallet(2, 'v5r1', mainnet).address);
	expect(mainnetW5.equals(Address.parse(wallet(2).address))).toBe(false);
	expect(await sendBoc(mainnet, String(signedW5.rawTransaction))).toMatchObject({ ok: false });
	const readdressed = beginCell()
		.store(storeMessage(external({ to: mainnetW5, body: message.body })))
		.endCell()
		.toBoc()
		.toString('base64');
	const seqno = await seqnoOf(mainnet, mainnetW5.toRawString());
	expect(await sendBoc(mainnet, readdressed)).toMatchObject({ ok: false });
	expect(await seqnoOf(mainnet, mainnetW5.toRawString())).toBe(seqno);
});

test('a v4R2 wallet signs only while Allowed Chain IDs allow both TON chains (or are empty); W5 signs for one', async () => {
	const transfer = signer(
		{ operation: 'transferTon', accountIndex: 0, recipient: wallet(2).address, amount: '1000' },
		true,
	);
	const refused = await run([transfer], [{}], bip39Key('v4r2', { allowedChainIds: '1101' }));
	expect(String(jsonOf(refused, 'Sign')[0].error)).toMatch(
		/^Refused by the rule "allowedChainIds": a v4R2 wallet's message names no network: signed for chain 1101, it is just as valid on chain 1100, which the allowed chains \(1101\) leave out\. .*; nothing was signed \(item 0\)$/,
	);
	expect(refused.output('Sign')[0].pairedItem).toEqual({ item: 0 });
	const both = await run([transfer], [{}], bip39Key('v4r2', { allowedChainIds: '1100, 1101' }));
	expect(jsonOf(both, 'Sign')[0]).toMatchObject({ walletVersion: 'v4R2', chainId: '1101' });
	const w5 = await run([transfer], [{}], bip39Key('v5r1', { allowedChainIds: '1101' }));
	expect(jsonOf(w5, 'Sign')[0]).toMatchObject({ walletVersion: 'W5', chainId: '1101' });
});

test('a run killed between signing and sending, run again, pays each payout once', async () => {
	const payee = wallet(2).address;
	const from = wallet(1);
	const parameters = {
		operation: 'transferTon',
		accountIndex: 1,
		recipient: payee,
		amount: '={{ $json.amount }}',
		payoutId: '={{ $json.id }}',
	};
	const items = [
		{ id: 'killed-1', amount: '11000' },
		{ id: 'killed-2', amount: '12000' },
		{ id: 'killed-3', amount: '13000' },
	];
	const since = transactionCount(testnet);
	// The killed run: all three signed and recorded, only the first sent before it died.
	const killed = await run([signer(parameters)], items, bip39Key());
	const [firstSigned] = jsonOf(killed, 'Sign');
	const sent = await run([send()], [firstSigned], bip39Key());
	expect(jsonOf(sent, 'Send')[0].transactionHash).toBe(firstSigned.transactionHash);
	// Run again: every payout is a repeat of what was signed; the one that landed is refused by the wallet when resent.
	const resumed = await run([signer(parameters), send(true)], items, bip39Key());
	expect(jsonOf(resumed, 'Sign')).toMatchObject(
		jsonOf(killed, 'Sign').map((signed, index) => ({
			repeat: true,
			alreadySent: index === 0,
			transactionHash: signed.transactionHash,
		})),
	);
	const resent = jsonOf(resumed, 'Send');
	expect(resent[0].error).toBeDefined();
	expect(resent.slice(1).map((json) => json.transactionHash)).toEqual(
		jsonOf(killed, 'Sign')
			.slice(1)
			.map((signed) => signed.transactionHash),
	);
	expect(received(testnet, payee, from.address, since).map(({ value }) => value)).toEqual([
		11_000n,
		12_000n,
		13_000n,
	]);
});

function secrets(): string[] {
	const seed = Mnemonic.fromPhrase(testnet.mnemonic).computeSeed();
	return [
		...[...testnet.wallets, ...mainnet.wallets].flatMap((entry) => [
			entry.secretKey,
			entry.secretKey.toUpperCase(),
			`${entry.secretKey}${entry.publicKey}`,
			entry.secretKey.slice(0, 60),
			Buffer.from(entry.secretKey, 'hex').toString('base64'),
		]),
		seed.slice(2),
		testnet.mnemonic,
		testnet.mnemonic.split(' ').slice(0, 4).join(' '),
		testnet.tonMnemonic,
		testnet.tonMnemonic.split(' ').slice(0, 4).join(' '),
	];
}

test('no trace of any key: requests to the API and the TON node, responses, outputs, errors and logs', async () => {
	const secretKey = wallet(0).secretKey;
	for (const key of [
		{ ...bip39Key(), keyType: 'privateKey', privateKey: secretKey },
		{ ...bip39Key(), keyType: 'privateKey', privateKey: `0x${secretKey.toUpperCase()}` },
		{ ...bip39Key(), keyType: 'privateKey', privateKey: secretKey.slice(0, 60) },
		{ ...bip39Key(), mnemonic: `${testnet.mnemonic.split(' ').slice(0, -1).join(' ')} zzzz` },
		{ ...tonMnemonicKey(), mnemonic: testnet.tonMnemonic.split(' ').reverse().join(' ') },
	])
		await run(
			[
				signer({ operation: 'transferTon', recipient: wallet(2).address, amount: '1000' }, true),
				send(true),
			],
			[{}],
			key,
		);
	expect(
		recording.proxy.requests.some(
			(request) => request.target === testnet.rpcUrl && request.url.includes('runGetMethod'),
		),
	).toBe(true);
	const hidden = secrets();
	expect(hidden.length).toBeGreaterThan(40);
	// The payout ledger and journal the runs wrote: what was signed, repeated and refused.
	const ledger = readdirSync(ledgerFolder).map((name) =>
		readFileSync(join(ledgerFolder, name), 'utf8'),
	);
	expect(ledger.some((text) => text.includes('ton-memo-1') && text.includes('refused'))).toBe(true);
	expectNoTrace(
		[...recordedTexts(recording.proxy, runs, output.lines), ...ledger],
		output.lines,
		hidden,
	);
});

// Last: it moves the clock (and so the chain's time) past the payout's valid_until.
test('Speed Up Payout of a v4R2 payout is refused once Allowed Chain IDs leave out the other chain', async () => {
	const parameters = {
		operation: 'transferTon',
		accountIndex: 0,
		recipient: wallet(2).address,
		amount: '1000',
		payoutId: 'v4r2-narrowed',
	};
	const [signed] = jsonOf(await run([signer(parameters)], [{}], bip39Key('v4r2')), 'Sign');
	expect(signed).toMatchObject({ walletVersion: 'v4R2', repeat: false });
	const realNow = Date.now.bind(Date);
	const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 6 * 60 * 1000);
	try {
		testnet.chain.mine();
		const speedUp = signer({ operation: 'speedUpPayout', payoutId: 'v4r2-narrowed' }, true);
		const narrowed = await run([speedUp], [{}], bip39Key('v4r2', { allowedChainIds: '1101' }));
		expect(String(jsonOf(narrowed, 'Sign')[0].error)).toMatch(
			/^Refused by the rule "allowedChainIds": a v4R2 wallet's message names no network: signed for chain 1101, it is just as valid on chain 1100, .*nothing was signed \(item 0\)$/,
		);
		const both = await run([speedUp], [{}], bip39Key('v4r2'));
		expect(jsonOf(both, 'Sign')[0]).toMatchObject({
			replaces: signed.transactionHash,
			walletVersion: 'v4R2',
		});
	} finally {
		clock.mockRestore();
	}
});
