/**
 * The send step end to end on the devnet: Expand write operation → Expand Signer → Expand
 * chain/sendtransaction → chain/gettransaction. Every test records every request, response,
 * output, error and log line of its own runs and searches them for any trace of the key, so each
 * passes run alone.
 */
import { HDNodeWallet, Mnemonic, Transaction, hexlify, toUtf8Bytes } from 'ethers';

import { type Devnet, startDevnet } from '../../../../devnet';
import {
	EXPAND,
	ITEMS,
	SIGNER,
	runPipeline,
	type NodeSpec,
	type RunResult,
} from '../../../helpers/n8n';
import { outputRecorder } from '../../../helpers/outputRecorder';
import { startRecordingProxy } from '../../../helpers/recordingProxy';
import { DEVNET_MNEMONIC as MNEMONIC } from '../../../../devnet/fixtures';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { sendTransactionNode } from '../../../helpers/sendTransactionNode';

const PATH = "m/44'/60'/0'/0/1";

let devnet: Devnet;
let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
let chainA: Devnet['chains'][number];
const signingKey = {
	keyType: 'mnemonic',
	mnemonic: MNEMONIC,
	derivationPath: PATH,
	passphrase: '',
};
const sender = HDNodeWallet.fromPhrase(MNEMONIC, undefined, PATH);

/** Every log line of n8n's logger and everything written to the console or stdout/stderr during the runs. */
const output = outputRecorder();
const logLines = output.lines;

beforeAll(async () => {
	output.start();
	devnet = await startDevnet();
	[chainA] = devnet.chains;
	proxy = await startRecordingProxy([
		devnet.baseUrl,
		devnet.historicalUrl,
		...devnet.chains.map((chain) => chain.rpcUrl),
	]);
});
afterAll(async () => {
	output.stop();
	await proxy.close();
	await devnet.stop();
});

/** Each run's whole execution data (every node's output, errors with stack and description), kept for the scan. */
const runs: RunResult[] = [];

async function run(nodes: NodeSpec[], items: object[], key: Record<string, string> = signingKey) {
	output.attachLogger();
	const result = await runPipeline(
		[{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } }, ...nodes],
		devnetCredentials(devnet, {
			expand: {
				baseUrl: proxy.url(devnet.baseUrl),
				historicalUrl: proxy.url(devnet.historicalUrl),
			},
			signer: key,
		}),
	);
	runs.push(result);
	return result;
}

/** The text of a run: its execution data and its error, with the fields JSON leaves out. */
function runText(result: RunResult): string {
	const error = result.error;
	return [
		JSON.stringify(result.run),
		error
			? `${error.message} ${error.description ?? ''} ${error.stack ?? ''} ${JSON.stringify(error)}`
			: '',
	].join(' ');
}

// Variants of the real key material that a careless error message could quote.
const TRUNCATED_KEY = sender.privateKey.slice(0, -2);
const MISSPELT_MNEMONIC = MNEMONIC.replace(/junk$/, 'jump');

/** The key, the mnemonic and everything derived from them, lower-cased, hex with and without 0x. */
function secrets(): string[] {
	const mnemonic = Mnemonic.fromPhrase(MNEMONIC);
	const root = HDNodeWallet.fromMnemonic(mnemonic, 'm');
	const derived = ["m/44'/60'/0'", "m/44'/60'/0'/0", PATH].map((path) =>
		HDNodeWallet.fromMnemonic(mnemonic, path),
	);
	const hexSecrets = [
		sender.privateKey,
		mnemonic.computeSeed(),
		mnemonic.entropy,
		hexlify(toUtf8Bytes(MNEMONIC)),
		root.privateKey,
		root.chainCode,
		...derived.flatMap((node) => [node.privateKey, node.chainCode]),
		TRUNCATED_KEY,
	];
	return [
		...hexSecrets.flatMap((secret) => [secret, secret.slice(2)]),
		MNEMONIC,
		MNEMONIC.split(' ').slice(0, 4).join(' '),
		MISSPELT_MNEMONIC,
		root.extendedKey,
		...derived.map((node) => node.extendedKey),
	].map((secret) => secret.toLowerCase());
}

interface Mark {
	requests: number;
	responses: number;
	runs: number;
	logLines: number;
}
const mark = (): Mark => ({
	requests: proxy.requests.length,
	responses: proxy.responses.length,
	runs: runs.length,
	logLines: logLines.length,
});

