/**
 * Expand Signer with Chain Family Tron, through n8n's engine, on the devnet's Tron stand-in (chain
 * 1001): TRX and USDT payouts signed and sent with Expand chain/sendtransaction, a transaction built by
 * tronweb signed From Input Item, TIP-191 messages, payout IDs, and policy refusals under Continue On Fail.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { Mnemonic, id } from 'ethers';
import type { IDataObject } from 'n8n-workflow';
import { TronWeb } from 'tronweb';
import { verifyMessage } from 'tronweb/utils';

import type { Devnet, DevnetTron } from '../../../../devnet';
import { apiBalance } from '../../../helpers/apiBalance';
import { expandTronKeyTest } from '../../../helpers/signerKeyTests';
import { SIGNER, type NodeSpec } from '../../../helpers/n8n';
import { recordedRun, scanRecording } from '../../../helpers/recordedRun';
import { expectNoTrace, recordedTexts } from '../../../helpers/recordedTexts';
import { sendTransactionNode } from '../../../helpers/sendTransactionNode';

const ledgerFolder = mkdtempSync(join(tmpdir(), 'expand-tron-ledger-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledgerFolder;

let devnet: Devnet;
let nile: DevnetTron;
let mainnet: DevnetTron;
const recording = scanRecording((started) => {
	devnet = started;
	nile = devnet.tron.find((chain) => chain.chainId === '1001') as DevnetTron;
	mainnet = devnet.tron.find((chain) => chain.chainId === '1000') as DevnetTron;
	return [nile.rpcUrl, mainnet.rpcUrl];
});
const { output, runs } = recording;

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

const run = async (nodes: NodeSpec[], items: object[], key: IDataObject) =>
	await recordedRun(recording, nodes, items, { tron: key as never });

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
const trx = (address: string) => apiBalance(devnet, '1001', address);
const usdt = (address: string) => apiBalance(devnet, '1001', address, nile.usdt.address);
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
		// USDT in whole units: its decimals are vouched for by the node the credential pins.
		mnemonicKey({ rpcUrls: `1001 = ${nile.rpcUrl}` }),
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

/** A TRC-20 call on the devnet's USDT built by tronweb (locally, on the node's head block), unsigned, owned by `from`. */
async function usdtCall(
	from: string,
	selector: string,
	parameters: Array<{ type: string; value: unknown }>,
	feeLimit = 20_000_000,
) {
	const { transaction } = await new TronWeb({
		fullHost: nile.rpcUrl,
	}).transactionBuilder.triggerSmartContract(
		nile.usdt.address,
		selector,
		{ feeLimit, txLocal: true },
		parameters,
		from,
	);
	return transaction;
}

