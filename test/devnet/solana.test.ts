/** The devnet's Solana chain (901, litesvm) through the gateway and its JSON-RPC endpoint, with transactions built by @solana/kit itself. */
import { getTransferSolInstruction } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import {
	getSetComputeUnitLimitInstruction,
	getSetComputeUnitPriceInstruction,
} from '@solana-program/compute-budget';
import {
	type Address,
	type Instruction,
	type KeyPairSigner,
	appendTransactionMessageInstructions,
	createKeyPairSignerFromBytes,
	createTransactionMessage,
	generateKeyPairSigner,
	getBase58Encoder,
	getBase64EncodedWireTransaction,
	getBase64Encoder,
	getSignatureFromTransaction,
	getTransactionDecoder,
	partiallySignTransaction,
	pipe,
	setTransactionMessageFeePayerSigner,
	setTransactionMessageLifetimeUsingBlockhash,
	signTransactionMessageWithSigners,
	verifySignature,
	getPublicKeyFromAddress,
} from '@solana/kit';

import { type Devnet, startDevnet } from '../../devnet';
import { call, query } from './client';

let devnet: Devnet;
let key: string;
let wallets: KeyPairSigner[];
const get = (path: string, params: Record<string, string>, host: 'base' | 'historical' = 'base') =>
	call(query(host === 'base' ? devnet.baseUrl : devnet.historicalUrl, path, params), key);
const post = (path: string, body: unknown) =>
	call(`${devnet.baseUrl}${path}`, key, { method: 'POST', body });
const rpc = async (method: string, params: unknown[] = []) =>
	(
		await call(devnet.solana.rpcUrl, undefined, {
			method: 'POST',
			body: { jsonrpc: '2.0', id: 1, method, params },
		})
	).body;

async function blockhash() {
	const { value } = (await rpc('getLatestBlockhash')).result;
	return { blockhash: value.blockhash, lastValidBlockHeight: BigInt(value.lastValidBlockHeight) };
}

async function signed(
	payer: KeyPairSigner,
	instructions: Instruction[],
	lifetime?: { blockhash: string; lastValidBlockHeight: bigint },
) {
	const message = pipe(
		createTransactionMessage({ version: 0 }),
		(draft) => setTransactionMessageFeePayerSigner(payer, draft),
		(draft) =>
			setTransactionMessageLifetimeUsingBlockhash(
				(lifetime ?? (undefined as never)) as never,
				draft,
			),
		(draft) => appendTransactionMessageInstructions(instructions, draft),
	);
	return await signTransactionMessageWithSigners(message);
}

async function sendSol(from: KeyPairSigner, to: Address, amount: bigint) {
	const transaction = await signed(
		from,
		[getTransferSolInstruction({ source: from, destination: to, amount })],
		await blockhash(),
	);
	return {
		transaction,
		reply: await post('/chain/sendtransaction', {
			chainId: '901',
			rawTransaction: getBase64EncodedWireTransaction(transaction),
		}),
	};
}

beforeAll(async () => {
	devnet = await startDevnet();
	key = devnet.apiKey;
	wallets = await Promise.all(
		devnet.solana.wallets.map((wallet) =>
			createKeyPairSignerFromBytes(getBase58Encoder().encode(wallet.secretKey)),
		),
	);
});
afterAll(async () => {
	await devnet.stop();
});

describe('fixtures', () => {
	test('five wallets from the devnet mnemonic with 100 SOL, USDC on wallets 0–3 and none on wallet 4, readable through chain/getbalance', async () => {
		expect(devnet.solana).toMatchObject({
			chainId: '901',
			symbol: 'DSOL',
			usdc: { symbol: 'USDC', decimals: 6 },
		});
		expect(wallets.map((wallet) => wallet.address)).toEqual(
			devnet.solana.wallets.map((wallet) => wallet.address),
		);
		// The secret key's JSON-array form (solana-keygen's file) is the same key.
		const fromJson = await createKeyPairSignerFromBytes(
			new Uint8Array(JSON.parse(devnet.solana.wallets[2].secretKeyJson)),
		);
		expect(fromJson.address).toBe(wallets[2].address);
		for (const [index, wallet] of devnet.solana.wallets.entries()) {
			const usdc = await get('/chain/getbalance', {
				chainId: '901',
				address: wallet.address,
				tokenAddress: devnet.solana.usdc.address,
			});
			expect(usdc.body.data.balance).toBe(index < 4 ? '10000000000' : '0');
		}
		const sol = await get('/chain/getbalance', {
			chainSymbol: 'DSOL',
			address: devnet.solana.wallets[4].address,
		});
		expect(sol.body.data.balance).toBe('100000000000');
		const rpcBalance = await rpc('getBalance', [devnet.solana.wallets[4].address]);
		expect(rpcBalance.result.value).toBe(100_000_000_000);
	});

	test('the same addresses on every start', async () => {
		const second = await startDevnet();
		try {
			expect(second.solana.usdc.address).toBe(devnet.solana.usdc.address);
			expect(second.solana.wallets.map((wallet) => wallet.address)).toEqual(
				devnet.solana.wallets.map((wallet) => wallet.address),
			);
		} finally {
			await second.stop();
		}
	});
});