/**
 * What was recorded since the mark: requests to the API and to the chain's JSON-RPC node (with
 * headers and bodies), responses, every node's output, each run's whole execution data and error,
 * and log and console lines.
 */
function recordedSince(start: Mark) {
	const requests = proxy.requests.slice(start.requests);
	const newRuns = runs.slice(start.runs);
	const outputs = newRuns.flatMap((result) =>
		Object.keys(result.run.data.resultData.runData).flatMap((name) => result.output(name)),
	);
	const lines = logLines.slice(start.logLines);
	const texts = [
		...requests.map(
			(request) =>
				`${request.method} ${request.url} ${JSON.stringify(request.headers)} ${request.body}`,
		),
		...proxy.responses.slice(start.responses),
		...outputs.map((output) => JSON.stringify(output)),
		...newRuns.map(runText),
		...lines,
	];
	return { requests, runs: newRuns, logLines: lines, texts };
}

/** The scan: none of the recorded texts holds any secret; and it would see one, the texts are really there. */
function expectNoTraceOfTheKey(recorded: ReturnType<typeof recordedSince>): void {
	expect(recorded.runs.length).toBeGreaterThan(0);
	expect(
		recorded.requests.filter((request) => request.target === devnet.baseUrl).length,
	).toBeGreaterThan(0);
	expect(recorded.texts.some((text) => text.includes('rawTransaction'))).toBe(true);
	expect(recorded.logLines.some((line) => line.includes('Running node "Sign"'))).toBe(true);
	const hidden = secrets();
	for (const text of recorded.texts) {
		const lower = text.toLowerCase();
		for (const secret of hidden) expect(lower.includes(secret)).toBe(false);
	}
}

/** What was signed is what was sent: `count` raw transactions sent, each from the sender. */
function expectSentBySender(recorded: ReturnType<typeof recordedSince>, count: number): void {
	const sentRaw = recorded.requests
		.filter((request) => request.url.includes('/chain/sendtransaction'))
		.map((request) => JSON.parse(request.body).rawTransaction);
	expect(sentRaw).toHaveLength(count);
	expect(sentRaw.every((raw) => Transaction.from(raw).from === sender.address)).toBe(true);
}

const signer: NodeSpec = {
	name: 'Sign',
	type: SIGNER,
	parameters: { operation: 'signTransaction', source: 'input' },
};
const send: NodeSpec = sendTransactionNode();
const read: NodeSpec = {
	name: 'Read',
	type: EXPAND,
	parameters: {
		resource: 'chain',
		operation: 'gettransaction',
		chainId: '31337',
		transactionHash: '={{ $json.transactionHash }}',
	},
};

const balanceOf = async (address: string, token?: string) =>
	BigInt(
		token
			? await devnet.rpc<string>('31337', 'eth_call', [
					{ to: token, data: `0x70a08231${address.slice(2).toLowerCase().padStart(64, '0')}` },
					'latest',
				])
			: await devnet.rpc<string>('31337', 'eth_getBalance', [address, 'latest']),
	);

test('createfeetransaction → Signer → sendtransaction → gettransaction moves exactly the fee, leaving no trace of the key', async () => {
	const start = mark();
	const collector = chainA.wallets[9].address;
	const [senderBefore, collectorBefore] = [
		await balanceOf(sender.address),
		await balanceOf(collector),
	];
	const fee: NodeSpec = {
		name: 'Fee',
		type: EXPAND,
		parameters: {
			resource: 'chain',
			operation: 'createfeetransaction',
			chainId: '31337',
			from: sender.address,
			gas: '21000',
			value: '3000000000000000000',
			referenceId: 'payout-1',
		},
	};
	const result = await run([fee, signer, send, read], [{}]);
	expect(result.error).toBeUndefined();
	const signed = result.output('Sign')[0].json;
	expect(signed.from).toBe(sender.address);
	const mined = result.output('Read')[0].json as {
		transactionStatus: boolean;
		transactionFees: string;
		value: string;
	};
	expect(mined.transactionStatus).toBe(true);
	expect(mined.value).toBe('1500000000000000');
	expect((await balanceOf(collector)) - collectorBefore).toBe(1500000000000000n);
	expect(senderBefore - (await balanceOf(sender.address))).toBe(
		1500000000000000n + BigInt(mined.transactionFees),
	);
	const recorded = recordedSince(start);
	expect(
		recorded.requests.filter((request) => request.target === devnet.baseUrl).length,
	).toBeGreaterThanOrEqual(4);
	expectSentBySender(recorded, 1);
	expectNoTraceOfTheKey(recorded);
});