test('From Input Item, a transaction is held to its intent and read by the policy: a substituted recipient, an unlimited approval under a cap, an unreadable call and a fee limit above Max Total Fee are refused', async () => {
	const from = wallet(2);
	const key = privateKey(2, { maxPerTransaction: `${nile.usdt.address}:6 = 100` });
	const pay = (to: string, amount: number, feeLimit?: number) =>
		usdtCall(
			from.address,
			'transfer(address,uint256)',
			[
				{ type: 'address', value: to },
				{ type: 'uint256', value: amount },
			],
			feeLimit,
		);
	const intent = (recipient: string) => ({
		operation: 'transfer',
		effect: 'transfer',
		chainId: '1001',
		sender: from.address,
		recipient,
		token: nile.usdt.address,
		amount: '5000000',
	});
	const items = [
		{ transaction: await pay(wallet(1).address, 5_000_000), intent: intent(wallet(1).address) },
		{ transaction: await pay(wallet(4).address, 5_000_000), intent: intent(wallet(1).address) },
		{
			transaction: await usdtCall(from.address, 'approve(address,uint256)', [
				{ type: 'address', value: wallet(4).address },
				{ type: 'uint256', value: (2n ** 256n - 1n).toString() },
			]),
		},
		{ transaction: await usdtCall(from.address, 'mint(uint256)', [{ type: 'uint256', value: 1 }]) },
		{
			transaction: await pay(wallet(1).address, 5_000_000, 31_000_000),
			intent: intent(wallet(1).address),
		},
	];
	const before = [await usdt(wallet(1).address), await usdt(wallet(4).address)];
	const result = await run(
		[signer({ operation: 'signTransaction' }, true), sendTransactionNode({}, true)],
		items,
		key,
	);
	expect(result.error).toBeUndefined();
	const signed = result.output('Sign').map((item) => item.json);
	expect(signed[0]).toMatchObject({ from: from.address, feeLimitSun: '20000000', repeat: false });
	expect(signed.slice(1).map((json) => json.error)).toEqual([
		expect.stringMatching(
			new RegExp(
				`^Refused by the rule "intent": .*${wallet(4).address}.*nothing was signed \\(item 1\\)$`,
			),
		),
		expect.stringMatching(
			/^Refused by the rule "maxPerTransaction": TRC-20 approve \(unlimited\) .* above the limit of 100 per transaction; nothing was signed \(item 2\)$/,
		),
		expect.stringMatching(
			/^Refused by the rule "allowedContracts": .*nothing was signed \(item 3\)$/,
		),
		expect.stringMatching(
			/^Refused by the rule "maxTotalFee": the fee can reach 31 native units \(31000000 sun\), above the limit of 30; nothing was signed \(item 4\)$/,
		),
	]);
	expect(signed.filter((json) => json.rawTransaction)).toHaveLength(1);
	expect([await usdt(wallet(1).address), await usdt(wallet(4).address)]).toEqual([
		before[0] + 5_000_000n,
		before[1],
	]);
});

test("Max Per Execution counts TRX across the execution's items in the ledger; the item past it is refused and nothing moves for it", async () => {
	const key = privateKey(1, {
		payoutLedgerFolder: mkdtempSync(join(ledgerFolder, 'budget-')),
		maxPerExecution: 'native = 1',
	});
	const recipient = wallet(0).address;
	const before = await trx(recipient);
	const result = await run(
		[
			signer(
				{
					operation: 'transferTrx',
					recipient,
					amountFormat: 'decimal',
					amount: '={{ $json.amount }}',
				},
				true,
			),
			sendTransactionNode({}, true),
		],
		[{ amount: '0.6' }, { amount: '0.5' }, { amount: '0.4' }],
		key,
	);
	const signed = result.output('Sign').map((item) => item.json);
	expect(signed.map((json) => Boolean(json.rawTransaction))).toEqual([true, false, true]);
	expect(signed[1].error).toMatch(
		/^Refused by the rule "maxPerExecution": TRX transfer of 0\.5 \(500000 in the smallest unit\) of .* would bring this execution's total on chain 1001 to 1\.1, above the limit of 1.*; nothing was signed \(item 1\)$/,
	);
	expect(await trx(recipient)).toBe(before + 1_000_000n);
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
	// The journal has the three, in Tron's terms.
	const listed = await run([signer({ operation: 'listPayouts' })], [{}], key);
	const entries = listed
		.output('Sign')
		.map((item) => item.json)
		.filter((entry) => entry.payoutId === 'trx-invoice-1');
	expect(
		entries.map((entry) => [entry.outcome, entry.family, entry.chainId, entry.transactionHash]),
	).toEqual([
		['signed', 'tron', '1001', a.transactionHash],
		['repeat', 'tron', '1001', a.transactionHash],
		['refused', 'tron', '1001', ''],
	]);
	expect(entries[0]).toMatchObject({
		account: wallet(3).address,
		action: 'transfer',
		recipient,
		asset: 'native',
		symbol: 'TRX',
		amount: '4321',
		amountWhole: '0.004321',
		nonce: a.refBlockHash,
	});
	expect(entries[2]).toMatchObject({ rule: 'payoutId', amount: '4322' });
});

