/**
 * Expand Signer with Chain Family Solana, through n8n's engine, on the devnet's chain 901: SOL and USDC
 * payouts signed and sent with Expand chain/sendtransaction, a transaction prepared by Expand Fungible
 * Token → Transfer signed and landed, payout IDs, policy refusals under Continue On Fail, and a scan of
 * every request (API and JSON-RPC), response, output, error and log line for any form of the keys.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { getCloseAccountInstruction } from '@solana-program/token';
import {
	type Blockhash,
	type SignatureBytes,
	address,
	createNoopSigner,
	generateKeyPairSigner,
	getBase16Decoder,
	getBase58Decoder,
	getBase58Encoder,
	getBase64Decoder,
	getBase64Encoder,
	getPublicKeyFromAddress,
	getTransactionDecoder,
	verifySignature,
} from '@solana/kit';
import { Mnemonic } from 'ethers';
import { HDKey } from 'micro-ed25519-hdkey';
import type { IDataObject } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../../../devnet';
import { expandSolanaKeyTest } from '../../../helpers/signerKeyTests';
import { EXPAND, SIGNER, type NodeSpec, type RunResult } from '../../../helpers/n8n';
import { outputRecorder } from '../../../helpers/outputRecorder';
import { recordedRun } from '../../../helpers/recordedRun';
import { expectNoTrace, recordedTexts } from '../../../helpers/recordedTexts';
import { startRecordingProxy } from '../../../helpers/recordingProxy';
import { apiBalance } from '../../../helpers/apiBalance';
import { solanaMessage, unsignedWire } from '../../../helpers/solanaMessages';
import { sendTransactionNode } from '../../../helpers/sendTransactionNode';

const ledgerFolder = mkdtempSync(join(tmpdir(), 'expand-solana-ledger-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledgerFolder;

let devnet: Devnet;
let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
const output = outputRecorder();
const runs: RunResult[] = [];

beforeAll(async () => {
	output.start();
	devnet = await startDevnet();
	proxy = await startRecordingProxy([devnet.baseUrl, devnet.historicalUrl, devnet.solana.rpcUrl]);
});
afterAll(async () => {
	output.stop();
	await proxy.close();
	await devnet.stop();
});

const wallet = (index: number) => devnet.solana.wallets[index];
const base58Key = (index: number) => ({ keyType: 'secretKey', secretKey: wallet(index).secretKey });
const jsonKey = (index: number) => ({
	keyType: 'secretKey',
	secretKey: wallet(index).secretKeyJson,
});
const mnemonicKey = () => ({ keyType: 'mnemonic', mnemonic: devnet.solana.mnemonic });

const run = async (nodes: NodeSpec[], items: object[], signingKey: Record<string, string>) =>
	await recordedRun({ devnet, proxy, output, runs }, nodes, items, { solana: signingKey });

const signer = (parameters: IDataObject, continueOnFail = false): NodeSpec => ({
	name: 'Sign',
	type: SIGNER,
	parameters: {
		chainFamily: 'solana',
		solanaChainId: '901',
		...parameters,
	} as NodeSpec['parameters'],
	continueOnFail,
});
const send: NodeSpec = sendTransactionNode();

const sol = async (owner: string) => devnet.solana.chain.balance(address(owner));
const usdc = (owner: string) => apiBalance(devnet, '901', owner, devnet.solana.usdc.address);

/** The signature over the transaction's message verifies with the signer's public key (@solana/kit). */
async function expectSignedBy(rawTransaction: string, signer: string): Promise<void> {
	const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(rawTransaction));
	const signature = transaction.signatures[address(signer)] as SignatureBytes;
	expect(
		await verifySignature(
			await getPublicKeyFromAddress(address(signer)),
			signature,
			transaction.messageBytes,
		),
	).toBe(true);
}

const SENDER_INDEX = 3;