describe('SOL transfers', () => {
	test('a transfer signed with @solana/kit and sent through chain/sendtransaction moves exactly its amount and charges 5,000 lamports', async () => {
		const recipient = (await generateKeyPairSigner()).address;
		const before = BigInt(
			(await get('/chain/getbalance', { chainId: '901', address: wallets[1].address })).body.data
				.balance,
		);
		const { transaction, reply } = await sendSol(wallets[1], recipient, 2_000_000n);
		expect(reply.status).toBe(200);
		expect(reply.body.data.transactionHash).toBe(getSignatureFromTransaction(transaction));
		expect(
			(await get('/chain/getbalance', { chainId: '901', address: recipient })).body.data.balance,
		).toBe('2000000');
		const after = BigInt(
			(await get('/chain/getbalance', { chainId: '901', address: wallets[1].address })).body.data
				.balance,
		);
		expect(before - after).toBe(2_005_000n);

		const record = await get('/chain/gettransaction', {
			chainId: '901',
			transactionHash: reply.body.data.transactionHash,
		});
		expect(record.body.data).toMatchObject({
			hash: reply.body.data.transactionHash,
			transactionStatus: null,
			from: wallets[1].address,
			to: recipient,
			value: '2000000',
			transactionFees: '5000',
			gas: null,
			gasPrice: null,
			nonce: null,
			network: null,
		});
		const slot = record.body.data.blockNumber;
		const block = await get(
			'/chain/getblock',
			{ chainId: '901', blockNumber: String(slot) },
			'historical',
		);
		expect(block.body.data.blocks[0]).toMatchObject({ blockNumber: slot, parentSlot: slot - 1 });
		expect(
			block.body.data.blocks[0].transactions.map((entry: { hash: string }) => entry.hash),
		).toEqual([reply.body.data.transactionHash]);

		const statuses = await rpc('getSignatureStatuses', [
			[
				reply.body.data.transactionHash,
				'1111111111111111111111111111111111111111111111111111111111111111',
			],
		]);
		expect(statuses.result.value).toEqual([
			{
				slot,
				confirmations: null,
				err: null,
				status: { Ok: null },
				confirmationStatus: 'finalized',
			},
			null,
		]);
		const viaRpc = await rpc('getTransaction', [
			reply.body.data.transactionHash,
			{ encoding: 'base64' },
		]);
		expect(viaRpc.result.meta.fee).toBe(5000);
		expect(viaRpc.result.transaction[0]).toBe(getBase64EncodedWireTransaction(transaction));
	});

	test('a compute-unit price adds the priority fee that getFeeForMessage announced', async () => {
		const recipient = (await generateKeyPairSigner()).address;
		const transaction = await signed(
			wallets[2],
			[
				getSetComputeUnitLimitInstruction({ units: 10_000 }),
				getSetComputeUnitPriceInstruction({ microLamports: 250_000n }),
				getTransferSolInstruction({
					source: wallets[2],
					destination: recipient,
					amount: 1_000_000n,
				}),
			],
			await blockhash(),
		);
		const message = Buffer.from(transaction.messageBytes).toString('base64');
		expect((await rpc('getFeeForMessage', [message])).result.value).toBe(5000 + 2500);
		const before = BigInt((await rpc('getBalance', [wallets[2].address])).result.value);
		const sent = await rpc('sendTransaction', [
			getBase64EncodedWireTransaction(transaction),
			{ encoding: 'base64' },
		]);
		expect(sent.result).toBe(getSignatureFromTransaction(transaction));
		const after = BigInt((await rpc('getBalance', [wallets[2].address])).result.value);
		expect(before - after).toBe(1_000_000n + 7_500n);
	});

	test('a signature made by another key, a replayed transaction and an unknown blockhash are refused, and nothing moves', async () => {
		const recipient = (await generateKeyPairSigner()).address;
		const good = await signed(
			wallets[3],
			[
				getTransferSolInstruction({
					source: wallets[3],
					destination: recipient,
					amount: 1_000_000n,
				}),
			],
			await blockhash(),
		);
		const forged = {
			...good,
			signatures: { ...good.signatures, [wallets[3].address]: new Uint8Array(64).fill(7) as never },
		};
		const refused = await post('/chain/sendtransaction', {
			chainId: '901',
			rawTransaction: getBase64EncodedWireTransaction(forged),
		});
		expect(refused.status).toBe(400);
		expect(refused.body.data.message).toMatch(/signature/i);

		expect(
			(
				await post('/chain/sendtransaction', {
					chainId: '901',
					rawTransaction: getBase64EncodedWireTransaction(good),
				})
			).status,
		).toBe(200);
		const replay = await post('/chain/sendtransaction', {
			chainId: '901',
			rawTransaction: getBase64EncodedWireTransaction(good),
		});
		expect(replay.status).toBe(400);
		expect(replay.body.data.message).toMatch(/AlreadyProcessed/);

		const stale = await signed(
			wallets[3],
			[
				getTransferSolInstruction({
					source: wallets[3],
					destination: recipient,
					amount: 1_000_000n,
				}),
			],
			{
				blockhash: '11111111111111111111111111111111',
				lastValidBlockHeight: 1n,
			},
		);
		const staleReply = await post('/chain/sendtransaction', {
			chainId: '901',
			rawTransaction: getBase64EncodedWireTransaction(stale),
		});
		expect(staleReply.body.data.message).toMatch(/Blockhash not found/);
		expect(
			(await get('/chain/getbalance', { chainId: '901', address: recipient })).body.data.balance,
		).toBe('1000000');
	});

	test('a blockhash stays usable for 150 blocks, then expires', async () => {
		const lifetime = await blockhash();
		const recipient = (await generateKeyPairSigner()).address;
		await devnet.mine('901', 149);
		const late = await signed(
			wallets[0],
			[
				getTransferSolInstruction({
					source: wallets[0],
					destination: recipient,
					amount: 1_000_000n,
				}),
			],
			lifetime,
		);
		expect(
			(
				await post('/chain/sendtransaction', {
					chainId: '901',
					rawTransaction: getBase64EncodedWireTransaction(late),
				})
			).status,
		).toBe(200);
		await devnet.mine('901', 1);
		const tooLate = await signed(
			wallets[0],
			[
				getTransferSolInstruction({
					source: wallets[0],
					destination: recipient,
					amount: 2_000_000n,
				}),
			],
			lifetime,
		);
		const reply = await post('/chain/sendtransaction', {
			chainId: '901',
			rawTransaction: getBase64EncodedWireTransaction(tooLate),
		});
		expect(reply.body.data.message).toMatch(/Blockhash not found/);
	});
});

