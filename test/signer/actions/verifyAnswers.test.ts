/**
 * Verify, don't trust (issue #22, item 5), on the devnet: Send Transaction refuses an API that answers
 * another transaction's hash (EVM, with Wait for Confirmation) or signature (Solana); an RPC URL from
 * chain/getpublicrpc that points to a link-local, private or unspecified address is refused while the
 * devnet's own (loopback, like its API) keeps working; a payout's status comes from the RPC node pinned
 * on the credential, so a lying node from the API no longer turns an unsent payout into "already sent".
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { address } from '@solana/kit';
import { Wallet } from 'ethers';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../../devnet';
import { expandSignerKeyTest } from '../../helpers/signerKeyTests';
import { startLyingFront } from '../../helpers/lyingFront';
import { ITEMS, SIGNER, expandCredentials, runPipeline } from '../../helpers/n8n';
import {
	type RecordingServer,
	envelope,
	startRecordingServer,
} from '../../helpers/recordingServer';
import { devnetCredentials } from '../../helpers/devnetCredentials';
import { sendTransactionNode } from '../../helpers/sendTransactionNode';

const ledgerFolder = mkdtempSync(join(tmpdir(), 'expand-verify-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledgerFolder;

let devnet: Devnet;
let api: RecordingServer;
beforeAll(async () => {
	devnet = await startDevnet();
	api = await startRecordingServer();
});
afterAll(async () => {
	await api.close();
	await devnet.stop();
});

const rpcUrl = () => devnet.chains[0].rpcUrl;

async function fundedWallet(): Promise<Wallet> {
	const wallet = Wallet.createRandom();
	await devnet.rpc('31337', 'hardhat_setBalance', [wallet.address, '0xde0b6b3a7640000']);
	return new Wallet(wallet.privateKey);
}

const transfer = (nonce: number, value: number) => ({
	chainId: 31337,
	to: '0x' + '7a'.repeat(20),
	value,
	nonce,
	gasLimit: 21000,
	maxFeePerGas: 20_000_000_000n,
	maxPriorityFeePerGas: 1_000_000_000n,
});

const sendNode = (extra: INodeParameters = {}) =>
	sendTransactionNode({ chainId: '31337', ...extra }, true);

/** Sends raw transactions through Expand Send Transaction, the API being `baseUrl`. */
async function sendThrough(baseUrl: string, historicalUrl: string, raws: string[], extra = {}) {
	const result = await runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: { items: JSON.stringify(raws.map((rawTransaction) => ({ rawTransaction }))) },
			},
			sendNode(extra),
		],
		devnetCredentials(devnet, { expand: { baseUrl, historicalUrl } }),
	);
	expect(result.error).toBeUndefined();
	return result.output('Send').map((item) => item.json);
}