test("a SOL and a USDC payout (mnemonic, account 3) signed, sent with chain/sendtransaction: balances change exactly, the new token account's rent shown", async () => {
	const sender = wallet(SENDER_INDEX).address;
	const payees = [
		{ to: wallet(4).address, sol: '0.25', usdc: '12.5' },
		{ to: wallet(0).address, sol: '1.000000001', usdc: '0.000001' },
	];
	const before = {
		sender: await sol(sender),
		senderUsdc: await usdc(sender),
		sol: await Promise.all(payees.map((payee) => sol(payee.to))),
		usdc: await Promise.all(payees.map((payee) => usdc(payee.to))),
	};

	const solRun = await run(
		[
			signer({
				operation: 'transferSol',
				accountIndex: SENDER_INDEX,
				recipient: '={{ $json.to }}',
				amountFormat: 'decimal',
				amount: '={{ $json.sol }}',
			}),
			send,
		],
		payees,
		mnemonicKey(),
	);
	expect(solRun.error).toBeUndefined();
	const solSigned = solRun.output('Sign').map((item) => item.json);
	expect(
		solSigned.map((json) => [json.amountRaw, json.feeLamports, json.from, json.chainId]),
	).toEqual([
		['250000000', '5000', sender, '901'],
		['1000000001', '5000', sender, '901'],
	]);
	expect(solRun.output('Send').map((item) => item.json.transactionHash)).toEqual(
		solSigned.map((json) => json.signature),
	);
	for (const json of solSigned) await expectSignedBy(json.rawTransaction as string, sender);

	const usdcRun = await run(
		[
			signer({
				operation: 'transferToken',
				accountIndex: SENDER_INDEX,
				mint: devnet.solana.usdc.address,
				recipient: '={{ $json.to }}',
				amountFormat: 'decimal',
				amount: '={{ $json.usdc }}',
				createAccount: true,
			}),
			send,
		],
		payees,
		mnemonicKey(),
	);
	expect(usdcRun.error).toBeUndefined();
	const usdcSigned = usdcRun.output('Sign').map((item) => item.json);
	expect(
		usdcSigned.map((json) => [
			json.amountRaw,
			json.decimals,
			json.recipientTokenAccountCreated,
			json.rentLamports,
			json.rent,
		]),
	).toEqual([
		['12500000', 6, true, '2039280', '0.00203928'],
		['1', 6, false, '0', '0'],
	]);
	expect(usdcRun.output('Send')).toHaveLength(2);

	expect(await Promise.all(payees.map((payee) => usdc(payee.to)))).toEqual([
		before.usdc[0] + 12_500_000n,
		before.usdc[1] + 1n,
	]);
	expect(await usdc(sender)).toBe(before.senderUsdc - 12_500_001n);
	// Wallet 0 also got its SOL; wallet 4 its SOL (its token account's rent is held by the account, not the wallet).
	expect(await Promise.all(payees.map((payee) => sol(payee.to)))).toEqual([
		before.sol[0] + 250_000_000n,
		before.sol[1] + 1_000_000_001n,
	]);
	expect(await sol(sender)).toBe(before.sender - 1_250_000_001n - 4n * 5000n - 2_039_280n);
});

test('a transfer prepared by Expand Fungible Token → Transfer on 901 is read, signed (JSON-array key) and lands', async () => {
	const sender = wallet(2).address;
	const recipient = wallet(1).address;
	const before = [await usdc(sender), await usdc(recipient)];
	const prepare: NodeSpec = {
		name: 'Prepare',
		type: EXPAND,
		parameters: {
			resource: 'fungibletoken',
			operation: 'transfer',
			chainId: '901',
			amount: '7000000',
			// On Solana the Solana fields alone: the EVM ones (from, to, tokenAddress, gas) are required on EVM chains only.
			token: devnet.solana.usdc.address,
			sender,
			destination: recipient,
			feePayer: sender,
			decimals: '6',
		},
	};
	const result = await run(
		[prepare, signer({ operation: 'signTransaction' }), send],
		[{}],
		jsonKey(2),
	);
	expect(result.error).toBeUndefined();
	const [signed] = result.output('Sign').map((item) => item.json);
	expect(signed).toMatchObject({
		from: sender,
		chainId: '901',
		complete: true,
		feeLamports: '5000',
		rentLamports: '0',
		repeat: false,
	});
	await expectSignedBy(signed.rawTransaction as string, sender);
	expect(result.output('Send')[0].json.transactionHash).toBe(signed.signature);
	expect([await usdc(sender), await usdc(recipient)]).toEqual([
		before[0] - 7_000_000n,
		before[1] + 7_000_000n,
	]);
});

