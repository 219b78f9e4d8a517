/** The devnet's TON chains (1100, 1101) through their toncenter v2 API and the gateway, with messages built and signed by @ton/ton. */
import {
	Address,
	beginCell,
	Cell,
	external,
	internal,
	type MessageRelaxed,
	SendMode,
	storeMessage,
	toNano,
} from '@ton/core';
import { deriveEd25519Path, keyPairFromSeed, mnemonicToPrivateKey } from '@ton/crypto';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { Mnemonic } from 'ethers';
import { randomBytes } from 'crypto';
import { readFileSync } from 'fs';

import { type Devnet, type DevnetTon, type TonWallet, startDevnet } from '../../devnet';
import { compileJettonCode, JETTON_CODE_FILE } from '../../devnet/contracts/ton/func';
import { call, query } from './client';

let devnet: Devnet;
let mainnet: DevnetTon;
let testnet: DevnetTon;

const get = (path: string, params: Record<string, string>) =>
	call(query(devnet.baseUrl, path, params), devnet.apiKey);
const post = (path: string, body: unknown) =>
	call(`${devnet.baseUrl}${path}`, devnet.apiKey, { method: 'POST', body });
const toncenterGet = (chain: DevnetTon, path: string, params: Record<string, string> = {}) =>
	call(query(chain.rpcUrl, path, params), undefined);
const toncenterPost = (chain: DevnetTon, path: string, body: unknown) =>
	call(`${chain.rpcUrl}${path}`, undefined, { method: 'POST', body });

const W5_GLOBAL_ID = { '1100': -239, '1101': -3 } as Record<string, number>;
const OP_JETTON_TRANSFER = 0x0f8a7ea5;
const OP_TRANSFER_NOTIFICATION = 0x7362d09c;

function walletOf(chain: DevnetTon, version: TonWallet['version'], index?: number): TonWallet {
	const found = chain.wallets.find(
		(wallet) =>
			wallet.version === version &&
			(index === undefined ? wallet.source === 'ton-mnemonic' : wallet.index === index),
	);
	if (!found) throw new Error(`no ${version} wallet ${index}`);
	return found;
}

function contractOf(chain: DevnetTon, wallet: TonWallet) {
	const publicKey = Buffer.from(wallet.publicKey, 'hex');
	return wallet.version === 'v5r1'
		? WalletContractV5R1.create({
				publicKey,
				walletId: { networkGlobalId: W5_GLOBAL_ID[chain.chainId] },
			})
		: WalletContractV4.create({ workchain: 0, publicKey });
}

async function seqnoOf(chain: DevnetTon, wallet: TonWallet): Promise<number> {
	const reply = await toncenterPost(chain, '/runGetMethod', {
		address: wallet.bounceable,
		method: 'seqno',
		stack: [],
	});
	expect(reply.body.result.exit_code).toBe(0);
	return Number(BigInt(reply.body.result.stack[0][1]));
}

async function tonBalance(chain: DevnetTon, address: string): Promise<bigint> {
	const reply = await toncenterGet(chain, '/getAddressInformation', { address });
	return BigInt(reply.body.result.balance);
}

async function jettonBalance(chain: DevnetTon, owner: string): Promise<bigint> {
	const reply = await get('/chain/getbalance', {
		chainId: chain.chainId,
		address: owner,
		tokenAddress: chain.usdt.address,
	});
	return BigInt(reply.body.data.balance);
}

/** An external message signed by `wallet` (`secretKey` to sign with another key) as base64 BOC, with its signed body. */
async function signedExternal(
	chain: DevnetTon,
	wallet: TonWallet,
	messages: MessageRelaxed[],
	options: { seqno?: number; validFor?: number; secretKey?: Buffer } = {},
): Promise<{ boc: string; body: Cell; normalizedHash: string }> {
	const contract = contractOf(chain, wallet);
	const transfer = {
		seqno: options.seqno ?? (await seqnoOf(chain, wallet)),
		secretKey: options.secretKey ?? keyPairFromSeed(Buffer.from(wallet.secretKey, 'hex')).secretKey,
		messages,
		sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
		// The chain's clock, not this process's: a test may have moved it ahead.
		timeout: chain.chain.now + (options.validFor ?? 300),
	};
	// One call on the union does not type: each version's createTransfer is generic over its own arguments.
	const body =
		contract instanceof WalletContractV5R1
			? contract.createTransfer(transfer)
			: contract.createTransfer(transfer);
	// As built here the message already has what TEP-467 normalizes (no source, import fee or state init); only the body goes by reference.
	const message = external({ to: contract.address, body });
	return {
		boc: beginCell().store(storeMessage(message)).endCell().toBoc().toString('base64'),
		body,
		normalizedHash: beginCell()
			.store(storeMessage(message, { forceRef: true }))
			.endCell()
			.hash()
			.toString('hex'),
	};
}