describe('Send Transaction checks the hash the API answers', () => {
	test('EVM: an API that answers an older hash, and never broadcasts, is an error of the item, not a success', async () => {
		const wallet = await fundedWallet();
		const older = await devnet.rpc<string>('31337', 'eth_sendRawTransaction', [
			await wallet.signTransaction(transfer(0, 1)),
		]);
		const raw = await wallet.signTransaction(transfer(1, 2));
		api.respondWith((request) => {
			if (request.path === '/chain/getpublicrpc') return envelope({ rpc: rpcUrl() });
			if (request.path === '/chain/sendtransaction') return envelope({ transactionHash: older });
			return { status: 404, body: {} };
		});
		// Without the check, waiting on the API's hash finds a successful receipt: "success".
		const receipt = await devnet.rpc<{ status: string }>('31337', 'eth_getTransactionReceipt', [
			older,
		]);
		expect(receipt.status).toBe('0x1');

		const [answer] = await sendThrough(api.baseUrl, api.historicalUrl, [raw], {
			waitForConfirmation: true,
			confirmationTimeout: 5,
		});
		const own = await devnet.rpc<string>('31337', 'web3_sha3', [raw]);
		expect(answer).toEqual({
			error: `The API answered Send Transaction with the hash ${older}, which is not the hash of the signed transaction sent, which the chain's node hashes as ${own}: the chain's transaction ${older} is another one (its nonce is 0, the sent transaction's 1); nothing is confirmed (item 0)`,
		});
		// The transaction sent never reached the chain.
		expect(await devnet.rpc('31337', 'eth_getTransactionByHash', [own])).toBeNull();
	});

	test('EVM: a hash the chain never knows fails the item at the timeout; the honest devnet API is confirmed', async () => {
		const wallet = await fundedWallet();
		const raw = await wallet.signTransaction(transfer(0, 3));
		const invented = '0x' + 'ab'.repeat(32);
		api.respondWith((request) => {
			if (request.path === '/chain/getpublicrpc') return envelope({ rpc: rpcUrl() });
			if (request.path === '/chain/sendtransaction') return envelope({ transactionHash: invented });
			return { status: 404, body: {} };
		});
		const [lie] = await sendThrough(api.baseUrl, api.historicalUrl, [raw], {
			waitForConfirmation: true,
			confirmationTimeout: 2,
		});
		expect(lie.error).toMatch(
			new RegExp(
				`^The API answered Send Transaction with the hash ${invented}, which the chain's JSON-RPC node does not know within 2 s: the signed transaction may never have been broadcast; nothing is confirmed \\(item 0\\)$`,
			),
		);
		const [honest] = await sendThrough(devnet.baseUrl, devnet.historicalUrl, [raw], {
			waitForConfirmation: true,
		});
		expect(honest).toMatchObject({ status: 'success', confirmations: 1 });
	});

	test('EVM: every transaction type the devnet takes is confirmed as it was sent (legacy, EIP-2930 with an access list, EIP-1559, a deployment, EIP-7702)', async () => {
		const wallet = await fundedWallet();
		const base = { chainId: 31337, gasLimit: 100000 };
		const accessList = [
			{ address: '0x' + '7b'.repeat(20), storageKeys: ['0x' + '01'.padStart(64, '0')] },
		];
		const raws = [
			await wallet.signTransaction({
				...base,
				type: 0,
				nonce: 0,
				to: '0x' + '7c'.repeat(20),
				value: 1,
				gasPrice: 20_000_000_000n,
			}),
			await wallet.signTransaction({
				...base,
				type: 1,
				nonce: 1,
				to: '0x' + '7c'.repeat(20),
				value: 2,
				gasPrice: 20_000_000_000n,
				accessList,
			}),
			await wallet.signTransaction({
				...transfer(2, 3),
				data: '0x1234',
				gasLimit: 100000,
				accessList,
			}),
			await wallet.signTransaction({
				...base,
				type: 2,
				nonce: 3,
				to: null,
				data: '0x00',
				maxFeePerGas: 20_000_000_000n,
				maxPriorityFeePerGas: 1n,
			}),
		];
		// EIP-7702: the wallet delegates to a contract address; the node reports the parity as v only.
		const authorization = await wallet.authorize({
			address: '0x' + '7d'.repeat(20),
			nonce: 5,
			chainId: 31337,
		});
		raws.push(
			await wallet.signTransaction({
				...transfer(4, 0),
				type: 4,
				gasLimit: 100000,
				authorizationList: [authorization],
			}),
		);
		const answers = await sendThrough(devnet.baseUrl, devnet.historicalUrl, raws, {
			waitForConfirmation: true,
		});
		expect(answers.map((answer) => answer.status ?? answer.error)).toEqual(
			Array(5).fill('success'),
		);
	});

	test('Solana: an API that answers an older signature is an error of the item naming both', async () => {
		const key = { keyType: 'secretKey', secretKey: devnet.solana.wallets[2].secretKey };
		const sign = async () => {
			const result = await runPipeline(
				[
					{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
					{
						name: 'Sign',
						type: SIGNER,
						parameters: {
							chainFamily: 'solana',
							solanaChainId: '901',
							operation: 'transferSol',
							recipient: devnet.solana.wallets[3].address,
							amount: '1000',
						},
					},
				],
				devnetCredentials(devnet, { solana: key }),
			);
			expect(result.error).toBeUndefined();
			return result.output('Sign')[0].json as IDataObject & { rawTransaction: string };
		};
		const solanaSend = { chainId: '901' };
		const older = await sign();
		const [landed] = await sendThrough(
			devnet.baseUrl,
			devnet.historicalUrl,
			[older.rawTransaction],
			solanaSend,
		);
		expect(landed.transactionHash).toBe(older.signature);
		const newer = await sign();
		api.respondWith((request) =>
			request.path === '/chain/sendtransaction'
				? envelope({ transactionHash: older.signature })
				: { status: 404, body: {} },
		);
		const [answer] = await sendThrough(
			api.baseUrl,
			api.historicalUrl,
			[newer.rawTransaction],
			solanaSend,
		);
		expect(answer).toEqual({
			error: `The API answered Send Transaction with the signature "${older.signature}", but the signed transaction sent is ${newer.signature} (item 0)`,
		});
		// An API that takes the bytes in hex and answers their first signature is believed.
		api.respondWith((request) =>
			request.path === '/chain/sendtransaction'
				? envelope({ transactionHash: newer.signature })
				: { status: 404, body: {} },
		);
		const hex = '0x' + Buffer.from(newer.rawTransaction, 'base64').toString('hex');
		const [honest] = await sendThrough(api.baseUrl, api.historicalUrl, [hex], solanaSend);
		expect(honest).toEqual({ transactionHash: newer.signature });
	});
});

describe('an RPC URL from the API', () => {
	async function signWithApiRpc(rpc: string) {
		api.respondWith((request) =>
			request.path === '/chain/getpublicrpc' ? envelope({ rpc }) : { status: 404, body: {} },
		);
		api.requests.length = 0;
		const wallet = await fundedWallet();
		const result = await runPipeline(
			[
				{
					name: 'Items',
					type: ITEMS,
					parameters: {
						items: JSON.stringify([{ chainId: '31337', to: wallet.address, value: '1' }]),
					},
				},
				{
					name: 'Sign',
					type: SIGNER,
					parameters: { operation: 'signTransaction', source: 'input' },
					continueOnFail: true,
				},
			],
			{
				...expandCredentials({
					apiKey: 'key',
					baseUrl: api.baseUrl,
					historicalUrl: api.historicalUrl,
				}),
				expandSignerApi: { keyType: 'privateKey', privateKey: wallet.privateKey },
			},
		);
		expect(result.error).toBeUndefined();
		return result.output('Sign')[0].json;
	}

	test.each([
		['http://169.254.169.254/latest/meta-data', '169.254.169.254 (link-local)'],
		['http://[fe80::1]:8545', '[fe80::1] (link-local)'],
		['http://2852039166/', '169.254.169.254 (link-local)'],
		['http://[::ffff:169.254.169.254]/', '[::ffff:a9fe:a9fe] (link-local)'],
		// IPv4-translated (SIIT) and RFC 8215 local-use NAT64: a translator in the network reaches the IPv4 address.
		['http://[::ffff:0:169.254.169.254]/', '[::ffff:0:a9fe:a9fe] (link-local)'],
		['http://[64:ff9b:1::a9fe:a9fe]/', '[64:ff9b:1::a9fe:a9fe] (private)'],
		['http://10.0.0.7:8545', '10.0.0.7 (private)'],
		['http://192.168.1.20:8545', '192.168.1.20 (private)'],
		['http://[fd12::1]:8545', '[fd12::1] (private)'],
		['http://0.0.0.0:8545', '0.0.0.0 (unspecified)'],
		['http://metadata/computeMetadata', 'metadata (local name)'],
	])(
		'%s is refused for an API on 127.0.0.1 (another kind of address); nothing is signed',
		async (rpc, where) => {
			const answer = await signWithApiRpc(rpc);
			expect(answer).toEqual({
				error: `Refused by the rule "rpcAddress": the JSON-RPC URL the API gave for chain 31337 points to ${where}, while the API is not on such an address; nothing was sent to it (item 0)`,
			});
		},
	);

	test('a URL that is not http(s) is refused; the devnet on 127.0.0.1, like its API, is used', async () => {
		expect(await signWithApiRpc('file:///etc/passwd')).toEqual({
			error:
				'Refused by the rule "rpcAddress": the JSON-RPC URL the API gave for chain 31337 is not an http(s) URL; nothing was sent to it (item 0)',
		});
		const signed = await signWithApiRpc(rpcUrl());
		expect(signed.rawTransaction).toMatch(/^0x02/);
	});
});

describe('the payout status comes from the pinned RPC node', () => {
	test('a lying node from the API makes Filter→Send skip an unsent payout; with RPC URLs pinned it is paid once', async () => {
		const wallet = await fundedWallet();
		const recipient = Wallet.createRandom().address;
		// The API is the devnet's, except that its getpublicrpc names a node that calls every hash mined.
		const liar = await startLyingFront(rpcUrl(), (_path, body) => {
			const { id, method, params } = body as { id: number; method: string; params: string[] };
			if (method !== 'eth_getTransactionByHash') return undefined;
			return { jsonrpc: '2.0', id, result: { hash: params[0], blockNumber: '0x1' } };
		});
		const front = await startLyingFront(devnet.baseUrl, (path) =>
			path === '/chain/getpublicrpc'
				? { status: 200, msg: 'success', data: { rpc: liar.url } }
				: undefined,
		);
		const sign = async (pinned?: string) => {
			const result = await runPipeline(
				[
					{
						name: 'Items',
						type: ITEMS,
						parameters: {
							items: JSON.stringify([
								{ payoutId: 'verify-1', chainId: '31337', to: recipient, value: '1000' },
							]),
						},
					},
					{
						name: 'Sign',
						type: SIGNER,
						parameters: {
							operation: 'signTransaction',
							source: 'input',
							payoutId: '={{ $json.payoutId }}',
						},
					},
				],
				devnetCredentials(devnet, {
					expand: { baseUrl: front.url },
					signer: {
						keyType: 'privateKey',
						privateKey: wallet.privateKey,
						payoutLedgerFolder: ledgerFolder,
						...(pinned ? { rpcUrls: `# the team's own node\n31337 = ${pinned}` } : {}),
					},
				}),
			);
			expect(result.error).toBeUndefined();
			return result.output('Sign').map((item) => item.json);
		};
		// The documented pattern: Signer → Filter (alreadySent is not true) → Send Transaction.
		const filterAndSend = async (items: IDataObject[]) => {
			const toSend = items.filter((item) => item.alreadySent !== true);
			if (toSend.length)
				await sendThrough(
					devnet.baseUrl,
					devnet.historicalUrl,
					toSend.map((item) => item.rawTransaction as string),
				);
			return toSend.length;
		};
		const balance = async () =>
			BigInt(await devnet.rpc<string>('31337', 'eth_getBalance', [recipient, 'latest']));
		try {
			// The first run signs the payout and stops before sending it.
			const [first] = await sign();
			expect(first).toMatchObject({ payoutId: 'verify-1', repeat: false });

			// The rerun asks the lying node: "already sent", so the payout is never paid.
			const lied = await sign();
			expect(lied[0]).toMatchObject({ repeat: true, alreadySent: true, chainStatus: 'mined' });
			expect(await filterAndSend(lied)).toBe(0);
			expect(await balance()).toBe(0n);

			// With the chain's node pinned on the credential, the liar is not asked: the payout is paid once.
			const askedBefore = liar.asked.length;
			const pinned = await sign(rpcUrl());
			expect(pinned[0]).toMatchObject({
				repeat: true,
				alreadySent: false,
				chainStatus: 'notSent',
				transactionHash: first.transactionHash,
			});
			expect(liar.asked.length).toBe(askedBefore);
			expect(await filterAndSend(pinned)).toBe(1);
			expect(await balance()).toBe(1000n);
			const [again] = await sign(rpcUrl());
			expect(again).toMatchObject({ alreadySent: true, chainStatus: 'mined' });
		} finally {
			await front.close();
			await liar.close();
		}
	});

	test('a pinned node for another chain is refused; a malformed RPC URLs line names the line', async () => {
		const wallet = await fundedWallet();
		const run = async (rpcUrls: string) => {
			const result = await runPipeline(
				[
					{
						name: 'Items',
						type: ITEMS,
						parameters: {
							items: JSON.stringify([{ chainId: '31337', to: wallet.address, value: '1' }]),
						},
					},
					{
						name: 'Sign',
						type: SIGNER,
						parameters: { operation: 'signTransaction', source: 'input' },
						continueOnFail: true,
					},
				],
				devnetCredentials(devnet, {
					signer: { keyType: 'privateKey', privateKey: wallet.privateKey, rpcUrls },
				}),
			);
			return result;
		};
		const otherChain = await run(`31337 = ${devnet.chains[1].rpcUrl}`);
		expect(otherChain.output('Sign')[0].json).toEqual({
			error: `Refused by the rule "rpcChainId": the JSON-RPC node pinned in the credential for chain 31337 answers eth_chainId ${devnet.chains[1].chainId}; nothing was sent to it (item 0)`,
		});
		const malformed = await run('31337: https://node.example');
		expect(String(malformed.error?.message ?? malformed.output('Sign')[0]?.json.error)).toContain(
			'Line 1 of the credential field "RPC URLs" must read "chainId = https://…", one line per chain; got "31337: https://…"',
		);
	});
});

test("Solana: the API's link-local RPC URL is refused; with the chain's node pinned the API is not asked for one", async () => {
	api.respondWith((request) =>
		request.path === '/chain/getpublicrpc'
			? envelope({ rpc: 'http://169.254.169.254/' })
			: { status: 404, body: {} },
	);
	const transferSol = async (rpcUrls: string) => {
		api.requests.length = 0;
		const result = await runPipeline(
			[
				{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
				{
					name: 'Sign',
					type: SIGNER,
					parameters: {
						chainFamily: 'solana',
						solanaChainId: '901',
						operation: 'transferSol',
						recipient: devnet.solana.wallets[3].address,
						amount: '1000',
					},
					continueOnFail: true,
				},
			],
			{
				...expandCredentials({
					apiKey: 'key',
					baseUrl: api.baseUrl,
					historicalUrl: api.historicalUrl,
				}),
				expandSolanaKeyApi: {
					keyType: 'secretKey',
					secretKey: devnet.solana.wallets[1].secretKey,
					rpcUrls,
				},
			},
		);
		expect(result.error).toBeUndefined();
		return result.output('Sign')[0].json;
	};
	expect(await transferSol('')).toEqual({
		error:
			'Refused by the rule "rpcAddress": the JSON-RPC URL the API gave for chain 901 points to 169.254.169.254 (link-local), while the API is not on such an address; nothing was sent to it (item 0)',
	});
	const signed = await transferSol(`901 = ${devnet.solana.rpcUrl}`);
	expect(signed).toMatchObject({ chainId: '901', encoding: 'base64' });
	expect(api.requests.map((request) => request.path)).not.toContain('/chain/getpublicrpc');
});

test('the credential Test names the pinned chains, and a malformed RPC URLs line fails it', async () => {
	const testWith = (rpcUrls: string) =>
		expandSignerKeyTest.call({} as never, {
			id: '',
			name: '',
			type: 'expandSignerApi',
			data: { keyType: 'privateKey', privateKey: Wallet.createRandom().privateKey, rpcUrls },
		});
	expect(
		(await testWith('1 = https://node.example/a\n137 = https://node.example/b')).message,
	).toMatch(
		/ RPC nodes: pinned for chain 1, 137; other chains use the API's \(never an internal address unless the API is on one\)\.$/,
	);
	expect(await testWith('1 = https://node.example/a\n1 = https://node.example/b')).toEqual({
		status: 'Error',
		message:
			'Line 2 of the credential field "RPC URLs" must read "chainId = https://…", one line per chain; got "1 = https://…"',
	});
});

test('Solana: a lying node from the API calls an unsent payout landed; with the chain pinned it is paid once', async () => {
	const recipient = devnet.solana.wallets[4].address;
	const balance = async () => devnet.solana.chain.balance(address(recipient));
	const liar = await startLyingFront(devnet.solana.rpcUrl, (_path, body) => {
		const { id, method } = body as { id: number; method: string };
		if (method !== 'getSignatureStatuses') return undefined;
		return {
			jsonrpc: '2.0',
			id,
			result: {
				context: { slot: 1 },
				value: [{ slot: 1, confirmations: null, err: null, confirmationStatus: 'finalized' }],
			},
		};
	});
	const front = await startLyingFront(devnet.baseUrl, (path) =>
		path === '/chain/getpublicrpc'
			? { status: 200, msg: 'success', data: { rpc: liar.url } }
			: undefined,
	);
	const sign = async (rpcUrls = '') => {
		const result = await runPipeline(
			[
				{ name: 'Items', type: ITEMS, parameters: { items: '[{"id":"sol-verify-1"}]' } },
				{
					name: 'Sign',
					type: SIGNER,
					parameters: {
						chainFamily: 'solana',
						solanaChainId: '901',
						operation: 'transferSol',
						recipient,
						amount: '4321',
						payoutId: '={{ $json.id }}',
					},
				},
			],
			devnetCredentials(devnet, {
				expand: { baseUrl: front.url },
				solana: {
					keyType: 'secretKey',
					secretKey: devnet.solana.wallets[0].secretKey,
					payoutLedgerFolder: ledgerFolder,
					rpcUrls,
				},
			}),
		);
		expect(result.error).toBeUndefined();
		return result.output('Sign')[0].json;
	};
	try {
		const before = await balance();
		const first = await sign();
		expect(first).toMatchObject({ payoutId: 'sol-verify-1', repeat: false });
		// The lie: Filter (alreadySent is not true) drops the payout, which is never paid.
		expect(await sign()).toMatchObject({ repeat: true, alreadySent: true, chainStatus: 'landed' });
		const askedBefore = liar.asked.length;
		const pinned = await sign(`901 = ${devnet.solana.rpcUrl}`);
		expect(pinned).toMatchObject({
			repeat: true,
			alreadySent: false,
			chainStatus: 'pending',
			signature: first.signature,
		});
		expect(liar.asked.length).toBe(askedBefore);
		const [sent] = await sendThrough(
			devnet.baseUrl,
			devnet.historicalUrl,
			[pinned.rawTransaction as string],
			{ chainId: '901' },
		);
		expect(sent.transactionHash).toBe(first.signature);
		expect(await balance()).toBe(before + 4321n);
	} finally {
		await front.close();
		await liar.close();
	}
});