test('a payout ID is signed once: the second run gives the same transaction back as a repeat, and SOL moves once', async () => {
	const recipient = wallet(4).address;
	const before = await sol(recipient);
	const parameters = {
		operation: 'transferSol',
		recipient,
		amount: '3000',
		payoutId: '={{ $json.id }}',
	};
	const key = { ...base58Key(1), payoutLedgerFolder: ledgerFolder };
	const first = await run([signer(parameters), send], [{ id: 'sol-invoice-1' }], key);
	// A landed repeat is not sent again (the chain would answer AlreadyProcessed): the workflow filters on alreadySent.
	const second = await run([signer(parameters)], [{ id: 'sol-invoice-1' }], key);
	expect(first.error).toBeUndefined();
	expect(second.error).toBeUndefined();
	const [a, b] = [first.output('Sign')[0].json, second.output('Sign')[0].json];
	expect(a).toMatchObject({ payoutId: 'sol-invoice-1', repeat: false });
	expect(b).toMatchObject({
		payoutId: 'sol-invoice-1',
		repeat: true,
		alreadySent: true,
		chainStatus: 'landed',
		signature: a.signature,
		rawTransaction: a.rawTransaction,
	});
	expect(await sol(recipient)).toBe(before + 3000n);
	const other = await run(
		[signer({ ...parameters, amount: '3001' }, true)],
		[{ id: 'sol-invoice-1' }],
		key,
	);
	expect(other.output('Sign')[0].json.error).toMatch(
		/^Refused by the rule "payoutId": payout ID "sol-invoice-1" was already signed .* for other content .*nothing was signed \(item 0\)$/,
	);
});

test("a USDC payout ID that created the recipient's token account is a repeat on the next run, although that run would not pay the rent", async () => {
	const recipient = (await generateKeyPairSigner()).address;
	const parameters = {
		operation: 'transferToken',
		mint: devnet.solana.usdc.address,
		recipient,
		amount: '2500',
		createAccount: true,
		payoutId: '={{ $json.id }}',
	};
	const key = { ...base58Key(1), payoutLedgerFolder: ledgerFolder };
	const first = await run([signer(parameters), send], [{ id: 'usdc-new-account-1' }], key);
	expect(first.output('Sign')[0].json).toMatchObject({
		repeat: false,
		recipientTokenAccountCreated: true,
		rentLamports: '2039280',
	});
	const second = await run([signer(parameters)], [{ id: 'usdc-new-account-1' }], key);
	expect(second.error).toBeUndefined();
	expect(second.output('Sign')[0].json).toMatchObject({
		payoutId: 'usdc-new-account-1',
		repeat: true,
		alreadySent: true,
		signature: first.output('Sign')[0].json.signature,
	});
	expect(await usdc(recipient)).toBe(2500n);
});

test('policy refusals name the item, the rule and the value; with Continue On Fail the other items are signed and sent', async () => {
	const key = {
		...base58Key(1),
		allowedRecipients: `${wallet(0).address}, ${wallet(3).address}`,
		maxPerTransaction: 'native = 1',
		maxPerExecution: `${devnet.solana.usdc.address}:6 = 15`,
	};
	const recipients = [
		{ to: wallet(0).address, amount: '0.5' },
		{ to: wallet(4).address, amount: '0.1' },
		{ to: wallet(3).address, amount: '2' },
	];
	const before = await Promise.all(recipients.map((recipient) => sol(recipient.to)));
	const solRun = await run(
		[
			signer(
				{
					operation: 'transferSol',
					recipient: '={{ $json.to }}',
					amountFormat: 'decimal',
					amount: '={{ $json.amount }}',
				},
				true,
			),
		],
		recipients,
		key,
	);
	const [ok, notAllowed, tooMuch] = solRun.output('Sign').map((item) => item.json);
	expect(ok).toMatchObject({ amountRaw: '500000000', repeat: false });
	expect(notAllowed.error).toBe(
		`Refused by the rule "allowedRecipients": the recipient ${wallet(4).address} (System transfer of the native asset) is not on the allowed list; nothing was signed (item 1)`,
	);
	expect(tooMuch.error).toBe(
		'Refused by the rule "maxPerTransaction": System transfer of 2 (2000000000 in the smallest unit) of the native asset is above the limit of 1 per transaction; nothing was signed (item 2)',
	);
	expect(solRun.output('Sign').map((item) => item.pairedItem)).toEqual([
		{ item: 0 },
		{ item: 1 },
		{ item: 2 },
	]);
	const sent = await run(
		[
			{
				...send,
				parameters: {
					...send.parameters,
					rawTransaction: ok.rawTransaction as string,
					chainId: '901',
				},
			},
		],
		[{}],
		key,
	);
	expect(sent.error).toBeUndefined();
	expect(await Promise.all(recipients.map((recipient) => sol(recipient.to)))).toEqual([
		before[0] + 500_000_000n,
		before[1],
		before[2],
	]);

	// The per-execution total counts the items of one execution: 10 + 10 USDC is above 15. The second,
	// identical transfer waits for the next blockhash (the devnet mines one only when told, Solana every
	// few hundred milliseconds) so as not to be the first's transaction.
	const mining = setInterval(() => devnet.solana.chain.mine(), 200);
	const usdcRun = await run(
		[
			signer(
				{
					operation: 'transferToken',
					mint: devnet.solana.usdc.address,
					recipient: wallet(0).address,
					amountFormat: 'decimal',
					amount: '10',
				},
				true,
			),
		],
		[{}, {}],
		key,
	).finally(() => clearInterval(mining));
	const [first, second] = usdcRun.output('Sign').map((item) => item.json);
	expect(first.error).toBeUndefined();
	expect(first.amountRaw).toBe('10000000');
	expect(second.error).toBe(
		`Refused by the rule "maxPerExecution": SPL Token transfer of 10 (10000000 in the smallest unit) of token ${devnet.solana.usdc.address} would bring this execution's total on chain 901 to 20, above the limit of 15; nothing was signed (item 1)`,
	);
});

