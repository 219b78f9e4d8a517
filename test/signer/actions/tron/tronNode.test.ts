/**
 * Expand Signer with Chain Family Tron, through n8n's engine, on the devnet's Tron stand-in (chain
 * 1001): TRX and USDT payouts signed and sent with Expand chain/sendtransaction, a transaction built by
 * tronweb signed From Input Item, TIP-191 messages, payout IDs, and policy refusals under Continue On Fail.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import type { IDataObject } from 'n8n-workflow';
import { TronWeb } from 'tronweb';
import { verifyMessage } from 'tronweb/utils';

import { type Devnet, type DevnetTron, startDevnet } from '../../../../devnet';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { ITEMS, SIGNER, runPipeline, type NodeSpec, type RunResult } from '../../../helpers/n8n';
import { sendTransactionNode } from '../../../helpers/sendTransactionNode';

const ledgerFolder = mkdtempSync(join(tmpdir(), 'expand-tron-ledger-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledgerFolder;

let devnet: Devnet;
let nile: DevnetTron;
let mainnet: DevnetTron;

beforeAll(async () => {
	devnet = await startDevnet();
	nile = devnet.tron.find((chain) => chain.chainId === '1001') as DevnetTron;
	mainnet = devnet.tron.find((chain) => chain.chainId === '1000') as DevnetTron;
});
afterAll(async () => {
	await devnet.stop();
});

const wallet = (index: number) => nile.wallets[index];
const mnemonicKey = (policy: IDataObject = {}) => ({
	keyType: 'mnemonic',
	mnemonic: nile.mnemonic,
	...policy,
});
const privateKey = (index: number, policy: IDataObject = {}) => ({
	keyType: 'privateKey',
	privateKey: wallet(index).privateKey,
	...policy,
});

async function run(nodes: NodeSpec[], items: object[], key: IDataObject): Promise<RunResult> {
	return await runPipeline(
		[{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } }, ...nodes],
		{ ...devnetCredentials(devnet), expandTronKeyApi: key as never },
	);
}

const signer = (parameters: IDataObject, continueOnFail = false): NodeSpec => ({
	name: 'Sign',
	type: SIGNER,
	parameters: {
		chainFamily: 'tron',
		tronChainId: '1001',
		...parameters,
	} as NodeSpec['parameters'],
	continueOnFail,
});
const send: NodeSpec = sendTransactionNode();

async function node(path: string, body: unknown): Promise<Record<string, unknown>> {
	const reply = await fetch(`${nile.rpcUrl}${path}`, {
		method: 'POST',
		body: JSON.stringify(body),
	});
	return (await reply.json()) as Record<string, unknown>;
}
async function apiBalance(address: string, tokenAddress?: string): Promise<bigint> {
	const query = new URLSearchParams({
		chainId: '1001',
		address,
		...(tokenAddress ? { tokenAddress } : {}),
	});
	const reply = await fetch(`${devnet.baseUrl}/chain/getbalance?${query}`, {
		headers: { 'x-api-key': devnet.apiKey },
	});
	return BigInt(((await reply.json()) as { data: { balance: string } }).data.balance);
}
const trx = (address: string) => apiBalance(address);
const usdt = (address: string) => apiBalance(address, nile.usdt.address);
/** The TRX a landed transaction burnt (bandwidth, energy), as the node reports it. */
async function feeOf(txID: string): Promise<bigint> {
	const info = await node('/wallet/gettransactioninfobyid', { value: txID });
	expect(info.id).toBe(txID);
	return BigInt((info.fee as number | undefined) ?? 0);
}
const decodedJson = (rawTransaction: unknown) =>
	JSON.parse(Buffer.from(String(rawTransaction), 'base64').toString('utf8')) as {
		txID: string;
		signature: string[];
		raw_data: { fee_limit?: number; expiration: number };
	};