describe('SPL transfers prepared by fungibletoken/transfer', () => {
	test('to a wallet without a USDC account: the account is created in the same transaction, and signing it lands the exact amount', async () => {
		const [sender] = wallets;
		const recipient = (await generateKeyPairSigner()).address;
		const prepared = await post('/fungibletoken/transfer', {
			chainId: '901',
			token: devnet.solana.usdc.address,
			sender: sender.address,
			destination: recipient,
			feePayer: sender.address,
			amount: '1234567',
			decimals: '6',
		});
		expect(prepared.status).toBe(200);
		expect(prepared.body.data).toMatchObject({
			chainId: '901',
			from: sender.address,
			feePayer: sender.address,
		});
		const unsigned = getTransactionDecoder().decode(
			getBase64Encoder().encode(prepared.body.data.data),
		);
		expect(Object.keys(unsigned.signatures)).toEqual([sender.address]);
		const transaction = await partiallySignTransaction([sender.keyPair], unsigned);
		const signature = transaction.signatures[sender.address] as never;
		expect(
			await verifySignature(
				await getPublicKeyFromAddress(sender.address),
				signature,
				transaction.messageBytes,
			),
		).toBe(true);
		const sent = await post('/chain/sendtransaction', {
			chainId: '901',
			rawTransaction: getBase64EncodedWireTransaction(transaction),
		});
		expect(sent.status).toBe(200);
		expect(
			(
				await get('/chain/getbalance', {
					chainId: '901',
					address: recipient,
					tokenAddress: devnet.solana.usdc.address,
				})
			).body.data.balance,
		).toBe('1234567');
		const left = await get('/chain/getbalance', {
			chainId: '901',
			address: sender.address,
			tokenAddress: devnet.solana.usdc.address,
		});
		expect(left.body.data.balance).toBe(String(10_000_000_000n - 1_234_567n));
		const record = await get('/chain/gettransaction', {
			chainId: '901',
			transactionHash: sent.body.data.transactionHash,
		});
		expect(record.body.data).toMatchObject({ from: sender.address, value: '1234567' });
	});

	test('wrong decimals, an unknown mint and a malformed key are refused with the API messages', async () => {
		const base = {
			chainId: '901',
			token: devnet.solana.usdc.address,
			sender: wallets[1].address,
			destination: wallets[2].address,
			feePayer: wallets[1].address,
			amount: '1',
			decimals: '6',
		};
		const { feePayer: _omitted, ...withoutFeePayer } = base;
		expect((await post('/fungibletoken/transfer', withoutFeePayer)).body.error).toEqual({
			valid: false,
			message: { missingProperty: 'feePayer' },
			code: 400,
		});
		expect(
			(await post('/fungibletoken/transfer', { ...base, decimals: '9' })).body.error.message,
		).toBe('Please provide proper input data');
		expect(
			(await post('/fungibletoken/transfer', { ...base, token: wallets[3].address })).body.error
				.message,
		).toBe('Invalid SPL token address');
		expect(
			(await post('/fungibletoken/transfer', { ...base, destination: '0xabc' })).body.error.message,
		).toBe('Not a valid Solana Address');
		expect(
			(await get('/chain/getbalance', { chainId: '901', address: 'not-a-key' })).body.data.message,
		).toBe('Not a valid Solana Address');
		expect(
			(await get('/chain/gettransaction', { chainId: '901', transactionHash: 'nope' })).body.data
				.message,
		).toBe('The transactionHash Provided Is Incorrect');
	});
});