test('Sign Transaction refuses an instruction it cannot read as a transfer when an allowlist is set, a chain not allowed before any request, and bad input by parameter', async () => {
	const owner = wallet(1).address;
	const blockhash = devnet.solana.chain.latestBlockhash().blockhash as Blockhash;
	const close = getCloseAccountInstruction({
		account: address(wallet(1).usdcAccount),
		destination: address(owner),
		owner: createNoopSigner(address(owner)),
	});
	const message = solanaMessage(address(owner), blockhash, [close]);
	const data = unsignedWire(message);
	const key = { ...jsonKey(1), allowedRecipients: wallet(0).address };
	const result = await run(
		[signer({ operation: 'signTransaction' }, true)],
		[{ data }, { data: 'not a transaction' }],
		key,
	);
	const [opaque, bad] = result.output('Sign').map((item) => item.json);
	expect(opaque.error).toMatch(
		/^Refused by the rule "allowedRecipients": the transaction holds SPL Token CloseAccount \(program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA\), which the signer cannot read as a transfer, and the program is not on the allowed list; nothing was signed \(item 0\)$/,
	);
	expect(bad.error).toBe(
		'The parameter "serializedTransaction" must be a base64 Solana wire transaction; it cannot be read as one (item 1)',
	);

	const countBefore = proxy.requests.length;
	const refusedChain = await run(
		[signer({ operation: 'transferSol', recipient: wallet(0).address, amount: '1' }, true)],
		[{}],
		{ ...base58Key(1), allowedChainIds: '900' },
	);
	expect(refusedChain.output('Sign')[0].json.error).toBe(
		'Refused by the rule "allowedChainIds": chain 901 is not one of the allowed chains (900); nothing was signed (item 0)',
	);
	expect(proxy.requests.length).toBe(countBefore);
});

test("Get Address and Sign Message: the address on m/44'/501'/N'/0', an Ed25519 signature that verifies", async () => {
	const result = await run(
		[
			signer({
				operation: 'signMessage',
				accountIndex: '={{ $json.index }}',
				message: 'Pay invoice 42',
			}),
		],
		[{ index: 0 }, { index: 4 }],
		mnemonicKey(),
	);
	expect(result.error).toBeUndefined();
	for (const [position, index] of [0, 4].entries()) {
		const json = result.output('Sign')[position].json;
		expect(json.address).toBe(wallet(index).address);
		const bytes = new TextEncoder().encode('Pay invoice 42');
		const signature = getBase58Encoder().encode(json.signature as string) as SignatureBytes;
		expect(
			await verifySignature(
				await getPublicKeyFromAddress(address(wallet(index).address)),
				signature,
				bytes,
			),
		).toBe(true);
	}
	const addresses = await run(
		[signer({ operation: 'getAddress', accountIndex: 2 })],
		[{}],
		mnemonicKey(),
	);
	expect(addresses.output('Sign')[0].json).toEqual({
		address: wallet(2).address,
		accountIndex: 2,
		derivationPath: "m/44'/501'/2'/0'",
	});
});