test('a TRX and a USDT payout (mnemonic, account 1) are signed and sent with chain/sendtransaction: balances move exactly', async () => {
	const sender = wallet(1).address;
	const payees = [
		{ to: wallet(2).address, trx: '1.5', usdt: '12.5' },
		{ to: wallet(3).hexAddress, trx: '0.000001', usdt: '0.000001' },
	];
	const payeeBase58 = [wallet(2).address, wallet(3).address];
	const before = {
		senderTrx: await trx(sender),
		senderUsdt: await usdt(sender),
		trx: await Promise.all(payeeBase58.map(trx)),
		usdt: await Promise.all(payeeBase58.map(usdt)),
	};

	const trxRun = await run(
		[
			signer({
				operation: 'transferTrx',
				accountIndex: 1,
				recipient: '={{ $json.to }}',
				amountFormat: 'decimal',
				amount: '={{ $json.trx }}',
			}),
			send,
		],
		payees,
		mnemonicKey(),
	);
	expect(trxRun.error).toBeUndefined();
	const trxSigned = trxRun.output('Sign').map((item) => item.json);
	expect(trxSigned.map((json) => [json.amountRaw, json.amount, json.recipient, json.from])).toEqual(
		[
			['1500000', '1.5', payeeBase58[0], sender],
			['1', '0.000001', payeeBase58[1], sender],
		],
	);
	for (const json of trxSigned) {
		expect(json).toMatchObject({ chainId: '1001', asset: 'TRX', feeLimitSun: '0', repeat: false });
		const signed = decodedJson(json.rawTransaction);
		expect(signed.txID).toBe(json.transactionHash);
		expect(new Date(String(json.expiration)).getTime()).toBe(signed.raw_data.expiration);
	}
	expect(trxRun.output('Send').map((item) => item.json.transactionHash)).toEqual(
		trxSigned.map((json) => json.transactionHash),
	);

	const usdtRun = await run(
		[
			signer({
				operation: 'transferTrc20',
				accountIndex: 1,
				tokenAddress: nile.usdt.address,
				recipient: '={{ $json.to }}',
				amountFormat: 'decimal',
				amount: '={{ $json.usdt }}',
				feeLimit: '20',
			}),
			send,
		],
		payees,
		mnemonicKey(),
	);
	expect(usdtRun.error).toBeUndefined();
	const usdtSigned = usdtRun.output('Sign').map((item) => item.json);
	expect(
		usdtSigned.map((json) => [json.amountRaw, json.decimals, json.feeLimitSun, json.feeLimit]),
	).toEqual([
		['12500000', 6, '20000000', '20'],
		['1', 6, '20000000', '20'],
	]);
	for (const json of usdtSigned)
		expect(decodedJson(json.rawTransaction).raw_data.fee_limit).toBe(20_000_000);

	const fees = await Promise.all(
		[...trxSigned, ...usdtSigned].map((json) => feeOf(String(json.transactionHash))),
	);
	const burnt = fees.reduce((sum, fee) => sum + fee, 0n);
	expect(await Promise.all(payeeBase58.map(usdt))).toEqual([
		before.usdt[0] + 12_500_000n,
		before.usdt[1] + 1n,
	]);
	expect(await usdt(sender)).toBe(before.senderUsdt - 12_500_001n);
	expect(await Promise.all(payeeBase58.map(trx))).toEqual([
		before.trx[0] + 1_500_000n,
		before.trx[1] + 1n,
	]);
	expect(await trx(sender)).toBe(before.senderTrx - 1_500_001n - burnt);
});

test('a transaction tronweb built, given From Input Item, is read from its bytes, signed (private key) and lands; a tampered one and one on another chain are refused', async () => {
	const [from, to] = [wallet(0), wallet(4)];
	const tronWeb = new TronWeb({ fullHost: nile.rpcUrl });
	const unsigned = await tronWeb.transactionBuilder.sendTrx(to.address, 700_000, from.address);
	const tampered = {
		...unsigned,
		raw_data: {
			...unsigned.raw_data,
			contract: [
				{
					...unsigned.raw_data.contract[0],
					parameter: {
						...unsigned.raw_data.contract[0].parameter,
						value: { ...unsigned.raw_data.contract[0].parameter.value, amount: 7_000_000 },
					},
				},
			],
		},
	};
	const otherChain = await new TronWeb({ fullHost: mainnet.rpcUrl }).transactionBuilder.sendTrx(
		to.address,
		700_000,
		from.address,
	);
	const before = await trx(to.address);
	const result = await run(
		[signer({ operation: 'signTransaction' }, true)],
		[{ transaction: unsigned }, { transaction: tampered }, { transaction: otherChain }],
		privateKey(0),
	);
	expect(result.error).toBeUndefined();
	const [signed, refusedTampered, refusedChain] = result.output('Sign').map((item) => item.json);
	expect(signed).toMatchObject({
		from: from.address,
		transactionHash: unsigned.txID,
		repeat: false,
	});
	expect(refusedTampered.error).toMatch(/raw_data does not encode to its raw_data_hex.*\(item 1\)/);
	expect(refusedChain.error).toMatch(
		/^Refused by the rule "allowedChainIds": the transaction refers to block .* which is not a recent block of chain 1001 .*nothing was signed \(item 2\)$/,
	);
	expect(refusedTampered.rawTransaction).toBeUndefined();
	expect(refusedChain.rawTransaction).toBeUndefined();
	const sent = await run([send], [signed], privateKey(0));
	expect(sent.output('Send')[0].json.transactionHash).toBe(unsigned.txID);
	expect(await trx(to.address)).toBe(before + 700_000n);
});