const freshAddress = () => new Address(0, randomBytes(32));

beforeAll(async () => {
	devnet = await startDevnet();
	[mainnet, testnet] = devnet.ton;
});
afterAll(async () => {
	await devnet.stop();
});

describe('fixtures and reads', () => {
	test('the committed jetton code is what func-js makes of the token-contract sources', async () => {
		expect(await compileJettonCode()).toEqual(JSON.parse(readFileSync(JETTON_CODE_FILE, 'utf8')));
	});

	test("chains 1100 and 1101: W5 and v4R2 wallets of m/44'/607'/i' (i = 0-2) and of the TON mnemonic, active, with 1,000 TON and 1,000,000 USDT (6 decimals)", async () => {
		expect(devnet.ton.map(({ chainId, symbol }) => ({ chainId, symbol }))).toEqual([
			{ chainId: '1100', symbol: 'TON' },
			{ chainId: '1101', symbol: 'TTON' },
		]);
		expect(testnet.usdt).toMatchObject({ symbol: 'USDT', decimals: 6 });
		const bip39Seed = Buffer.from(
			Mnemonic.fromPhrase(testnet.mnemonic).computeSeed().slice(2),
			'hex',
		);
		expect(walletOf(testnet, 'v5r1', 2).secretKey).toBe(
			(await deriveEd25519Path(bip39Seed, [44, 607, 2])).toString('hex'),
		);
		const tonKey = await mnemonicToPrivateKey(testnet.tonMnemonic.split(' '));
		expect(walletOf(testnet, 'v4r2').address).toBe(
			WalletContractV4.create({ workchain: 0, publicKey: tonKey.publicKey }).address.toRawString(),
		);
		for (const chain of devnet.ton) {
			expect(chain.wallets).toHaveLength(8);
			for (const wallet of chain.wallets) {
				expect(wallet.address).toBe(contractOf(chain, wallet).address.toRawString());
				const info = await toncenterGet(chain, '/getAddressInformation', {
					address: wallet.nonBounceable,
				});
				expect(info.body.result.state).toBe('active');
				// 1,000 TON less what the deployment cost.
				expect(BigInt(info.body.result.balance)).toBeGreaterThan(toNano('999.9'));
				expect(BigInt(info.body.result.balance)).toBeLessThanOrEqual(toNano('1000'));
				expect(await jettonBalance(chain, wallet.address)).toBe(1_000_000_000_000n);
			}
		}
		// W5's wallet_id holds the network: its address differs per chain; v4R2's does not.
		expect(walletOf(mainnet, 'v5r1', 0).address).not.toBe(walletOf(testnet, 'v5r1', 0).address);
		expect(walletOf(mainnet, 'v4r2', 0).address).toBe(walletOf(testnet, 'v4r2', 0).address);
		expect(walletOf(testnet, 'v5r1', 0).bounceable).toMatch(/^kQ/);
		expect(walletOf(mainnet, 'v5r1', 0).bounceable).toMatch(/^EQ/);
	});

	test("getMasterchainInfo's init root hash is each chain's zerostate; block headers carry the chain's time", async () => {
		const mainInfo = (await toncenterGet(mainnet, '/getMasterchainInfo')).body.result;
		const testInfo = (await toncenterGet(testnet, '/getMasterchainInfo')).body.result;
		expect(mainInfo.init).toMatchObject({
			workchain: -1,
			seqno: 0,
			root_hash: 'F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=',
		});
		expect(testInfo.init.root_hash).toBe('gj+B8wb/AmlPk1z1AhVI484rhrUpgSr2oSFIh56VoSg=');
		expect(mainInfo.last).toMatchObject({ workchain: -1, shard: '-9223372036854775808' });
		await devnet.mine('1101');
		const after = (await toncenterGet(testnet, '/getMasterchainInfo')).body.result;
		expect(after.last.seqno).toBe(testInfo.last.seqno + 1);
		const header = await toncenterGet(testnet, '/getBlockHeader', {
			workchain: '-1',
			shard: '-9223372036854775808',
			seqno: String(after.last.seqno),
		});
		expect(Math.abs(header.body.result.gen_utime - Math.floor(Date.now() / 1000))).toBeLessThan(5);
		const unknown = await toncenterGet(testnet, '/getBlockHeader', {
			workchain: '-1',
			shard: '-9223372036854775808',
			seqno: String(after.last.seqno + 100),
		});
		expect(unknown.body).toMatchObject({ ok: false });
	});

	test('runGetMethod reads the jetton master with a toncenter stack: get_wallet_address of an owner slice, get_jetton_data', async () => {
		const owner = walletOf(testnet, 'v5r1', 1);
		const reply = await toncenterPost(testnet, '/runGetMethod', {
			address: testnet.usdt.bounceable,
			method: 'get_wallet_address',
			stack: [
				[
					'tvm.Slice',
					beginCell()
						.storeAddress(Address.parse(owner.address))
						.endCell()
						.toBoc()
						.toString('base64'),
				],
			],
		});
		expect(reply.body.ok).toBe(true);
		const [[type, { bytes }]] = reply.body.result.stack;
		expect(type).toBe('cell');
		expect(Cell.fromBase64(bytes).beginParse().loadAddress().toRawString()).toBe(
			owner.jettonWallet,
		);
		const data = await toncenterPost(testnet, '/runGetMethod', {
			address: testnet.usdt.address,
			method: 'get_jetton_data',
			stack: [],
		});
		expect(data.body.result.stack[1]).toEqual(['num', '-0x1']);
		const badStack = await toncenterPost(testnet, '/runGetMethod', {
			address: testnet.usdt.address,
			method: 'get_wallet_address',
			stack: [['tvm.Slice', 'not a boc']],
		});
		expect(badStack.body).toMatchObject({ ok: false, code: 400 });
	});

	test('the gateway answers getbalance, getpublicrpc and a bad address on both chains', async () => {
		for (const chain of devnet.ton) {
			const wallet = walletOf(chain, 'v4r2', 1);
			const balance = await get('/chain/getbalance', {
				chainId: chain.chainId,
				address: wallet.bounceable,
			});
			expect(BigInt(balance.body.data.balance)).toBe(await tonBalance(chain, wallet.address));
			const rpc = await get('/chain/getpublicrpc', { chainId: chain.chainId });
			expect(rpc.body.data).toEqual({ rpc: chain.rpcUrl });
			const bad = await get('/chain/getbalance', { chainId: chain.chainId, address: 'EQ123' });
			expect(bad.body.data.message).toBe('Invalid Address');
			const notJetton = await get('/chain/getbalance', {
				chainId: chain.chainId,
				address: wallet.address,
				tokenAddress: freshAddress().toRawString(),
			});
			expect(notJetton.body.data.message).toBe('This token is not supported');
		}
	});
});

