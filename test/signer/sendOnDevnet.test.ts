/**
 * The send step end to end on the devnet: Expand write operation → Expand Signer → Expand
 * chain/sendtransaction → chain/gettransaction, with every request and output recorded and
 * searched for any trace of the key.
 */
import { HDNodeWallet, Mnemonic, Transaction } from 'ethers';

import { type Devnet, startDevnet } from '../../devnet';
import { EXPAND, ITEMS, SIGNER, expandCredentials, runPipeline, type NodeSpec } from '../helpers/n8n';
import { startRecordingProxy } from '../helpers/recordingProxy';

const MNEMONIC = 'test test test test test test test test test test test junk';
const PATH = "m/44'/60'/0'/0/1";

let devnet: Devnet;
let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
let chainA: Devnet['chains'][number];
const signingKey = { keyType: 'mnemonic', mnemonic: MNEMONIC, derivationPath: PATH, passphrase: '' };
const sender = HDNodeWallet.fromPhrase(MNEMONIC, undefined, PATH);

beforeAll(async () => {
	devnet = await startDevnet();
	[chainA] = devnet.chains;
	proxy = await startRecordingProxy([devnet.baseUrl, devnet.historicalUrl, ...devnet.chains.map((chain) => chain.rpcUrl)]);
});
afterAll(async () => {
	await proxy.close();
	await devnet.stop();
});

function run(nodes: NodeSpec[], items: object[]) {
	return runPipeline([{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } }, ...nodes], {
		...expandCredentials({ apiKey: devnet.apiKey, baseUrl: proxy.url(devnet.baseUrl), historicalUrl: proxy.url(devnet.historicalUrl) }),
		expandSignerApi: signingKey,
	});
}

const signer: NodeSpec = { name: 'Sign', type: SIGNER, parameters: { operation: 'signTransaction', source: 'input' } };
const send: NodeSpec = {
	name: 'Send',
	type: EXPAND,
	parameters: { resource: 'chain', operation: 'sendtransaction', chainId: '={{ $json.chainId }}', rawTransaction: '={{ $json.rawTransaction }}' },
};
const read: NodeSpec = {
	name: 'Read',
	type: EXPAND,
	parameters: { resource: 'chain', operation: 'gettransaction', chainId: '31337', transactionHash: '={{ $json.transactionHash }}' },
};

const balanceOf = async (address: string, token?: string) =>
	BigInt(
		token
			? await devnet.rpc<string>('31337', 'eth_call', [{ to: token, data: `0x70a08231${address.slice(2).toLowerCase().padStart(64, '0')}` }, 'latest'])
			: await devnet.rpc<string>('31337', 'eth_getBalance', [address, 'latest']),
	);

const outputs: unknown[] = [];

test('createfeetransaction → Signer → sendtransaction → gettransaction moves exactly the fee', async () => {
	const collector = chainA.wallets[9].address;
	const [senderBefore, collectorBefore] = [await balanceOf(sender.address), await balanceOf(collector)];
	const fee: NodeSpec = {
		name: 'Fee',
		type: EXPAND,
		parameters: { resource: 'chain', operation: 'createfeetransaction', chainId: '31337', from: sender.address, gas: '21000', value: '3000000000000000000', referenceId: 'payout-1' },
	};
	const result = await run([fee, signer, send, read], [{}]);
	expect(result.error).toBeUndefined();
	const signed = result.output('Sign')[0].json;
	expect(signed.from).toBe(sender.address);
	const mined = result.output('Read')[0].json as { transactionStatus: boolean; transactionFees: string; value: string };
	expect(mined.transactionStatus).toBe(true);
	expect(mined.value).toBe('1500000000000000');
	expect((await balanceOf(collector)) - collectorBefore).toBe(1500000000000000n);
	expect(senderBefore - (await balanceOf(sender.address))).toBe(1500000000000000n + BigInt(mined.transactionFees));
	outputs.push(...['Fee', 'Sign', 'Send', 'Read'].flatMap((name) => result.output(name)));
});

test('twenty token transfers in one execution land with consecutive nonces and exact balances', async () => {
	const usdc = chainA.tokens.USDC.address;
	const recipients = Array.from({ length: 20 }, (_, index) => ({
		to: `0x${(0xa000 + index).toString(16).padStart(40, '0')}`,
		amount: String(1_000_000 * (index + 1)),
	}));
	const senderBefore = await balanceOf(sender.address, usdc);
	const startNonce = Number(BigInt(await devnet.rpc<string>('31337', 'eth_getTransactionCount', [sender.address, 'pending'])));
	const transfer: NodeSpec = {
		name: 'Transfer',
		type: EXPAND,
		parameters: {
			resource: 'fungibletoken',
			operation: 'transfer',
			chainId: '31337',
			amount: '={{ $json.amount }}',
			additionalFields: { from: sender.address, to: '={{ $json.to }}', tokenAddress: usdc, gas: '80000' },
		},
	};
	const requestsBefore = proxy.requests.length;
	const result = await run([transfer, signer, send, read], recipients);
	expect(result.error).toBeUndefined();
	const signed = result.output('Sign').map((item) => item.json);
	expect(signed.map((item) => item.nonce)).toEqual(recipients.map((_, index) => startNonce + index));
	expect(result.output('Read').every((item) => item.json.transactionStatus === true)).toBe(true);
	for (const recipient of recipients) expect(await balanceOf(recipient.to, usdc)).toBe(BigInt(recipient.amount));
	const total = recipients.reduce((sum, recipient) => sum + BigInt(recipient.amount), 0n);
	expect(senderBefore - (await balanceOf(sender.address, usdc))).toBe(total);
	// One public-RPC lookup for the chain and one pending-nonce query for the address, for all twenty.
	const made = proxy.requests.slice(requestsBefore);
	expect(made.filter((request) => request.url.startsWith('/chain/getpublicrpc'))).toHaveLength(1);
	expect(made.filter((request) => request.body.includes('eth_getTransactionCount'))).toHaveLength(1);
	outputs.push(...['Transfer', 'Sign', 'Send', 'Read'].flatMap((name) => result.output(name)));
});

test('no request and no output carries the key, the mnemonic or anything derived from them', () => {
	const mnemonic = Mnemonic.fromPhrase(MNEMONIC);
	const root = HDNodeWallet.fromMnemonic(mnemonic, 'm');
	const secrets = [
		MNEMONIC,
		MNEMONIC.split(' ').slice(0, 4).join(' '),
		sender.privateKey,
		sender.privateKey.slice(2),
		mnemonic.computeSeed(),
		mnemonic.computeSeed().slice(2),
		root.extendedKey,
		sender.extendedKey,
		root.privateKey.slice(2),
	].map((secret) => secret.toLowerCase());
	const recorded = [
		...proxy.requests.map((request) => `${request.method} ${request.url} ${JSON.stringify(request.headers)} ${request.body}`),
		...outputs.map((output) => JSON.stringify(output)),
	];
	expect(proxy.requests.length).toBeGreaterThan(100);
	// The test would see a leak: the signed transactions it scans are really there.
	expect(recorded.some((text) => text.includes('rawTransaction'))).toBe(true);
	for (const text of recorded) {
		const lower = text.toLowerCase();
		for (const secret of secrets) expect(lower.includes(secret)).toBe(false);
	}
	// And what was signed is what was sent.
	const sentRaw = proxy.requests.filter((request) => request.url.includes('/chain/sendtransaction')).map((request) => JSON.parse(request.body).rawTransaction);
	expect(sentRaw.every((raw) => Transaction.from(raw).from === sender.address)).toBe(true);
});