test('policy refusals name the item, the rule and the value and sign nothing; with Continue On Fail the other items are signed and sent', async () => {
	const key = privateKey(2, {
		allowedRecipients: `${wallet(0).address}, ${wallet(1).hexAddress}`,
		maxPerTransaction: `${nile.usdt.address}:6 = 100`,
		maxTotalFee: '15',
	});
	const items = [
		{ to: wallet(0).address, amount: '100', feeLimit: '' },
		{ to: wallet(3).address, amount: '1', feeLimit: '' },
		{ to: wallet(1).address, amount: '100.000001', feeLimit: '' },
		{ to: wallet(1).address, amount: '2', feeLimit: '15.000001' },
		{ to: wallet(1).address, amount: '3', feeLimit: '10' },
	];
	const before = await Promise.all([0, 1, 2, 3].map((index) => usdt(wallet(index).address)));
	const result = await run(
		[
			signer(
				{
					operation: 'transferTrc20',
					tokenAddress: nile.usdt.hexAddress,
					recipient: '={{ $json.to }}',
					amountFormat: 'decimal',
					amount: '={{ $json.amount }}',
					feeLimit: '={{ $json.feeLimit }}',
				},
				true,
			),
			sendTransactionNode({}, true),
		],
		items,
		key,
	);
	expect(result.error).toBeUndefined();
	const signed = result.output('Sign').map((item) => item.json);
	expect(signed.map((json) => json.error)).toEqual([
		undefined,
		`Refused by the rule "allowedRecipients": the recipient ${wallet(3).address} (TRC-20 transfer of token ${nile.usdt.address}) is not on the allowed list; nothing was signed (item 1)`,
		expect.stringMatching(
			/^Refused by the rule "maxPerTransaction": TRC-20 transfer of 100\.000001 \(100000001 in the smallest unit\) .* above the limit of 100 per transaction; nothing was signed \(item 2\)$/,
		),
		`Refused by the rule "maxTotalFee": the Fee Limit of 15.000001 TRX (15000001 sun) is above the credential's Max Total Fee of 15 TRX; nothing was signed (item 3)`,
		undefined,
	]);
	expect([signed[0].feeLimitSun, signed[4].feeLimitSun]).toEqual(['15000000', '10000000']);
	expect(signed.filter((json) => json.rawTransaction)).toHaveLength(2);
	expect(result.output('Send').filter((item) => item.json.transactionHash)).toHaveLength(2);
	expect(await Promise.all([0, 1, 2, 3].map((index) => usdt(wallet(index).address)))).toEqual([
		before[0] + 100_000_000n,
		before[1] + 3_000_000n,
		before[2] - 103_000_000n,
		before[3],
	]);
});

test('a payout ID is signed once: the second run gives the same transaction back as a repeat, and TRX moves once', async () => {
	const recipient = wallet(0).address;
	const parameters = {
		operation: 'transferTrx',
		recipient,
		amount: '4321',
		payoutId: '={{ $json.id }}',
	};
	const key = privateKey(3, { payoutLedgerFolder: ledgerFolder });
	const before = await trx(recipient);
	const first = await run([signer(parameters), send], [{ id: 'trx-invoice-1' }], key);
	const second = await run([signer(parameters), send], [{ id: 'trx-invoice-1' }], key);
	expect(first.error).toBeUndefined();
	expect(second.error).toBeUndefined();
	const [a, b] = [first.output('Sign')[0].json, second.output('Sign')[0].json];
	expect(a).toMatchObject({ payoutId: 'trx-invoice-1', repeat: false });
	expect(b).toMatchObject({
		payoutId: 'trx-invoice-1',
		repeat: true,
		alreadySent: true,
		chainStatus: 'landed',
		transactionHash: a.transactionHash,
		rawTransaction: a.rawTransaction,
	});
	expect(await trx(recipient)).toBe(before + 4321n);
	const other = await run(
		[signer({ ...parameters, amount: '4322' }, true)],
		[{ id: 'trx-invoice-1' }],
		key,
	);
	expect(other.output('Sign')[0].json.error).toMatch(
		/^Refused by the rule "payoutId": payout ID "trx-invoice-1" was already signed .* for other content .*nothing was signed \(item 0\)$/,
	);
});

test('Sign Message signs TIP-191 (tronweb verifies it); under a policy, bytes that are not text are refused', async () => {
	const result = await run(
		[
			signer(
				{
					operation: 'signMessage',
					message: '={{ $json.message }}',
					messageIsHex: '={{ $json.hex }}',
				},
				true,
			),
		],
		[
			{ message: 'Payout run 2026-11', hex: false },
			{ message: '0xff00', hex: true },
		],
		privateKey(1, { allowedChainIds: '1001' }),
	);
	const [text, bytes] = result.output('Sign').map((item) => item.json);
	expect(text).toMatchObject({ address: wallet(1).address, signatureEncoding: 'hex' });
	expect(verifyMessage('Payout run 2026-11', String(text.signature))).toBe(wallet(1).address);
	expect(bytes.error).toBe(
		'Refused by the rule "allowAnyMessage": the message is not UTF-8 text; while a policy is set, other bytes are signed only with Allow Any Message and Typed Data on; nothing was signed (item 1)',
	);
});

test('Get Address shows the account and its derivation path', async () => {
	const result = await run(
		[signer({ operation: 'getAddress', accountIndex: 4 })],
		[{}],
		mnemonicKey(),
	);
	expect(result.output('Sign')[0].json).toEqual({
		address: wallet(4).address,
		accountIndex: 4,
		derivationPath: "m/44'/195'/0'/0/4",
	});
});