describe('sending through the toncenter API', () => {
	test("a W5 wallet's external message through sendBoc moves TON; getTransactions finds it by its body's hash, newest first", async () => {
		const wallet = walletOf(testnet, 'v5r1', 0);
		const recipient = freshAddress();
		const before = await tonBalance(testnet, wallet.address);
		const seqno = await seqnoOf(testnet, wallet);
		const { boc, body } = await signedExternal(testnet, wallet, [
			internal({ to: recipient, value: toNano('1.5'), bounce: false }),
		]);
		expect((await toncenterPost(testnet, '/sendBoc', { boc })).body).toEqual({
			ok: true,
			result: { '@type': 'ok' },
		});
		const received = await toncenterGet(testnet, '/getAddressInformation', {
			address: recipient.toString({ testOnly: true }),
		});
		expect(received.body.result).toMatchObject({ balance: '1500000000', state: 'uninitialized' });
		expect(await tonBalance(testnet, wallet.address)).toBeLessThan(before - toNano('1.5'));
		expect(await seqnoOf(testnet, wallet)).toBe(seqno + 1);

		const history = (
			await toncenterGet(testnet, '/getTransactions', { address: wallet.bounceable, limit: '5' })
		).body.result;
		const lts = history.map((transaction: { transaction_id: { lt: string } }) =>
			BigInt(transaction.transaction_id.lt),
		);
		expect([...lts].sort((a, b) => (a > b ? -1 : 1))).toEqual(lts);
		const found = history.find((transaction: { in_msg: { msg_data: { body: string } } }) =>
			Cell.fromBase64(transaction.in_msg.msg_data.body).hash().equals(body.hash()),
		);
		expect(found).toMatchObject({
			in_msg: { source: '', msg_data: { '@type': 'msg.dataRaw' } },
			description: {
				aborted: false,
				compute_ph: { success: true, exit_code: 0 },
				action: { success: true, result_code: 0 },
			},
		});
		expect(found.out_msgs).toEqual([
			expect.objectContaining({
				value: '1500000000',
				destination: recipient.toString({ testOnly: true }),
			}),
		]);
		// Paging from that transaction on starts with it.
		const page = await toncenterGet(testnet, '/getTransactions', {
			address: wallet.address,
			limit: '1',
			lt: found.transaction_id.lt,
			hash: found.transaction_id.hash,
		});
		expect(
			page.body.result.map((entry: { transaction_id: unknown }) => entry.transaction_id),
		).toEqual([found.transaction_id]);

		const again = await toncenterPost(testnet, '/sendBoc', { boc });
		expect(again.body).toMatchObject({ ok: false, code: 500 });
		expect(again.body.error).toMatch(/cannot apply external message/);
		expect(await seqnoOf(testnet, wallet)).toBe(seqno + 1);
	});

	test('a message signed by another key is refused, and so is one whose valid_until the chain clock passed', async () => {
		const wallet = walletOf(mainnet, 'v5r1', 1);
		const seqno = await seqnoOf(mainnet, wallet);
		const transfer = [internal({ to: freshAddress(), value: toNano('1'), bounce: false })];
		const forged = await signedExternal(mainnet, wallet, transfer, {
			secretKey: keyPairFromSeed(randomBytes(32)).secretKey,
		});
		expect((await toncenterPost(mainnet, '/sendBoc', { boc: forged.boc })).body).toMatchObject({
			ok: false,
			code: 500,
		});
		const expiring = await signedExternal(mainnet, wallet, transfer, { validFor: 60 });
		mainnet.chain.advance(120);
		const expired = await toncenterPost(mainnet, '/sendBoc', { boc: expiring.boc });
		expect(expired.body).toMatchObject({ ok: false, code: 500 });
		expect(await seqnoOf(mainnet, wallet)).toBe(seqno);
		// The same transfer signed under the moved clock lands.
		const fresh = await signedExternal(mainnet, wallet, transfer);
		expect(
			(await toncenterPost(mainnet, '/sendBocReturnHash', { boc: fresh.boc })).body,
		).toMatchObject({
			ok: true,
			result: { hash_norm: Buffer.from(fresh.normalizedHash, 'hex').toString('base64') },
		});
		expect(await seqnoOf(mainnet, wallet)).toBe(seqno + 1);
		const header = await toncenterGet(mainnet, '/getMasterchainInfo');
		const block = await toncenterGet(mainnet, '/getBlockHeader', {
			workchain: '-1',
			shard: '-9223372036854775808',
			seqno: String(header.body.result.last.seqno),
		});
		expect(block.body.result.gen_utime - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(118);
	});

	test("a jetton transfer moves units, and the recipient's notification carries the comment", async () => {
		const sender = walletOf(testnet, 'v5r1', 1);
		const recipient = walletOf(testnet, 'v4r2', 2);
		const [senderBefore, recipientBefore] = [
			await jettonBalance(testnet, sender.address),
			await jettonBalance(testnet, recipient.address),
		];
		const comment = beginCell().storeUint(0, 32).storeStringTail('payout 42').endCell();
		const transferBody = beginCell()
			.storeUint(OP_JETTON_TRANSFER, 32)
			.storeUint(7, 64)
			.storeCoins(2_500_000n)
			.storeAddress(Address.parse(recipient.address))
			.storeAddress(Address.parse(sender.address))
			.storeBit(false)
			.storeCoins(toNano('0.01'))
			.storeBit(true)
			.storeRef(comment)
			.endCell();
		const { boc } = await signedExternal(testnet, sender, [
			internal({
				to: Address.parse(sender.jettonWallet),
				value: toNano('0.1'),
				body: transferBody,
			}),
		]);
		expect((await toncenterPost(testnet, '/sendBoc', { boc })).body.ok).toBe(true);
		expect(await jettonBalance(testnet, sender.address)).toBe(senderBefore - 2_500_000n);
		expect(await jettonBalance(testnet, recipient.address)).toBe(recipientBefore + 2_500_000n);

		const [notification] = (
			await toncenterGet(testnet, '/getTransactions', { address: recipient.address, limit: '1' })
		).body.result;
		const body = Cell.fromBase64(notification.in_msg.msg_data.body).beginParse();
		expect(body.loadUint(32)).toBe(OP_TRANSFER_NOTIFICATION);
		expect(body.loadUintBig(64)).toBe(7n);
		expect(body.loadCoins()).toBe(2_500_000n);
		expect(body.loadAddress().toRawString()).toBe(sender.address);
		expect(body.loadBit()).toBe(true);
		const payload = body.loadRef().beginParse();
		expect(payload.loadUint(32)).toBe(0);
		expect(payload.loadStringTail()).toBe('payout 42');
		expect(Address.parse(notification.in_msg.source).toRawString()).toBe(recipient.jettonWallet);
	});

	test('faults reach the toncenter API by URL: a 429 is answered before the message is applied', async () => {
		const wallet = walletOf(testnet, 'v4r2', 0);
		const seqno = await seqnoOf(testnet, wallet);
		const { boc } = await signedExternal(testnet, wallet, [
			internal({ to: freshAddress(), value: toNano('0.5'), bounce: false }),
		]);
		const url = `${testnet.rpcUrl}/sendboc`;
		devnet.faults.failNext(url, 'rateLimit');
		expect((await toncenterPost(testnet, '/sendBoc', { boc })).status).toBe(429);
		expect(await seqnoOf(testnet, wallet)).toBe(seqno);
		expect((await toncenterPost(testnet, '/sendBoc', { boc })).body.ok).toBe(true);
		expect(devnet.faults.received.at(-1)).toMatchObject({ path: url, params: { boc } });
	});
});

describe("the API's TON endpoints", () => {
	test('sendtransaction answers the normalized hash; gettransaction finds the landed message; a resend is refused (1100 and 1101)', async () => {
		for (const chain of devnet.ton) {
			const wallet = walletOf(chain, 'v5r1', 2);
			const recipient = walletOf(chain, 'v4r2', 1);
			const before = await tonBalance(chain, recipient.address);
			const signed = await signedExternal(chain, wallet, [
				internal({ to: Address.parse(recipient.address), value: toNano('2'), bounce: true }),
			]);
			const sent = await post('/chain/sendtransaction', {
				chainId: chain.chainId,
				rawTransaction: signed.boc,
			});
			expect(sent.body.data).toEqual({ transactionHash: signed.normalizedHash });
			// The recipient's wallet code runs on receipt and takes its gas from what arrived.
			const received = (await tonBalance(chain, recipient.address)) - before;
			expect(received).toBeGreaterThan(toNano('1.99'));
			expect(received).toBeLessThanOrEqual(toNano('2'));

			const landed = await get('/chain/gettransaction', {
				chainId: chain.chainId,
				transactionHash: signed.normalizedHash,
				address: wallet.bounceable,
			});
			expect(landed.body.data).toMatchObject({
				hash: signed.normalizedHash,
				transactionStatus: 'SUCCESS',
				from: wallet.address,
				to: recipient.address,
				value: '2000000000',
			});
			expect(BigInt(landed.body.data.transactionFees)).toBeGreaterThan(0n);
			expect(BigInt(landed.body.data.blockNumber)).toBeGreaterThan(0n);

			const resent = await post('/chain/sendtransaction', {
				chainId: chain.chainId,
				rawTransaction: signed.boc,
			});
			expect(resent.body.data.message).toBe('Error: Returned error: execution reverted');
			const unknown = await get('/chain/gettransaction', {
				chainId: chain.chainId,
				transactionHash: randomBytes(32).toString('hex'),
				address: wallet.address,
			});
			expect(unknown.body.data.message).toBe('The transactionHash Provided Is Incorrect');
		}
	});

	test('gettransaction requires the wallet address on TON', async () => {
		const missing = await get('/chain/gettransaction', {
			chainId: '1101',
			transactionHash: randomBytes(32).toString('hex'),
		});
		expect(missing.status).toBe(400);
		expect(JSON.stringify(missing.body)).toMatch(/address/);
	});
});