describe('what else chain 901 answers', () => {
	test('getpublicrpc names the JSON-RPC endpoint; operations without a Solana variant are not applicable', async () => {
		expect((await get('/chain/getpublicrpc', { chainId: '901' })).body.data).toEqual({
			rpc: devnet.solana.rpcUrl,
		});
		expect(
			(
				await get('/fungibletoken/getdecimals', {
					chainId: '901',
					token: devnet.solana.usdc.address,
				})
			).body.data,
		).toEqual({ decimals: '6' });
		const gas = await get('/chain/getgasprice', { chainId: '901' });
		expect(gas.body.data).toEqual({ message: 'Given function is not applicable', code: 400 });
		const usage = devnet.usage()[0];
		expect(usage).toMatchObject({ chainId: '901', 'api-endpoint': '/chain/getgasprice' });
	});

	test('JSON-RPC: account info, rent, token balance and a batch', async () => {
		const account = await rpc('getAccountInfo', [
			devnet.solana.usdc.address,
			{ encoding: 'base64' },
		]);
		expect(account.result.value.owner).toBe(TOKEN_PROGRAM_ADDRESS);
		expect(
			(await rpc('getAccountInfo', [(await generateKeyPairSigner()).address])).result.value,
		).toBeNull();
		expect((await rpc('getMinimumBalanceForRentExemption', [0])).result).toBe(890_880);
		const token = await rpc('getTokenAccountBalance', [devnet.solana.wallets[3].usdcAccount]);
		expect(token.result.value).toMatchObject({ decimals: 6 });
		const batch = await call(devnet.solana.rpcUrl, undefined, {
			method: 'POST',
			body: [
				{ jsonrpc: '2.0', id: 1, method: 'getSlot' },
				{ jsonrpc: '2.0', id: 2, method: 'noSuchMethod' },
			],
		});
		expect(batch.body[0].result).toBeGreaterThan(0);
		expect(batch.body[1].error.code).toBe(-32601);
	});
});