test('the credential test shows the addresses and the policy in words; a bad key fails without quoting it', async () => {
	const ok = await expandSolanaKeyTest.call({} as never, {
		id: '1',
		name: 'k',
		type: 'expandSolanaKeyApi',
		data: { ...mnemonicKey(), allowedChainIds: '901', maxPerTransaction: 'native = 2' },
	});
	expect(ok).toEqual({
		status: 'OK',
		message: `Valid key. Accounts: #0 ${wallet(0).address}, #1 ${wallet(1).address}, #2 ${wallet(2).address}, …. Policy: chains 901 only; any recipient; calls it cannot read as a payment refused unless their contract is listed (0 in Allowed Contracts and Programs); per transaction at most 2 of the native asset; no per-execution total; total fee at most 0.01 native units per transaction; a transaction from an input item is signed only as the Expand intent beside it asked (chain, sender, SOL or SPL transfer or approval with its token, recipient and amount; a call it cannot read, such as a swap, with no more native value than asked and only with its contract on Allowed Contracts and Programs); one without an intent refused (Require Intent). Payout IDs: off (no ledger folder).`,
	});
	const single = await expandSolanaKeyTest.call({} as never, {
		id: '1',
		name: 'k',
		type: 'expandSolanaKeyApi',
		data: jsonKey(2),
	});
	expect(single.message).toMatch(
		new RegExp(`^Valid key\\. Accounts: #0 ${wallet(2).address}\\. Policy: any chain;`),
	);
	const truncated = wallet(2).secretKey.slice(0, -3);
	const bad = await expandSolanaKeyTest.call({} as never, {
		id: '1',
		name: 'k',
		type: 'expandSolanaKeyApi',
		data: { keyType: 'secretKey', secretKey: truncated },
	});
	expect(bad.status).toBe('Error');
	expect(bad.message).toMatch(/a Solana key pair has 64/);
	expect(bad.message).not.toContain(truncated.slice(0, 10));
});

test('bad keys fail each item with a message that quotes none of them', async () => {
	const misspelt = devnet.solana.mnemonic.replace(/junk$/, 'jump');
	const truncated = wallet(1).secretKey.slice(0, -3);
	const keys: Array<Record<string, string>> = [
		{ keyType: 'mnemonic', mnemonic: misspelt },
		{ keyType: 'secretKey', secretKey: truncated },
		{ keyType: 'secretKey', secretKey: wallet(1).secretKeyJson.replace(/]$/, ',1]') },
	];
	for (const key of keys) {
		const result = await run([signer({ operation: 'getAddress' }, true)], [{}], key);
		expect(result.output('Sign')[0].json.error).toMatch(
			/^The (mnemonic|secret key) of the Solana signing key credential .* \(item 0\)$/,
		);
	}
});

/** Every form of the devnet keys a careless message could quote: base58 and JSON-array key pairs, their halves in base58, hex and base64, the mnemonic, its seed and the derived private keys. */
function secrets(): string[] {
	const mnemonic = devnet.solana.mnemonic;
	const seed = Mnemonic.fromPhrase(mnemonic).computeSeed();
	const master = HDKey.fromMasterSeed(seed.slice(2));
	const forms = (bytes: Uint8Array) => [
		getBase58Decoder().decode(bytes),
		getBase16Decoder().decode(bytes),
		getBase64Decoder().decode(bytes),
	];
	const keyPairs = devnet.solana.wallets.map(
		(entry) => new Uint8Array(getBase58Encoder().encode(entry.secretKey)),
	);
	return [
		...devnet.solana.wallets.flatMap((entry) => [
			entry.secretKey,
			entry.secretKeyJson,
			entry.secretKeyJson.replace(/,/g, ', '),
			entry.secretKey.slice(0, -3),
		]),
		...keyPairs.flatMap((pair) => [
			...forms(pair),
			...forms(pair.subarray(0, 32)),
			JSON.stringify([...pair.subarray(0, 32)]).slice(1, -1),
		]),
		...[0, 1, 2, 3, 4].flatMap((index) =>
			forms(master.derive(`m/44'/501'/${index}'/0'`).privateKey),
		),
		seed.slice(2),
		mnemonic,
		mnemonic.split(' ').slice(0, 4).join(' '),
		mnemonic.replace(/junk$/, 'jump'),
	];
}

test('no trace of any key: requests to the API and the JSON-RPC node, responses, outputs, errors and logs', async () => {
	// Its own runs with each key form (so it passes alone), then everything this file recorded.
	const recipient = wallet(0).address;
	for (const key of [
		base58Key(1),
		jsonKey(2),
		mnemonicKey(),
		{ keyType: 'mnemonic', mnemonic: devnet.solana.mnemonic.replace(/junk$/, 'jump') },
	]) {
		await run(
			[
				signer(
					{
						operation: 'transferSol',
						accountIndex: key.keyType === 'mnemonic' ? 3 : 0,
						recipient,
						amount: '1000',
					},
					true,
				),
				send,
			],
			[{}],
			key,
		);
	}
	// The scan sees what it scans: Solana RPC calls are there.
	expect(
		proxy.requests.some(
			(request) =>
				request.target === devnet.solana.rpcUrl && request.body.includes('getLatestBlockhash'),
		),
	).toBe(true);
	const hidden = secrets();
	expect(hidden.length).toBeGreaterThan(60);
	expectNoTrace(recordedTexts(proxy, runs, output.lines), output.lines, hidden);
});
