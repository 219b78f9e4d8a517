/**
 * Thefts through Expand Signer's Tron policy, tried on the devnet's Tron stand-in (chains 1000, 1001).
 * The attacker writes the transaction the Signer is handed (the API's answer, an input item, a sheet's
 * rows). Each test first carries the theft out with the rule off: the Signer in n8n's engine signs,
 * Expand chain/sendtransaction sends, and the outsider is paid (or the fee burned) on the stand-in.
 * Then the same attack with the rule on: refused in words naming the item, the rule and the value,
 * nothing signed, the journal's entry a refusal, and no balance moved. Where no rule refuses, the
 * setting that stops it: the API's send answering the txID of a transaction the node refused, which
 * the Signer does not take for a payment. A check the Signer has no setting for is turned off in the
 * test itself: oneItemPerTransaction by passing its binding through, rpcChainId by expecting no
 * genesis block of the chain's node.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { SigningKey, Wallet, formatUnits, getBytes } from 'ethers';
import type { IDataObject } from 'n8n-workflow';
import { TronWeb, utils } from 'tronweb';

import { type Devnet, type DevnetTron, type TronWallet, startDevnet } from '../../../devnet';
import {
	base58Address,
	referenceBlock,
	transactionId,
	TRON_CHAIN_IDENTITY,
} from '../../../packages/signer/nodes/ExpandSigner/families/tron';
import { TransactionIdBindings } from '../../../packages/signer/nodes/ExpandSigner/ledger/transactionIds';
import { apiBalance } from '../../helpers/apiBalance';
import { devnetCredentials } from '../../helpers/devnetCredentials';
import { startLyingFront } from '../../helpers/lyingFront';
import { ITEMS, SIGNER, runPipeline, type NodeSpec } from '../../helpers/n8n';
import { sendTransactionNode } from '../../helpers/sendTransactionNode';
import {
	expectRefused,
	lastJournalEntry as journalEntry,
	signAndSend as signAndSendItems,
} from '../../helpers/signAndSend';
import { bytesField, contract, intField, rawData } from '../../helpers/tronProtobuf';

/** tronweb's protobuf classes, registered on globalThis when it loads. */
interface RawPb {
	getContractList(): unknown[];
	addContract(contract: unknown): void;
	serializeBinary(): Uint8Array;
}
interface TronProto {
	Transaction: {
		new (): {
			setRawData(raw: RawPb): void;
			addSignature(signature: Uint8Array): void;
			serializeBinary(): Uint8Array;
		};
		raw: { deserializeBinary(bytes: Uint8Array): RawPb };
	};
}