test('twenty token transfers in one execution land with consecutive nonces and exact balances, leaving no trace of the key', async () => {
	const start = mark();
	const usdc = chainA.tokens.USDC.address;
	const recipients = Array.from({ length: 20 }, (_, index) => ({
		to: `0x${(0xa000 + index).toString(16).padStart(40, '0')}`,
		amount: String(1_000_000 * (index + 1)),
	}));
	const senderBefore = await balanceOf(sender.address, usdc);
	const startNonce = Number(
		BigInt(
			await devnet.rpc<string>('31337', 'eth_getTransactionCount', [sender.address, 'pending']),
		),
	);
	const transfer: NodeSpec = {
		name: 'Transfer',
		type: EXPAND,
		parameters: {
			resource: 'fungibletoken',
			operation: 'transfer',
			chainId: '31337',
			amount: '={{ $json.amount }}',
			from: sender.address,
			to: '={{ $json.to }}',
			tokenAddress: usdc,
			gas: '80000',
		},
	};
	const requestsBefore = proxy.requests.length;
	const result = await run([transfer, signer, send, read], recipients);
	expect(result.error).toBeUndefined();
	const signed = result.output('Sign').map((item) => item.json);
	expect(signed.map((item) => item.nonce)).toEqual(
		recipients.map((_, index) => startNonce + index),
	);
	expect(result.output('Read').every((item) => item.json.transactionStatus === true)).toBe(true);
	for (const recipient of recipients)
		expect(await balanceOf(recipient.to, usdc)).toBe(BigInt(recipient.amount));
	const total = recipients.reduce((sum, recipient) => sum + BigInt(recipient.amount), 0n);
	expect(senderBefore - (await balanceOf(sender.address, usdc))).toBe(total);
	// One public-RPC lookup for the chain and one pending-nonce query for the address, for all twenty.
	const made = proxy.requests.slice(requestsBefore);
	expect(made.filter((request) => request.url.startsWith('/chain/getpublicrpc'))).toHaveLength(1);
	expect(made.filter((request) => request.body.includes('eth_getTransactionCount'))).toHaveLength(
		1,
	);
	const recorded = recordedSince(start);
	expect(
		recorded.requests.filter((request) => request.target === devnet.baseUrl).length,
	).toBeGreaterThan(60);
	expectSentBySender(recorded, 20);
	expectNoTraceOfTheKey(recorded);
});

test('failures on the way (a foreign sender, a truncated key, a misspelt phrase) fail cleanly, leaving no trace of the key', async () => {
	const start = mark();
	const other = chainA.wallets[5].address;
	const fee: NodeSpec = {
		name: 'Fee',
		type: EXPAND,
		parameters: {
			resource: 'chain',
			operation: 'createfeetransaction',
			chainId: '31337',
			from: '={{ $json.from }}',
			gas: '21000',
			value: '1000',
			referenceId: 'x',
		},
	};
	const mixed = await run(
		[fee, { ...signer, continueOnFail: true }],
		[{ from: other }, { from: sender.address }],
	);
	const [refused, signed] = mixed.output('Sign');
	expect(refused.json.error).toBe(
		`The transaction is from ${other}, but account 0 of the signing key is ${sender.address}; sign it with the key of ${other} (item 0)`,
	);
	expect(Transaction.from(signed.json.rawTransaction as string).from).toBe(sender.address);

	const truncated = await run([fee, signer], [{ from: sender.address }], {
		keyType: 'privateKey',
		privateKey: TRUNCATED_KEY,
	});
	expect(truncated.error?.message).toBe(
		'The private key of the signing key credential is not a valid 32-byte hex key (item 0)',
	);
	const misspelt = await run([fee, signer], [{ from: sender.address }], {
		...signingKey,
		mnemonic: MISSPELT_MNEMONIC,
	});
	expect(misspelt.error?.message).toBe(
		'The mnemonic of the signing key credential is not a valid BIP-39 phrase (item 0)',
	);

	const recorded = recordedSince(start);
	expect(recorded.runs).toHaveLength(3);
	expect(recorded.texts.some((text) => text.includes('but account 0 of the signing key is'))).toBe(
		true,
	);
	expectNoTraceOfTheKey(recorded);
});