test('a ledger file edited to carry a signed transfer to an outsider is refused on the repeat; the bytes it carries pay the outsider when sent', async () => {
	const key = privateKey(2, { payoutLedgerFolder: ledgerFolder });
	const outsider = wallet(4);
	const sign = async (recipient: string, amount: string, payoutId: string) =>
		(
			await run(
				[signer({ operation: 'transferTrx', recipient, amount, payoutId }, true)],
				[{}],
				key,
			)
		).output('Sign')[0].json;
	const payout = await sign(wallet(0).address, '3000', 'trx-tamper-1');
	const refund = await sign(outsider.address, '2000000', 'trx-tamper-refund');
	const record = join(
		ledgerFolder,
		`expand-payout-1001-${wallet(2).address.toLowerCase()}-${id('trx-tamper-1').slice(2)}.json`,
	);
	const entry = JSON.parse(readFileSync(record, 'utf8')) as { signed: IDataObject };
	expect(entry.signed.transactionHash).toBe(payout.transactionHash);
	const { payoutId, repeat, alreadySent, ...signed } = refund;
	(void payoutId, void repeat, void alreadySent);
	writeFileSync(record, JSON.stringify({ ...entry, signed }));

	const again = await sign(wallet(0).address, '3000', 'trx-tamper-1');
	expect(again.error).toMatch(
		/^Refused by the rule "payoutId": the ledger entry of payout ID "trx-tamper-1" states content .*, but its signed bytes \(\w+\) have .*; it was changed outside the Signer: check it by hand, nothing is returned for it; nothing was signed \(item 0\)$/,
	);
	expect(again.rawTransaction).toBeUndefined();
	// What the edit would have had sent: the outsider's payment, valid as signed.
	const before = await trx(outsider.address);
	const sent = await node('/wallet/broadcasttransaction', decodedJson(signed.rawTransaction));
	expect(sent.result).toBe(true);
	expect(await trx(outsider.address)).toBe(before + 2_000_000n);
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

test('Get Address shows the account and its derivation path; Expected From takes either form of an address', async () => {
	const result = await run(
		[
			signer(
				{ operation: 'getAddress', accountIndex: 4, expectedFrom: '={{ $json.expected }}' },
				true,
			),
		],
		[
			{ expected: '' },
			{ expected: wallet(4).hexAddress.toUpperCase() },
			{ expected: wallet(3).address },
		],
		mnemonicKey(),
	);
	const [plain, hex, other] = result.output('Sign').map((item) => item.json);
	expect(plain).toEqual({
		address: wallet(4).address,
		accountIndex: 4,
		derivationPath: "m/44'/195'/0'/0/4",
	});
	expect(hex.address).toBe(wallet(4).address);
	expect(other.error).toBe(
		`Refused by the rule "expectedFrom": account 4 of the signing credential is ${wallet(4).address}, not the expected ${wallet(3).address}; nothing was signed (item 2)`,
	);
});

test('the credential Test shows the first accounts and the policy, and refuses a key it cannot use without quoting it', async () => {
	const test = async (data: IDataObject) =>
		await expandTronKeyTest.call({} as never, {
			id: '1',
			name: 'k',
			type: 'expandTronKeyApi',
			data: data as never,
		});
	const ok = await test(mnemonicKey({ allowedChainIds: '1001', maxPerTransaction: 'native = 2' }));
	expect(ok.status).toBe('OK');
	expect(ok.message).toMatch(
		new RegExp(
			`^Valid key\\. Accounts: #0 ${wallet(0).address}, #1 ${wallet(1).address}, #2 ${wallet(2).address}, …\\. Policy: chains 1001 only;.* per transaction at most 2 of the native asset;.* total fee at most 30 native units per transaction;`,
		),
	);
	const single = await test(privateKey(3));
	expect(single.message).toMatch(
		new RegExp(`^Valid key\\. Accounts: #0 ${wallet(3).address}\\. Policy: any chain;`),
	);
	const truncated = wallet(3).privateKey.slice(0, 60);
	const bad = await test({ keyType: 'privateKey', privateKey: truncated });
	expect(bad.status).toBe('Error');
	expect(bad.message).toContain('must be 64 hexadecimal digits');
	expect(bad.message).not.toContain(truncated);
});

/** Every form of the devnet's Tron keys a careless message could quote: the private keys (hex, 0x, upper case), the mnemonic and its seed. */
function secrets(): string[] {
	const seed = Mnemonic.fromPhrase(nile.mnemonic).computeSeed();
	return [
		...[...nile.wallets, ...mainnet.wallets].flatMap((entry) => [
			entry.privateKey,
			entry.privateKey.toUpperCase(),
			entry.privateKey.slice(0, 60),
		]),
		seed.slice(2),
		nile.mnemonic,
		nile.mnemonic.split(' ').slice(0, 4).join(' '),
	];
}

test('no trace of any key: requests to the API and the full node, responses, outputs, errors and logs', async () => {
	// Its own runs with each key form (so it passes alone), then everything this file recorded.
	for (const key of [
		privateKey(0),
		{ ...privateKey(0), privateKey: `0x${wallet(0).privateKey.toUpperCase()}` },
		mnemonicKey(),
		{ keyType: 'privateKey', privateKey: wallet(1).privateKey.slice(0, 60) },
		{ keyType: 'mnemonic', mnemonic: `${nile.mnemonic.split(' ').slice(0, -1).join(' ')} zzzz` },
	])
		await run(
			[
				signer({ operation: 'transferTrx', recipient: wallet(4).address, amount: '1000' }, true),
				sendTransactionNode({}, true),
			],
			[{}],
			key,
		);
	// The scan sees what it scans: the full node's reads are there.
	expect(
		recording.proxy.requests.some(
			(request) => request.target === nile.rpcUrl && request.url.includes('/wallet/getnowblock'),
		),
	).toBe(true);
	const hidden = secrets();
	expect(hidden.length).toBeGreaterThan(30);
	expectNoTrace(recordedTexts(recording.proxy, runs, output.lines), output.lines, hidden);
});

// Last, and on chain 1000: it moves the clock (and so the chain's head) past the transaction's expiration.
test('a payout ID signed and never sent is given back while it can land; once its expiration has passed it is refused, never signed again', async () => {
	const recipient = mainnet.wallets[1].address;
	const parameters = {
		operation: 'transferTrx',
		tronChainId: '1000',
		recipient,
		amount: '1000',
		payoutId: '={{ $json.id }}',
	};
	const pinned = privateKey(0, {
		payoutLedgerFolder: ledgerFolder,
		rpcUrls: `1000 = ${mainnet.rpcUrl}`,
	});
	const before = mainnet.chain.balance(mainnet.wallets[1].hexAddress);
	const first = await run([signer(parameters)], [{ id: 'trx-unsent-1' }], pinned);
	const again = await run([signer(parameters)], [{ id: 'trx-unsent-1' }], pinned);
	const hash = first.output('Sign')[0].json.transactionHash;
	expect(again.output('Sign')[0].json).toMatchObject({
		repeat: true,
		alreadySent: false,
		chainStatus: 'pending',
		transactionHash: hash,
		rawTransaction: first.output('Sign')[0].json.rawTransaction,
	});
	const realNow = Date.now.bind(Date);
	const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 6 * 60 * 1000);
	try {
		const expired = await run([signer(parameters, true)], [{ id: 'trx-unsent-1' }], pinned);
		expect(expired.output('Sign')[0].json.error).toMatch(
			new RegExp(
				`^Refused by the rule "payoutId": payout ID "trx-unsent-1" was signed on .* as ${hash}, which is not on the chain while its expiration has passed and the solidified chain shows it in no block; it can never land and is not signed again\\. Nothing was paid by it: if it is still due, Speed Up Payout signs it again under the same payout ID; nothing was signed \\(item 0\\)$`,
			),
		);
		const unpinned = await run([signer(parameters, true)], [{ id: 'trx-unsent-1' }], {
			...pinned,
			rpcUrls: '',
		});
		expect(unpinned.output('Sign')[0].json.error).toMatch(
			/as the chain's full node the API names says \(RPC URLs pins none for chain 1000\); it is not signed again\. A node that lies can hide a landed transaction: pin the chain's node/,
		);
		expect(expired.output('Sign')[0].json.rawTransaction).toBeUndefined();
	} finally {
		clock.mockRestore();
	}
	expect(mainnet.chain.balance(mainnet.wallets[1].hexAddress)).toBe(before);
});