const ledgerFolder = mkdtempSync(join(tmpdir(), 'expand-tron-theft-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledgerFolder;

const TRX = 1_000_000n;
const USDT = 1_000_000n;

let devnet: Devnet;
let nile: DevnetTron;
let mainnet: DevnetTron;

beforeAll(async () => {
	devnet = await startDevnet();
	nile = devnet.tron.find((chain) => chain.chainId === '1001') as DevnetTron;
	mainnet = devnet.tron.find((chain) => chain.chainId === '1000') as DevnetTron;
	// The outsider pays the fees of its own transactions.
	nile.chain.fund(outsider().hexAddress, 100n * TRX);
});
afterAll(async () => {
	await devnet.stop();
});

const wallet = (index: number) => nile.wallets[index];
/** The attacker's address: wallet 4, which holds no USDT at the start. */
const outsider = () => wallet(4);

/** The treasury's key (account `index` of the devnet's wallets) with this policy, its ledger and journal in the test's folder. */
const keyOf = (index: number, policy: IDataObject = {}) => ({
	keyType: 'privateKey',
	privateKey: wallet(index).privateKey,
	payoutLedgerFolder: ledgerFolder,
	...policy,
});

const signer = (parameters: IDataObject): NodeSpec => ({
	name: 'Sign',
	type: SIGNER,
	parameters: { chainFamily: 'tron', tronChainId: '1001', ...parameters } as NodeSpec['parameters'],
	continueOnFail: true,
});

/** Items → Expand Signer (`parameters`) → Expand Send Transaction, both going on past a failed item: what each node gave. */
const signAndSend = (items: object[], parameters: IDataObject, key: IDataObject) =>
	signAndSendItems(
		items as IDataObject[],
		{ ...signer(parameters).parameters },
		{ ...devnetCredentials(devnet), expandTronKeyApi: key as never },
	);

/** The journal's newest entry for the treasury `index`, as List Payouts gives it. */
const lastJournalEntry = (index: number) =>
	journalEntry(
		wallet(index).address,
		{ ...signer({}).parameters },
		{
			...devnetCredentials(devnet),
			expandTronKeyApi: keyOf(index) as never,
		},
	);

const trx = (address: string) => apiBalance(devnet, '1001', address);
const usdt = (address: string) => apiBalance(devnet, '1001', address, nile.usdt.address);
/** What the treasury `index` and the outsider hold, TRX and USDT. */
const holdings = async (index: number) => ({
	treasuryTrx: await trx(wallet(index).address),
	treasuryUsdt: await usdt(wallet(index).address),
	outsiderTrx: await trx(outsider().address),
	outsiderUsdt: await usdt(outsider().address),
});

async function node(chain: DevnetTron, path: string, body: unknown): Promise<IDataObject> {
	const reply = await fetch(`${chain.rpcUrl}${path}`, {
		method: 'POST',
		body: JSON.stringify(body),
	});
	return (await reply.json()) as IDataObject;
}

/**
 * A USDT call on chain 1001 as tronweb builds it (locally, on the node's head block), unsigned, owned by
 * `from`: `selector` with these arguments, then `trailing` hex after them.
 */
async function usdtCall(
	from: TronWallet,
	selector: string,
	parameters: Array<{ type: string; value: unknown }>,
	{ feeLimit = 20_000_000, trailing = '' } = {},
) {
	const encoded = utils.abi
		.encodeParams(
			parameters.map((parameter) => parameter.type),
			parameters.map((parameter) => parameter.value),
		)
		.slice(2);
	const { transaction } = await new TronWeb({
		fullHost: nile.rpcUrl,
	}).transactionBuilder.triggerSmartContract(
		nile.usdt.address,
		selector,
		{ feeLimit, txLocal: true, rawParameter: encoded + trailing },
		[],
		from.address,
	);
	return transaction;
}
const addressAndAmount = (address: string, amount: bigint) => [
	{ type: 'address', value: address },
	{ type: 'uint256', value: amount.toString() },
];

/** What the item says it does (core's intent), as Expand's transaction builders attach it: a USDT transfer. */
const usdtIntent = (sender: string, recipient: string, amount: bigint) => ({
	operation: 'transfer',
	effect: 'transfer',
	chainId: '1001',
	sender,
	recipient,
	token: nile.usdt.address,
	amount: amount.toString(),
});

test('a substituted transaction: the API answers a USDT transfer to an outsider for an intent to pay the payee; signed without the intent, the outsider is paid; with it, refused naming the outsider', async () => {
	const [treasury, payee] = [wallet(0), wallet(1)];
	const substituted = () =>
		usdtCall(
			treasury,
			'transfer(address,uint256)',
			addressAndAmount(outsider().address, 250n * USDT),
		);

	// Rule off: the same bytes without the intent that would bind them.
	const before = await holdings(0);
	const off = await signAndSend(
		[{ transaction: await substituted() }],
		{ operation: 'signTransaction' },
		keyOf(0),
	);
	expect(off.signed[0].error).toBeUndefined();
	expect(off.sent[0].transactionHash).toBe(off.signed[0].transactionHash);
	const after = await holdings(0);
	expect(after.outsiderUsdt - before.outsiderUsdt).toBe(250n * USDT);
	expect(before.treasuryUsdt - after.treasuryUsdt).toBe(250n * USDT);

	// Rule on: the item carries the intent the workflow asked for.
	const on = await signAndSend(
		[
			{
				transaction: await substituted(),
				intent: usdtIntent(treasury.address, payee.address, 250n * USDT),
			},
		],
		{ operation: 'signTransaction' },
		keyOf(0),
	);
	expectRefused(
		on.signed[0],
		on.sent[0],
		`Refused by the rule "intent": the transaction is not what the form asked (transfer): recipient: asked ${payee.address}, the transaction pays ${outsider().address}; nothing was signed (item 0)`,
	);
	expect(await lastJournalEntry(0)).toMatchObject({ outcome: 'refused', rule: 'intent' });
	expect(await holdings(0)).toEqual(after);
});

test('several transfers summed past a cap: USDT rows of 45, 40 and 35 to an outsider under 50 per transaction; without Max Per Execution all three are paid, with 100 the third is refused for the total it would reach', async () => {
	const rows = [{ amount: '45' }, { amount: '40' }, { amount: '35' }];
	const parameters = {
		operation: 'transferTrc20',
		tokenAddress: nile.usdt.address,
		recipient: outsider().address,
		amountFormat: 'decimal',
		amount: '={{ $json.amount }}',
		feeLimit: '20',
	};
	const perTransaction = { maxPerTransaction: `${nile.usdt.address}:6 = 50` };

	const before = await holdings(1);
	const off = await signAndSend(rows, parameters, keyOf(1, perTransaction));
	expect(off.signed.map((json) => json.error)).toEqual([undefined, undefined, undefined]);
	expect(off.sent.map((json) => json.transactionHash)).toEqual(
		off.signed.map((json) => json.transactionHash),
	);
	const after = await holdings(1);
	expect(after.outsiderUsdt - before.outsiderUsdt).toBe(120n * USDT);

	const on = await signAndSend(
		rows,
		parameters,
		keyOf(1, { ...perTransaction, maxPerExecution: `${nile.usdt.address}:6 = 100` }),
	);
	expect(on.signed.slice(0, 2).map((json) => json.error)).toEqual([undefined, undefined]);
	expectRefused(
		on.signed[2],
		on.sent[2],
		`Refused by the rule "maxPerExecution": TRC-20 transfer of 35 (35000000 in the smallest unit) of token ${nile.usdt.address} would bring this execution's total on chain 1001 to 120, above the limit of 100; nothing was signed (item 2)`,
	);
	expect(await lastJournalEntry(1)).toMatchObject({ outcome: 'refused', rule: 'maxPerExecution' });
	const paid = await holdings(1);
	expect(paid.outsiderUsdt - after.outsiderUsdt).toBe(85n * USDT);
	expect(after.treasuryUsdt - paid.treasuryUsdt).toBe(85n * USDT);
});

test('a transaction carrying two TRX transfers is refused by the decoder; signed with the key directly, the node refuses it too (a Tron transaction carries one contract)', async () => {
	const treasury = wallet(1);
	const one = await new TronWeb({ fullHost: nile.rpcUrl }).transactionBuilder.sendTrx(
		outsider().address,
		1_000_000_000,
		treasury.address,
	);
	// tronweb's JSON carries one contract: the second is added to the protobuf bytes themselves.
	const proto = (globalThis as unknown as { TronWebProto: TronProto }).TronWebProto;
	const raw = proto.Transaction.raw.deserializeBinary(Buffer.from(one.raw_data_hex, 'hex'));
	raw.addContract(raw.getContractList()[0]);
	const twoHex = Buffer.from(raw.serializeBinary()).toString('hex');

	const before = await holdings(1);
	const journalled = await lastJournalEntry(1);
	const through = await signAndSend(
		[{ transaction: twoHex }],
		{ operation: 'signTransaction' },
		keyOf(1),
	);
	expectRefused(
		through.signed[0],
		through.sent[0],
		'The transaction holds more than the Signer reads (a field it does not know, or a second contract): its bytes are not those of what it reads (item 0)',
	);
	// Bytes the Signer cannot read are an error, not a rule's refusal: the journal, which records what a rule decided, gains no entry.
	expect(await lastJournalEntry(1)).toEqual(journalled);

	// Signed as a Signer that read only the first contract would sign it, and broadcast as bytes.
	const signature = new SigningKey(`0x${treasury.privateKey}`).sign(`0x${transactionId(twoHex)}`);
	const signed = new proto.Transaction();
	signed.setRawData(raw);
	signed.addSignature(getBytes(signature.serialized));
	expect(
		await node(nile, '/wallet/broadcasthex', {
			transaction: Buffer.from(signed.serializeBinary()).toString('hex'),
		}),
	).toMatchObject({ code: 'CONTRACT_VALIDATE_ERROR' });
	expect(await holdings(1)).toEqual(before);
});

/** The outsider's transferFrom of `amount` USDT from `owner` to itself, signed with its own key and broadcast: its result. */
async function outsiderTakes(owner: TronWallet, amount: bigint): Promise<string> {
	const tronWeb = new TronWeb({ fullHost: nile.rpcUrl });
	const call = await usdtCall(outsider(), 'transferFrom(address,address,uint256)', [
		{ type: 'address', value: owner.address },
		...addressAndAmount(outsider().address, amount),
	]);
	const signed = await tronWeb.trx.sign(call, outsider().privateKey);
	expect((await node(nile, '/wallet/broadcasttransaction', signed)).result).toBe(true);
	const info = await node(nile, '/wallet/gettransactioninfobyid', { value: signed.txID });
	return String((info.receipt as IDataObject).result);
}

test("an approval to an outsider: without a cap the Signer signs an unlimited approve and the outsider's transferFrom takes every USDT; under a 100 USDT cap, approve and increaseApproval are refused and the outsider takes nothing", async () => {
	const approve = (owner: TronWallet, amount: bigint) =>
		usdtCall(owner, 'approve(address,uint256)', addressAndAmount(outsider().address, amount));
	const increase = (owner: TronWallet, amount: bigint) =>
		usdtCall(
			owner,
			'increaseApproval(address,uint256)',
			addressAndAmount(outsider().address, amount),
		);
	const unlimited = 2n ** 256n - 1n;

	// Rule off: treasury 2, no amount limit.
	const before = await holdings(2);
	const off = await signAndSend(
		[{ transaction: await approve(wallet(2), unlimited) }],
		{ operation: 'signTransaction' },
		keyOf(2),
	);
	expect(off.sent[0].transactionHash).toBe(off.signed[0].transactionHash);
	expect(await outsiderTakes(wallet(2), before.treasuryUsdt)).toBe('SUCCESS');
	const after = await holdings(2);
	expect(after.treasuryUsdt).toBe(0n);
	expect(after.outsiderUsdt - before.outsiderUsdt).toBe(before.treasuryUsdt);

	// Rule on: treasury 3, at most 100 USDT per transaction.
	const held = await holdings(3);
	const on = await signAndSend(
		[
			{ transaction: await approve(wallet(3), unlimited) },
			{ transaction: await increase(wallet(3), 5_000n * USDT) },
		],
		{ operation: 'signTransaction' },
		keyOf(3, { maxPerTransaction: `${nile.usdt.address}:6 = 100` }),
	);
	expectRefused(
		on.signed[0],
		on.sent[0],
		`Refused by the rule "maxPerTransaction": TRC-20 approve (unlimited) of ${formatUnits(unlimited, 6)} (${unlimited} in the smallest unit) of token ${nile.usdt.address} is above the limit of 100 per transaction; nothing was signed (item 0)`,
	);
	expectRefused(
		on.signed[1],
		on.sent[1],
		`Refused by the rule "maxPerTransaction": TRC-20 increaseApproval of 5000 (5000000000 in the smallest unit) of token ${nile.usdt.address} is above the limit of 100 per transaction; nothing was signed (item 1)`,
	);
	expect(await lastJournalEntry(3)).toMatchObject({
		outcome: 'refused',
		rule: 'maxPerTransaction',
	});
	expect(await outsiderTakes(wallet(3), 1n)).toBe('REVERT');
	const unmoved = await holdings(3);
	expect(unmoved.treasuryUsdt).toBe(held.treasuryUsdt);
	expect(unmoved.treasuryTrx).toBe(held.treasuryTrx);
	expect(unmoved.outsiderUsdt).toBe(held.outsiderUsdt);
});

test('a USDT call the Signer cannot read (a transfer to the outsider with a word after its arguments, which the token ignores): without a limit it is signed and pays the outsider; under a cap it is refused as a call to a contract not on Allowed Contracts', async () => {
	const treasury = wallet(0);
	const unreadable = () =>
		usdtCall(
			treasury,
			'transfer(address,uint256)',
			addressAndAmount(outsider().address, 500n * USDT),
			{
				trailing: '00'.repeat(32),
			},
		);

	const before = await holdings(0);
	const off = await signAndSend(
		[{ transaction: await unreadable() }],
		{ operation: 'signTransaction' },
		keyOf(0),
	);
	expect(off.sent[0].transactionHash).toBe(off.signed[0].transactionHash);
	const after = await holdings(0);
	expect(after.outsiderUsdt - before.outsiderUsdt).toBe(500n * USDT);
	expect(before.treasuryUsdt - after.treasuryUsdt).toBe(500n * USDT);

	const on = await signAndSend(
		[{ transaction: await unreadable() }],
		{ operation: 'signTransaction' },
		keyOf(0, { maxPerTransaction: `${nile.usdt.address}:6 = 1000` }),
	);
	expectRefused(
		on.signed[0],
		on.sent[0],
		`Refused by the rule "allowedContracts": the transaction holds a contract call that is not a TRC-20 transfer, transferFrom, approve or increaseApproval (program ${nile.usdt.address}), which the signer cannot read as a transfer, and the program is not on Allowed Contracts and Programs; nothing was signed (item 0)`,
	);
	expect(await lastJournalEntry(0)).toMatchObject({ outcome: 'refused', rule: 'allowedContracts' });
	expect(await holdings(0)).toEqual(after);
});

test('a hostile fee limit: a 1 USDT payout the API fills in with a fee_limit of 1,000 TRX; with Max Total Fee at 15,000 it lands and burns 13.0285 TRX of energy, more than a 10 TRX ceiling allows; with Max Total Fee 10 it is refused', async () => {
	const treasury = wallet(1);
	// A payee that never held USDT: its first USDT costs the most energy the stand-in's token uses.
	const freshPayee = () => base58Address(`41${Wallet.createRandom().address.slice(2)}`) as string;
	const payout = async (payee: string) => ({
		transaction: await usdtCall(
			treasury,
			'transfer(address,uint256)',
			addressAndAmount(payee, USDT),
			{
				feeLimit: 1_000_000_000,
			},
		),
		intent: usdtIntent(treasury.address, payee, USDT),
	});

	const before = await trx(treasury.address);
	const off = await signAndSend(
		[await payout(freshPayee())],
		{ operation: 'signTransaction' },
		keyOf(1, { maxTotalFee: '15000' }),
	);
	expect(off.signed[0]).toMatchObject({ feeLimitSun: '1000000000' });
	const txID = String(off.sent[0].transactionHash);
	expect(txID).toBe(off.signed[0].transactionHash);
	const info = await node(nile, '/wallet/gettransactioninfobyid', { value: txID });
	expect(info.receipt).toMatchObject({
		energy_usage_total: 130_285,
		energy_fee: 13_028_500,
		result: 'SUCCESS',
	});
	expect(before - (await trx(treasury.address))).toBe(BigInt(info.fee as number));
	expect(BigInt(info.fee as number)).toBeGreaterThan(10n * TRX);

	const held = await holdings(1);
	const on = await signAndSend(
		[await payout(freshPayee())],
		{ operation: 'signTransaction' },
		keyOf(1, { maxTotalFee: '10' }),
	);
	expectRefused(
		on.signed[0],
		on.sent[0],
		'Refused by the rule "maxTotalFee": the fee can reach 1000 native units (1000000000 sun), above the limit of 10; nothing was signed (item 0)',
	);
	expect(await lastJournalEntry(1)).toMatchObject({ outcome: 'refused', rule: 'maxTotalFee' });
	expect(await holdings(1)).toEqual(held);
});

test('a transaction built on chain 1000 handed to the Signer set to chain 1001: signed with the key, it pays the outsider on chain 1000; through the Signer it is refused, its reference block not being one of chain 1001', async () => {
	const treasury = mainnet.wallets[2];
	const build = () =>
		new TronWeb({ fullHost: mainnet.rpcUrl }).transactionBuilder.sendTrx(
			outsider().address,
			2_000_000_000,
			treasury.address,
		);
	const mainnetTrx = (address: string) =>
		mainnet.chain.balance(mainnet.wallets.find((entry) => entry.address === address)!.hexAddress);

	// Rule off: the treasury's signature on the bytes, as a Signer that took the item's chain for granted gave it.
	const before = mainnetTrx(outsider().address);
	const signed = await new TronWeb({ fullHost: mainnet.rpcUrl }).trx.sign(
		await build(),
		treasury.privateKey,
	);
	expect((await node(mainnet, '/wallet/broadcasttransaction', signed)).result).toBe(true);
	expect(mainnetTrx(outsider().address) - before).toBe(2_000_000_000n);

	const held = mainnetTrx(treasury.address);
	const on = await signAndSend(
		[{ transaction: await build() }],
		{ operation: 'signTransaction' },
		{ keyType: 'privateKey', privateKey: treasury.privateKey, payoutLedgerFolder: ledgerFolder },
	);
	expectRefused(
		on.signed[0],
		on.sent[0],
		/^Refused by the rule "allowedChainIds": the transaction refers to block [0-9a-f]{4}\/[0-9a-f]{16}, which is not a recent block of chain 1001 as its full node answers, so it is not known which chain it pays on; nothing was signed \(item 0\)$/,
	);
	expect(await lastJournalEntry(2)).toMatchObject({
		outcome: 'refused',
		rule: 'allowedChainIds',
		chainId: '1001',
	});
	expect(mainnetTrx(treasury.address)).toBe(held);
});

test("the API names chain 1000's full node for chain 1001: without the genesis block check the Signer builds a TRX payout under Allowed Chain IDs 1001 on chain 1000's head block and the API sends it there, paying the outsider on chain 1000; with it the node is refused by its genesis block (rpcChainId), nothing is signed and nothing moves on either chain", async () => {
	const treasury = mainnet.wallets[3];
	const named = (await (
		await fetch(`${devnet.baseUrl}/chain/getpublicrpc?chainId=1001`, {
			headers: { 'x-api-key': devnet.apiKey },
		})
	).json()) as IDataObject;
	const lyingApi = await startLyingFront(devnet.baseUrl, (path) =>
		path === '/chain/getpublicrpc'
			? JSON.parse(JSON.stringify(named).replace(nile.rpcUrl, mainnet.rpcUrl))
			: undefined,
	);
	const payOutsider = async () => {
		const result = await runPipeline(
			[
				{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
				signer({ operation: 'transferTrx', recipient: outsider().address, amount: '3000000000' }),
			],
			{
				...devnetCredentials(devnet, { expand: { baseUrl: lyingApi.url } }),
				expandTronKeyApi: {
					keyType: 'privateKey',
					privateKey: treasury.privateKey,
					allowedChainIds: '1001',
				} as never,
			},
		);
		return result.output('Sign')[0].json;
	};
	// The API holds the signed transaction: it sends it to the chain its blocks are of.
	const sendOnMainnet = async (signed: IDataObject) =>
		await node(
			mainnet,
			'/wallet/broadcasttransaction',
			JSON.parse(Buffer.from(String(signed.rawTransaction), 'base64').toString('utf8')),
		);
	const holdings = () =>
		[mainnet, nile].flatMap((chain) =>
			[treasury, outsider()].map((wallet) => chain.chain.balance(wallet.hexAddress)),
		);
	try {
		// Rule off: the node's genesis block is not asked for, so chain 1000's node passes for chain 1001's.
		const checkOff = jest.spyOn(TRON_CHAIN_IDENTITY, 'expected').mockReturnValue(undefined);
		const before = mainnet.chain.balance(outsider().hexAddress);
		try {
			const signed = await payOutsider();
			expect(signed).toMatchObject({ chainId: '1001', from: treasury.address });
			expect(await sendOnMainnet(signed)).toMatchObject({ result: true });
		} finally {
			checkOff.mockRestore();
		}
		expect(mainnet.chain.balance(outsider().hexAddress) - before).toBe(3_000_000_000n);

		const held = holdings();
		expect(await payOutsider()).toEqual({
			error:
				'Refused by the rule "rpcChainId": the node the API gave for chain 1001 answers wallet/getblockbynum 0 with a genesis block whose ID ends in chain ID 0x2b6653dc, not 0xcd8690dc; nothing was sent to it (item 0)',
		});
		expect(holdings()).toEqual(held);
	} finally {
		await lyingApi.close();
	}
});

test("the API's chain/sendtransaction answers the txID of a payout the node refused (more TRX than the account holds), so Send reads as sent; the Signer does not take its word: Check Payouts and a rerun read it unsent on the node", async () => {
	const treasury = wallet(3);
	const key = keyOf(3, { rpcUrls: `1001 = ${nile.rpcUrl}` });
	const held = await trx(treasury.address);
	const parameters = {
		operation: 'transferTrx',
		recipient: outsider().address,
		amountFormat: 'decimal',
		amount: '20000',
		payoutId: 'trx-refused-by-node',
	};
	const { signed, sent } = await signAndSend([{}], parameters, key);
	expect(held).toBeLessThan(20_000n * TRX);
	expect(sent[0].transactionHash).toBe(signed[0].transactionHash);
	expect(
		await node(nile, '/wallet/gettransactionbyid', { value: signed[0].transactionHash }),
	).toEqual({});
	expect(await trx(treasury.address)).toBe(held);

	const check = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
			signer({ operation: 'listPayouts', status: 'signed' }),
			{ ...signer({ operation: 'checkPayouts' }), name: 'Check' },
		],
		{ ...devnetCredentials(devnet), expandTronKeyApi: key as never },
	);
	const row = check
		.output('Check')
		.map((item) => item.json)
		.find((entry) => entry.transactionHash === signed[0].transactionHash);
	expect(row).toMatchObject({ payoutId: 'trx-refused-by-node', chainStatus: 'unsent', block: '' });
	const rerun = await signAndSend([{}], parameters, key);
	expect(rerun.signed[0]).toMatchObject({
		repeat: true,
		alreadySent: false,
		chainStatus: 'pending',
		transactionHash: signed[0].transactionHash,
	});
});

test('one transaction handed in as two payouts (two sheet rows of 1 TRX to the payee, the same unsigned bytes in both): without oneItemPerTransaction both are signed as one txID, the node lands it once, and Check Payouts reads both rows paid; with it the second is refused naming the first, and reads refused', async () => {
	const treasury = wallet(1);
	const payee = wallet(2);
	const key = keyOf(1, { rpcUrls: `1001 = ${nile.rpcUrl}` });
	const oneTransactionTwice = async (payoutIds: string[]) => {
		const transaction = await new TronWeb({ fullHost: nile.rpcUrl }).transactionBuilder.sendTrx(
			payee.address,
			Number(TRX),
			treasury.address,
		);
		const items = payoutIds.map((payoutId) => ({ payoutId, transaction }));
		const parameters = { operation: 'signTransaction', payoutId: '={{ $json.payoutId }}' };
		return { txID: transaction.txID, ...(await signAndSend(items, parameters, key)) };
	};
	const checked = async (payoutIds: string[]) => {
		const result = await runPipeline(
			[
				{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
				signer({ operation: 'listPayouts', status: 'all' }),
				{ ...signer({ operation: 'checkPayouts' }), name: 'Check' },
			],
			{ ...devnetCredentials(devnet), expandTronKeyApi: key as never },
		);
		const rows = result.output('Check').map((item) => item.json);
		return payoutIds.map((payoutId) => {
			const row = rows.find((entry) => entry.payoutId === payoutId);
			return [row?.transactionHash ?? '', row?.chainStatus];
		});
	};

	// Rule off: every signature passes the binding of a transaction ID to one item.
	const bindingOff = jest
		.spyOn(TransactionIdBindings.prototype, 'once')
		.mockImplementation(async (_chainId, _txID, _itemIndex, _signedFor, sign) => await sign());
	let before = await trx(payee.address);
	try {
		const off = await oneTransactionTwice(['row-twice-1', 'row-twice-2']);
		expect(off.signed.map((json) => json.transactionHash)).toEqual([off.txID, off.txID]);
		expect(off.sent.map((json) => json.transactionHash)).toEqual([off.txID, off.txID]);
		expect((await trx(payee.address)) - before).toBe(TRX);
		expect(await checked(['row-twice-1', 'row-twice-2'])).toEqual([
			[off.txID, 'mined'],
			[off.txID, 'mined'],
		]);
	} finally {
		bindingOff.mockRestore();
	}

	before = await trx(payee.address);
	const on = await oneTransactionTwice(['row-twice-3', 'row-twice-4']);
	expect(on.signed[0]).toMatchObject({ payoutId: 'row-twice-3', transactionHash: on.txID });
	expectRefused(
		on.signed[1],
		on.sent[1],
		new RegExp(
			`^Refused by the rule "oneItemPerTransaction": transaction ${on.txID} was signed for payout ID "row-twice-3" \\(item 0 of execution [^)]+\\) on [0-9T:.-]+Z; this is payout ID "row-twice-4", and the same transaction would land once while both read as paid; payout ID "row-twice-4" needs a transaction of its own: a transfer the Signer builds is built anew when run again, one handed in needs other bytes \\(another nonce, blockhash, reference block or seqno\\); nothing was signed \\(item 1\\)$`,
		),
	);
	expect((await trx(payee.address)) - before).toBe(TRX);
	expect(await lastJournalEntry(1)).toMatchObject({
		outcome: 'refused',
		rule: 'oneItemPerTransaction',
		payoutId: 'row-twice-4',
	});
	expect(await checked(['row-twice-3', 'row-twice-4'])).toEqual([
		[on.txID, 'mined'],
		['', 'refused'],
	]);
});

test('a node that lies about decimals: the API names a node answering decimals() = 9 for USDT; taking its word (here pinned), a 5 USDT payout typed in whole units pays 5,000 USDT and the output says 5; unpinned and without a limit line it is refused naming the three ways out, a limit line giving 6 refuses the node, and in smallest units the line gives the shown decimals', async () => {
	const [treasury, payee] = [wallet(3), wallet(1)];
	const named = (await (
		await fetch(`${devnet.baseUrl}/chain/getpublicrpc?chainId=1001`, {
			headers: { 'x-api-key': devnet.apiKey },
		})
	).json()) as IDataObject;
	const lyingNode = await startLyingFront(nile.rpcUrl, (path, body) =>
		path === '/wallet/triggerconstantcontract' &&
		(body as IDataObject).function_selector === 'decimals()'
			? { result: { result: true }, constant_result: [(9).toString(16).padStart(64, '0')] }
			: undefined,
	);
	const lyingApi = await startLyingFront(devnet.baseUrl, (path) =>
		path === '/chain/getpublicrpc'
			? JSON.parse(JSON.stringify(named).split(nile.rpcUrl).join(lyingNode.url))
			: undefined,
	);
	const pay = async (policy: IDataObject, amount = { amountFormat: 'decimal', amount: '5' }) => {
		const result = await runPipeline(
			[
				{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
				signer({
					operation: 'transferTrc20',
					tokenAddress: nile.usdt.address,
					recipient: payee.address,
					feeLimit: '20',
					...amount,
				}),
				sendTransactionNode({}, true),
			],
			{
				...devnetCredentials(devnet, { expand: { baseUrl: lyingApi.url } }),
				expandTronKeyApi: keyOf(3, {
					allowedRecipients: payee.address,
					allowedContracts: nile.usdt.address,
					...policy,
				}) as never,
			},
		);
		expect(result.error).toBeUndefined();
		return { signed: result.output('Sign')[0].json, sent: result.output('Send')[0].json };
	};
	const moved = async () => [await usdt(treasury.address), await usdt(payee.address)];
	try {
		// Rule off: the node's decimals taken as vouched for (as the node the API named was before).
		const before = await moved();
		const off = await pay({ rpcUrls: `1001 = ${lyingNode.url}` });
		expect(off.signed).toMatchObject({ amount: '5', amountRaw: '5000000000', decimals: 9 });
		expect(off.sent.transactionHash).toBe(off.signed.transactionHash);
		const after = await moved();
		expect(after[1] - before[1]).toBe(5_000n * USDT);
		expect(before[0] - after[0]).toBe(5_000n * USDT);

		const unpinned = await pay({});
		expectRefused(
			unpinned.signed,
			unpinned.sent,
			`Refused by the rule "decimals": the amount was typed in whole units as 5 of ${nile.usdt.address}, converted with 9 decimals chain 1001's node gave, and only a chain node the API names could confirm them (an API lying about decimals names one that agrees); pin chain 1001's node in the credential's RPC URLs, give the token's decimals in an amount limit line ("${nile.usdt.address}:9 = …"), or type the amount in smallest units; nothing was signed (item 0)`,
		);
		expect(await lastJournalEntry(3)).toMatchObject({ outcome: 'refused', rule: 'decimals' });
		const line = { maxPerTransaction: `${nile.usdt.address}:6 = 10000` };
		const lied = await pay(line);
		expectRefused(
			lied.signed,
			lied.sent,
			`Refused by the rule "decimals": the amount was typed in whole units as 5 of ${nile.usdt.address}, converted with 9 decimals chain 1001's node gave, but the credential's amount limits give ${nile.usdt.address} 6 decimals; nothing was signed (item 0)`,
		);
		expect(await moved()).toEqual(after);

		// In smallest units no one converts: the node's decimals are only shown, and the line's win.
		const raw = await pay(line, { amountFormat: 'smallestUnit', amount: '5000000' });
		expect(raw.signed).toMatchObject({ amount: '5', amountRaw: '5000000', decimals: 6 });
		expect(raw.sent.transactionHash).toBe(raw.signed.transactionHash);
		const paid = await moved();
		expect(paid[1] - after[1]).toBe(5n * USDT);
	} finally {
		await lyingNode.close();
		await lyingApi.close();
	}
});

test('a TRC-10 transfer of any size to an outsider under amount limits without a recipient list: no limit line can name a TRC-10 token, so with the outsider on Allowed Contracts (the setting that lets an unreadable transfer through) 9,000,000,000,000 units are signed uncapped; without it the transfer is refused as unreadable, naming the token and the amount', async () => {
	const treasury = wallet(0);
	const head = await node(nile, '/wallet/getnowblock', {});
	const header = (head.block_header as IDataObject).raw_data as IDataObject;
	const block = referenceBlock(
		{
			number: Number(header.number),
			blockID: String(head.blockID),
			timestamp: Number(header.timestamp),
		},
		60_000,
	);
	const now = Date.now();
	// Each run its own bytes (another creation time): the same ones again would be one transaction for two items.
	const transferAsset = (timestamp: number) =>
		rawData({
			contracts: [
				contract(
					'TransferAssetContract',
					bytesField(1, Buffer.from('1002000').toString('hex')) +
						bytesField(2, treasury.hexAddress) +
						bytesField(3, outsider().hexAddress) +
						intField(4, 9_000_000_000_000n),
				),
			],
			refBlockBytes: block.refBlockBytes,
			refBlockHash: block.refBlockHash,
			expiration: now + 60_000,
			timestamp,
		});
	const limits = {
		maxPerTransaction: `native = 100\n${nile.usdt.address}:6 = 1000`,
		requireIntent: 'never',
	};

	const off = await signAndSend(
		[{ transaction: transferAsset(now) }],
		{ operation: 'signTransaction' },
		keyOf(0, { ...limits, allowedContracts: outsider().address }),
	);
	expect(off.signed[0].error).toBeUndefined();
	expect(off.signed[0].transactionHash).toBe(transactionId(transferAsset(now)));

	const on = await signAndSend(
		[{ transaction: transferAsset(now + 1) }],
		{ operation: 'signTransaction' },
		keyOf(0, limits),
	);
	expectRefused(
		on.signed[0],
		on.sent[0],
		`Refused by the rule "allowedContracts": the transaction holds TRC-10 transfer of 9000000000000 (smallest unit) of TRC-10 1002000, an asset no amount limit can name (program ${outsider().address}), which the signer cannot read as a transfer, and the program is not on Allowed Contracts and Programs; nothing was signed (item 0)`,
	);
	expect(await lastJournalEntry(0)).toMatchObject({ outcome: 'refused', rule: 'allowedContracts' });
});

test('a negative TRX transfer handed in (−1,000 TRX to the payee, an int64 below 0): counted, it would lower Max Per Execution (test/signer/policy/negativeAmount.test.ts); the Signer refuses it naming the item and the field, nothing is signed and nothing moves, and the next 100 TRX rows stop at the limit', async () => {
	const [treasury, payee] = [wallet(0), wallet(1)];
	const head = await node(nile, '/wallet/getnowblock', {});
	const header = (head.block_header as IDataObject).raw_data as IDataObject;
	const block = referenceBlock(
		{
			number: Number(header.number),
			blockID: String(head.blockID),
			timestamp: Number(header.timestamp),
		},
		60_000,
	);
	const now = Date.now();
	const negative = rawData({
		contracts: [
			contract(
				'TransferContract',
				bytesField(1, treasury.hexAddress) +
					bytesField(2, payee.hexAddress) +
					intField(3, (1n << 64n) - 1_000n * TRX),
			),
		],
		refBlockBytes: block.refBlockBytes,
		refBlockHash: block.refBlockHash,
		expiration: now + 60_000,
		timestamp: now,
	});
	const key = keyOf(0, {
		maxPerExecution: 'native = 150',
		allowedRecipients: payee.address,
		requireIntent: 'never',
	});
	const before = [await trx(treasury.address), await trx(payee.address)];
	const refused = await signAndSend(
		[{ transaction: negative }],
		{ operation: 'signTransaction' },
		key,
	);
	expect(refused.signed[0].error).toBe(
		'The transaction carries a negative number (amount = -1000000000): no Tron node takes a negative amount, fee limit or value (item 0)',
	);
	expect(refused.sent[0].transactionHash).toBeUndefined();
	expect([await trx(treasury.address), await trx(payee.address)]).toEqual(before);
	const rows = await signAndSend(
		[{}, {}],
		{ operation: 'transferTrx', recipient: payee.address, amountFormat: 'decimal', amount: '100' },
		key,
	);
	expect(rows.signed[0].error).toBeUndefined();
	expect(rows.signed[1].error).toMatch(/^Refused by the rule "maxPerExecution"/);
});
