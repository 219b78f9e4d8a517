/** The devnet's Tron chains (1000, 1001) through the gateway and their HTTP API, with transactions built and signed by tronweb. */
import { TronWeb, type Types, utils } from 'tronweb';

import { type Devnet, type DevnetTron, type TronWallet, startDevnet } from '../../devnet';
import { call, query } from './client';

type SignedTransaction = Types.SignedTransaction;
type BlockHeader = {
	ref_block_bytes: string;
	ref_block_hash: string;
	expiration: number;
	timestamp: number;
};

let devnet: Devnet;
let nile: DevnetTron;
let mainnet: DevnetTron;
const get = (path: string, params: Record<string, string>) =>
	call(query(devnet.baseUrl, path, params), devnet.apiKey);
const post = (path: string, body: unknown) =>
	call(`${devnet.baseUrl}${path}`, devnet.apiKey, { method: 'POST', body });
const node = async (chain: DevnetTron, path: string, body: unknown = {}) =>
	(await call(`${chain.rpcUrl}${path}`, undefined, { method: 'POST', body })).body;
const fromHexText = (hex: string) => Buffer.from(hex, 'hex').toString('utf8');
const base64Of = (transaction: unknown) =>
	Buffer.from(JSON.stringify(transaction)).toString('base64');

const tronWeb = (chain: DevnetTron) => new TronWeb({ fullHost: chain.rpcUrl });
const wallet = (index: number) => nile.wallets[index];

async function trxBalance(address: string, chainId = '1001'): Promise<bigint> {
	return BigInt((await get('/chain/getbalance', { chainId, address })).body.data.balance);
}

async function usdtBalance(address: string): Promise<bigint> {
	const reply = await get('/chain/getbalance', {
		chainId: '1001',
		address,
		tokenAddress: nile.usdt.address,
	});
	return BigInt(reply.body.data.balance);
}

/** A TRX transfer as the SDK builds it (the ref block read from the node, unless a header is given), signed by `from`. */
async function trxTransfer(
	from: TronWallet,
	to: string,
	sun: number,
	blockHeader?: BlockHeader,
	chain = nile,
): Promise<SignedTransaction> {
	const builder = tronWeb(chain);
	const transaction = await builder.transactionBuilder.sendTrx(
		to,
		sun,
		from.address,
		blockHeader ? { blockHeader } : {},
	);
	return (await builder.trx.sign(transaction, from.privateKey)) as SignedTransaction;
}

/** A USDT transfer (TRC-20 transfer(address,uint256)) with `feeLimit` sun, built locally, signed by `from`. */
async function usdtTransfer(
	from: TronWallet,
	to: string,
	amount: number,
	feeLimit: number,
): Promise<SignedTransaction> {
	const builder = tronWeb(nile);
	const { transaction } = await builder.transactionBuilder.triggerSmartContract(
		nile.usdt.address,
		'transfer(address,uint256)',
		{ feeLimit, txLocal: true },
		[
			{ type: 'address', value: to },
			{ type: 'uint256', value: amount },
		],
		from.address,
	);
	return (await builder.trx.sign(transaction, from.privateKey)) as SignedTransaction;
}

/** The head block's TAPOS fields, as tronweb derives them, with an expiration `expiresIn` ms after now. */
async function headerOf(chain: DevnetTron, expiresIn = 60_000): Promise<BlockHeader> {
	const head = await node(chain, '/wallet/getnowblock');
	const { number, timestamp } = head.block_header.raw_data;
	return {
		ref_block_bytes: number.toString(16).slice(-4).padStart(4, '0'),
		ref_block_hash: head.blockID.slice(16, 32),
		expiration: Date.now() + expiresIn,
		timestamp,
	};
}

beforeAll(async () => {
	devnet = await startDevnet();
	[mainnet, nile] = devnet.tron;
});
afterAll(async () => {
	await devnet.stop();
});

describe('fixtures and reads', () => {
	test("chains 1000 and 1001 with five wallets on m/44'/195'/0'/0/i: 10,000 TRX and 10,000 USDT (6 decimals) on wallets 0–3, no account for wallet 4", async () => {
		expect(devnet.tron.map(({ chainId, symbol }) => ({ chainId, symbol }))).toEqual([
			{ chainId: '1000', symbol: 'TRON' },
			{ chainId: '1001', symbol: 'TTRON' },
		]);
		expect(nile.usdt).toMatchObject({ symbol: 'USDT', decimals: 6 });
		expect(nile.usdt.address).not.toBe(mainnet.usdt.address);
		// The wallet's key is the one its address says, and the one tronweb derives from the mnemonic on that path.
		expect(utils.address.fromPrivateKey(wallet(2).privateKey)).toBe(wallet(2).address);
		expect(TronWeb.fromMnemonic(nile.mnemonic, "m/44'/195'/0'/0/3")).toMatchObject({
			address: wallet(3).address,
			privateKey: `0x${wallet(3).privateKey}`,
		});
		expect(nile.wallets.map((entry) => entry.address)).toEqual(
			mainnet.wallets.map((entry) => entry.address),
		);
		for (const [index, entry] of nile.wallets.entries()) {
			expect(await trxBalance(entry.address)).toBe(index < 4 ? 10_000_000_000n : 0n);
			expect(await usdtBalance(entry.hexAddress)).toBe(index < 4 ? 10_000_000_000n : 0n);
		}
		const bySymbol = await get('/chain/getbalance', {
			chainSymbol: 'TRON',
			address: wallet(0).address,
		});
		expect(bySymbol.body.data.balance).toBe('10000000000');
		const tokenBalance = await get('/fungibletoken/getuserbalance', {
			chainId: '1001',
			tokenAddress: nile.usdt.address,
			address: wallet(1).address,
		});
		expect(tokenBalance.body.data.balance).toBe('10000000000');
	});

	test('the API answers a bad address, an unknown token and unserved calls as it does', async () => {
		const badAddress = await get('/chain/getbalance', { chainId: '1001', address: '0x1234' });
		expect(badAddress.body.data.message).toBe('Invalid Address');
		const unknownToken = await get('/chain/getbalance', {
			chainId: '1001',
			address: wallet(0).address,
			tokenAddress: wallet(1).address,
		});
		expect(unknownToken.body.data.message).toBe('This token is not supported');
		const transfer = await post('/fungibletoken/transfer', {
			chainId: '1001',
			from: wallet(0).address,
			to: wallet(1).address,
			tokenAddress: nile.usdt.address,
			value: '1',
		});
		expect(transfer.status).toBe(400);
		expect(transfer.body.error.message).toBe('Given function is not applicable');
		expect((await get('/chain/getpublicrpc', { chainId: '1001' })).body.data.rpc).toBe(nile.rpcUrl);
	});

	test('the HTTP API: accounts with their owner permission, chain parameters, TRC-20 balanceOf, and a genesis block', async () => {
		const account = await node(nile, '/wallet/getaccount', {
			address: wallet(0).address,
			visible: true,
		});
		expect(account).toMatchObject({
			address: wallet(0).address,
			owner_permission: { threshold: 1, keys: [{ address: wallet(0).address, weight: 1 }] },
		});
		expect(await node(nile, '/wallet/getaccount', { address: wallet(4).hexAddress })).toEqual({});
		const { chainParameter } = await node(nile, '/wallet/getchainparameters');
		expect(chainParameter).toContainEqual({ key: 'getEnergyFee', value: 100 });
		const balance = await tronWeb(nile).transactionBuilder.triggerConstantContract(
			nile.usdt.address,
			'balanceOf(address)',
			{},
			[{ type: 'address', value: wallet(3).address }],
			wallet(0).address,
		);
		expect(BigInt(`0x${balance.constant_result[0]}`)).toBe(10_000_000_000n);
		// A Tron chain's ID is the last 4 bytes of its genesis block ID (Nile 0xcd8690dc, mainnet 0x2b6653dc).
		const genesis = await node(nile, '/wallet/getblockbynum', { num: 0 });
		expect(genesis.blockID).toMatch(/^0{16}[0-9a-f]{40}cd8690dc$/);
		const mainnetGenesis = await node(mainnet, '/wallet/getblockbynum', { num: 0 });
		expect(mainnetGenesis.blockID).toMatch(/^0{16}[0-9a-f]{40}2b6653dc$/);
		expect(mainnetGenesis.blockID.slice(16, 32)).not.toBe(genesis.blockID.slice(16, 32));
	});

	test('a transaction on the genesis block as its reference passes TAPOS on its chain only', async () => {
		const onGenesis = async (chain: DevnetTron) => {
			const genesis = await node(chain, '/wallet/getblockbynum', { num: 0 });
			return {
				...(await headerOf(chain)),
				ref_block_bytes: '0000',
				ref_block_hash: genesis.blockID.slice(16, 32),
			};
		};
		const otherChain = await trxTransfer(
			wallet(1),
			wallet(2).address,
			1_000_000,
			await onGenesis(mainnet),
		);
		expect((await node(nile, '/wallet/broadcasttransaction', otherChain)).code).toBe('TAPOS_ERROR');
		const own = await trxTransfer(wallet(1), wallet(2).address, 1_000_000, await onGenesis(nile));
		expect(await node(nile, '/wallet/broadcasttransaction', own)).toMatchObject({ result: true });
	});
});

test('mine adds empty blocks to one Tron chain, and onBlock reports them', async () => {
	const [nileHead, mainnetHead] = [nile.chain.head.number, mainnet.chain.head.number];
	const seen: Array<[string, number]> = [];
	const unsubscribe = devnet.onBlock((chainId, blockNumber) => seen.push([chainId, blockNumber]));
	await devnet.mine('1001', 2);
	unsubscribe();
	expect(nile.chain.head.number).toBe(nileHead + 2);
	expect(mainnet.chain.head.number).toBe(mainnetHead);
	expect(seen).toEqual([
		['1001', nileHead + 1],
		['1001', nileHead + 2],
	]);
});

test('a head older than 3 s is followed by an empty block when a client reads it, as on a live chain', async () => {
	nile.chain.head.timestamp -= 10_000;
	const before = nile.chain.head.number;
	const { block_header } = await node(nile, '/wallet/getnowblock');
	expect(block_header.raw_data.number).toBe(before + 1);
	expect(Date.now() - block_header.raw_data.timestamp).toBeLessThan(3_000);
});

describe('TRX transfers', () => {
	test('sent through chain/sendtransaction as the SDK sends it, a transfer lands once and chain/gettransaction answers it', async () => {
		const [from, to] = [wallet(0), wallet(1)];
		const [fromBefore, toBefore] = [await trxBalance(from.address), await trxBalance(to.address)];
		const signed = await trxTransfer(from, to.address, 2_500_000);
		const sent = await post('/chain/sendtransaction', {
			chainId: '1001',
			rawTransaction: base64Of(signed),
		});
		expect(sent.body.data).toEqual({ transactionHash: signed.txID });
		// Sent again, the backend still answers the txid; the node refused the duplicate, so nothing moves twice.
		const again = await post('/chain/sendtransaction', {
			chainId: '1001',
			rawTransaction: base64Of(signed),
		});
		expect(again.body.data).toEqual({ transactionHash: signed.txID });
		expect(await trxBalance(to.address)).toBe(toBefore + 2_500_000n);
		// The day's free bandwidth pays for the bytes: only the amount leaves the sender.
		expect(await trxBalance(from.address)).toBe(fromBefore - 2_500_000n);
		const record = await get('/chain/gettransaction', {
			chainId: '1001',
			transactionHash: signed.txID,
		});
		expect(record.body.data).toEqual({
			hash: signed.txID,
			transactionStatus: 'SUCCESS',
			blockNumber: null,
			timestamp: signed.raw_data.timestamp,
			from: { tronAddress: from.address, hexAddress: from.hexAddress },
			to: { tronAddress: to.address, hexAddress: to.hexAddress },
			value: '2500000',
			transactionFees: null,
			gas: null,
			gasPrice: null,
			input: signed.raw_data_hex,
			nonce: null,
			network: null,
		});
		const onNode = await node(nile, '/wallet/gettransactionbyid', { value: signed.txID });
		expect(onNode).toMatchObject({ txID: signed.txID, ret: [{ contractRet: 'SUCCESS' }] });
		expect(onNode.raw_data_hex).toBe(signed.raw_data_hex);
	});

	test('a duplicate is refused with DUP_TRANSACTION_ERROR', async () => {
		const signed = await trxTransfer(wallet(1), wallet(2).address, 1_000_000);
		expect(await node(nile, '/wallet/broadcasttransaction', signed)).toEqual({
			result: true,
			txid: signed.txID,
		});
		const duplicate = await node(nile, '/wallet/broadcasttransaction', signed);
		expect(duplicate).toMatchObject({ code: 'DUP_TRANSACTION_ERROR', txid: signed.txID });
		expect(fromHexText(duplicate.message)).toBe('Dup transaction');
	});

	test('an expired transaction, and one expiring more than 24 h ahead, are refused and never land', async () => {
		for (const expiresIn of [-1_000, 25 * 3600 * 1000]) {
			const signed = await trxTransfer(
				wallet(0),
				wallet(1).address,
				1_000_000,
				await headerOf(nile, expiresIn),
			);
			const answer = await node(nile, '/wallet/broadcasttransaction', signed);
			expect(answer.code).toBe('TRANSACTION_EXPIRATION_ERROR');
			// The API answers the txid all the same (the backend never reads the node's result); the chain has no such transaction.
			const sent = await post('/chain/sendtransaction', {
				chainId: '1001',
				rawTransaction: base64Of(signed),
			});
			expect(sent.body.data).toEqual({ transactionHash: signed.txID });
			const record = await get('/chain/gettransaction', {
				chainId: '1001',
				transactionHash: signed.txID,
			});
			expect(record.body.data.message).toBe('The transactionHash Provided Is Incorrect');
		}
	});

	test('a wrong reference block is refused with TAPOS_ERROR, and so is a block of the other chain', async () => {
		const header = await headerOf(nile);
		const wrongHash = await trxTransfer(wallet(0), wallet(1).address, 1_000_000, {
			...header,
			ref_block_hash: '00'.repeat(8),
		});
		expect((await node(nile, '/wallet/broadcasttransaction', wrongHash)).code).toBe('TAPOS_ERROR');
		// Signed against chain 1000's head: a Tron transaction is bound to its chain only by its reference block.
		const otherChain = await trxTransfer(
			wallet(0),
			wallet(1).address,
			1_000_000,
			await headerOf(mainnet),
		);
		expect((await node(nile, '/wallet/broadcasttransaction', otherChain)).code).toBe('TAPOS_ERROR');
		expect((await node(mainnet, '/wallet/broadcasttransaction', otherChain)).result).toBe(true);
	});

	test('a signature by another key, and raw_data changed after signing, are refused with SIGERROR', async () => {
		const transaction = await tronWeb(nile).transactionBuilder.sendTrx(
			wallet(2).address,
			1_000_000,
			wallet(0).address,
		);
		const byOther = utils.crypto.signTransaction(wallet(1).privateKey, transaction);
		const refused = await node(nile, '/wallet/broadcasttransaction', byOther);
		expect(refused.code).toBe('SIGERROR');
		expect(fromHexText(refused.message)).toContain(wallet(1).hexAddress);
		// The node re-serializes raw_data and ignores raw_data_hex: a raised amount changes the txID the signature covers.
		const signed = await tronWeb(nile).trx.sign(
			await tronWeb(nile).transactionBuilder.sendTrx(
				wallet(2).address,
				1_000_000,
				wallet(0).address,
			),
			wallet(0).privateKey,
		);
		const tampered = structuredClone(signed);
		tampered.raw_data.contract[0].parameter.value.amount = 9_000_000;
		const answer = await node(nile, '/wallet/broadcasttransaction', tampered);
		expect(answer.code).toBe('SIGERROR');
		expect(answer.txid).not.toBe(signed.txID);
		expect(
			await node(nile, '/wallet/broadcasttransaction', { ...signed, signature: [] }),
		).toMatchObject({
			code: 'SIGERROR',
		});
	});

	test('a transfer that creates its recipient burns the account-creation fees; an account that does not exist cannot send', async () => {
		const newcomer = wallet(4);
		const before = await trxBalance(wallet(3).address);
		const signed = await trxTransfer(wallet(3), newcomer.address, 5_000_000);
		expect((await node(nile, '/wallet/broadcasttransaction', signed)).result).toBe(true);
		expect(await trxBalance(newcomer.address)).toBe(5_000_000n);
		// 0.1 TRX for the account's bandwidth and 1 TRX of the system contract's fee.
		expect(await trxBalance(wallet(3).address)).toBe(before - 5_000_000n - 1_100_000n);
		const info = await node(nile, '/wallet/gettransactioninfobyid', { value: signed.txID });
		expect(info).toMatchObject({ fee: 1_100_000, receipt: { net_fee: 100_000 } });
		const stranger = mainnet.wallets[4];
		const fromNobody = await trxTransfer(stranger, wallet(0).address, 1, undefined, mainnet);
		const refused = await node(mainnet, '/wallet/broadcasttransaction', fromNobody);
		expect(refused.code).toBe('CONTRACT_VALIDATE_ERROR');
	});

	test("a memo burns the memo fee; once the day's free bandwidth is spent, an account that cannot pay for the bytes is refused with BANDWITH_ERROR", async () => {
		const builder = tronWeb(nile);
		const before = await trxBalance(wallet(2).address);
		const plain = await builder.transactionBuilder.sendTrx(
			wallet(3).address,
			1_000_000,
			wallet(2).address,
		);
		const withMemo = await builder.transactionBuilder.addUpdateData(plain, 'payout 42', 'utf8', {
			txLocal: true,
		});
		const signed = await builder.trx.sign(withMemo, wallet(2).privateKey);
		expect((await node(nile, '/wallet/broadcasttransaction', signed)).result).toBe(true);
		const info = await node(nile, '/wallet/gettransactioninfobyid', { value: signed.txID });
		expect(await trxBalance(wallet(2).address)).toBe(before - 1_000_000n - BigInt(info.fee));
		expect(BigInt(info.fee) - BigInt(info.receipt.net_fee ?? 0)).toBe(1_000_000n);
		// An account with 0.1 TRX: two transfers fit in its 600 free bytes, the third's bytes cost more than it has.
		const poor = mainnet.wallets[4];
		await node(
			mainnet,
			'/wallet/broadcasttransaction',
			await trxTransfer(mainnet.wallets[0], poor.address, 100_000, undefined, mainnet),
		);
		const answers = [];
		for (let index = 0; index < 3; index++) {
			const transfer = await trxTransfer(poor, mainnet.wallets[1].address, 1, undefined, mainnet);
			answers.push(
				(await node(mainnet, '/wallet/broadcasttransaction', transfer)).code ?? 'SUCCESS',
			);
		}
		expect(answers).toEqual(['SUCCESS', 'SUCCESS', 'BANDWITH_ERROR']);
	});

	test('the hex form (wallet/broadcasthex) is read as java-tron reads it', async () => {
		const signed = await trxTransfer(wallet(2), wallet(3).address, 1_000_000);
		const transaction = utils.transaction.txJsonToPb(signed);
		for (const signature of signed.signature)
			transaction.addSignature(Buffer.from(signature, 'hex'));
		const hex = Buffer.from(transaction.serializeBinary()).toString('hex');
		expect(await node(nile, '/wallet/broadcasthex', { transaction: hex })).toEqual({
			result: true,
			txid: signed.txID,
		});
	});
});

describe('USDT (TRC-20)', () => {
	test('a transfer moves 6-decimal USDT and burns energy at the energy fee: more to a first-time holder', async () => {
		const [from, holder, firstTime] = [wallet(0), wallet(1), wallet(4)];
		const trxBefore = await trxBalance(from.address);
		const toNewHolder = await usdtTransfer(from, firstTime.address, 1_500_000, 100_000_000);
		expect((await node(nile, '/wallet/broadcasttransaction', toNewHolder)).result).toBe(true);
		const toHolder = await usdtTransfer(from, holder.address, 2_000_000, 100_000_000);
		expect((await node(nile, '/wallet/broadcasttransaction', toHolder)).result).toBe(true);
		expect(await usdtBalance(firstTime.address)).toBe(1_500_000n);
		expect(await usdtBalance(holder.address)).toBe(10_002_000_000n);
		expect(await usdtBalance(from.address)).toBe(10_000_000_000n - 3_500_000n);
		const [first, second] = await Promise.all(
			[toNewHolder, toHolder].map((signed) =>
				node(nile, '/wallet/gettransactioninfobyid', { value: signed.txID }),
			),
		);
		expect(first.receipt).toMatchObject({
			energy_usage_total: 130_285,
			energy_fee: 13_028_500,
			result: 'SUCCESS',
		});
		expect(second.receipt).toMatchObject({
			energy_usage_total: 64_285,
			energy_fee: 6_428_500,
			result: 'SUCCESS',
		});
		expect(first.log[0].data).toBe((1_500_000).toString(16).padStart(64, '0'));
		expect(await trxBalance(from.address)).toBe(trxBefore - BigInt(first.fee) - BigInt(second.fee));
		const record = await get('/chain/gettransaction', {
			chainId: '1001',
			transactionHash: toHolder.txID,
		});
		expect(record.body.data).toMatchObject({
			transactionStatus: 'SUCCESS',
			to: { tronAddress: nile.usdt.address },
			value: '0',
		});
	});

	test('a fee limit too low for the energy lands as OUT_OF_ENERGY: no token moves, and the whole fee limit is burned', async () => {
		const [from, to] = [wallet(2), wallet(3)];
		const [trxBefore, usdtBefore] = [await trxBalance(from.address), await usdtBalance(to.address)];
		const signed = await usdtTransfer(from, to.address, 1_000_000, 1_000_000);
		// Accepted at broadcast, as java-tron accepts it: the failure is the contract's, inside the block.
		expect(await node(nile, '/wallet/broadcasttransaction', signed)).toEqual({
			result: true,
			txid: signed.txID,
		});
		expect(await usdtBalance(to.address)).toBe(usdtBefore);
		const info = await node(nile, '/wallet/gettransactioninfobyid', { value: signed.txID });
		expect(info).toMatchObject({
			result: 'FAILED',
			receipt: { energy_usage_total: 10_000, energy_fee: 1_000_000, result: 'OUT_OF_ENERGY' },
		});
		expect(info.log).toBeUndefined();
		expect(await trxBalance(from.address)).toBe(trxBefore - BigInt(info.fee));
		expect(BigInt(info.fee)).toBeGreaterThanOrEqual(1_000_000n);
		const onNode = await node(nile, '/wallet/gettransactionbyid', { value: signed.txID });
		expect(onNode.ret).toEqual([{ contractRet: 'OUT_OF_ENERGY' }]);
	});

	test('a transfer of more than the balance reverts, lands, and burns the energy it used', async () => {
		const from = wallet(4);
		await node(
			nile,
			'/wallet/broadcasttransaction',
			await trxTransfer(wallet(0), from.address, 50_000_000),
		);
		const signed = await usdtTransfer(from, wallet(0).address, 999_000_000, 100_000_000);
		expect((await node(nile, '/wallet/broadcasttransaction', signed)).result).toBe(true);
		const info = await node(nile, '/wallet/gettransactioninfobyid', { value: signed.txID });
		expect(info).toMatchObject({ result: 'FAILED', receipt: { result: 'REVERT' } });
		expect(info.receipt.energy_fee).toBeGreaterThan(0);
	});

	test("approve and increaseApproval set an allowance the spender takes with transferFrom; data past a call's arguments is ignored, as Solidity ignores it", async () => {
		const [owner, spender, payee] = [wallet(2), wallet(3), wallet(1)];
		const builder = tronWeb(nile);
		const callOf = async (
			from: TronWallet,
			selector: string,
			parameters: Array<{ type: string; value: unknown }>,
			trailing = '',
		) => {
			const encoded = utils.abi
				.encodeParams(
					parameters.map((parameter) => parameter.type),
					parameters.map((parameter) => parameter.value),
				)
				.slice(2);
			const { transaction } = await builder.transactionBuilder.triggerSmartContract(
				nile.usdt.address,
				selector,
				{ feeLimit: 20_000_000, txLocal: true, rawParameter: encoded + trailing },
				[],
				from.address,
			);
			const signed = await builder.trx.sign(transaction, from.privateKey);
			expect((await node(nile, '/wallet/broadcasttransaction', signed)).result).toBe(true);
			const info = await node(nile, '/wallet/gettransactioninfobyid', { value: signed.txID });
			return info.receipt.result as string;
		};
		const allowance = async () =>
			BigInt(
				`0x${
					(
						await builder.transactionBuilder.triggerConstantContract(
							nile.usdt.address,
							'allowance(address,address)',
							{},
							[
								{ type: 'address', value: owner.address },
								{ type: 'address', value: spender.address },
							],
							owner.address,
						)
					).constant_result[0]
				}`,
			);
		const spenderArgs = (amount: bigint) => [
			{ type: 'address', value: spender.address },
			{ type: 'uint256', value: amount.toString() },
		];
		const take = (amount: bigint) =>
			callOf(spender, 'transferFrom(address,address,uint256)', [
				{ type: 'address', value: owner.address },
				{ type: 'address', value: payee.address },
				{ type: 'uint256', value: amount.toString() },
			]);
		const [ownerBefore, payeeBefore] = [
			await usdtBalance(owner.address),
			await usdtBalance(payee.address),
		];

		expect(await take(1n)).toBe('REVERT');
		expect(await callOf(owner, 'approve(address,uint256)', spenderArgs(3_000_000n))).toBe(
			'SUCCESS',
		);
		expect(await callOf(owner, 'increaseApproval(address,uint256)', spenderArgs(2_000_000n))).toBe(
			'SUCCESS',
		);
		expect(await allowance()).toBe(5_000_000n);
		expect(await take(5_000_001n)).toBe('REVERT');
		expect(await take(4_000_000n)).toBe('SUCCESS');
		expect(await allowance()).toBe(1_000_000n);
		expect(await usdtBalance(payee.address)).toBe(payeeBefore + 4_000_000n);
		expect(await usdtBalance(owner.address)).toBe(ownerBefore - 4_000_000n);

		// An unlimited approval is not spent down; a transfer with a word after its arguments pays as one without.
		expect(await callOf(owner, 'approve(address,uint256)', spenderArgs(2n ** 256n - 1n))).toBe(
			'SUCCESS',
		);
		expect(await take(1_000_000n)).toBe('SUCCESS');
		expect(await allowance()).toBe(2n ** 256n - 1n);
		const trailing = 'ff'.repeat(32);
		expect(
			await callOf(
				owner,
				'transfer(address,uint256)',
				[
					{ type: 'address', value: payee.address },
					{ type: 'uint256', value: '7' },
				],
				trailing,
			),
		).toBe('SUCCESS');
		expect(await usdtBalance(payee.address)).toBe(payeeBefore + 5_000_007n);
	});
});

describe('faults', () => {
	test('a send answered 503, or dropped, after it was processed lands once; a retry is the same transaction and moves nothing again', async () => {
		const [from, to] = [wallet(1), wallet(3)];
		for (const [fault, answered] of [
			['serverError', 503],
			['reset', 'dropped'],
		] as const) {
			const toBefore = await trxBalance(to.address);
			const signed = await trxTransfer(from, to.address, 3_000_000);
			const send = () =>
				post('/chain/sendtransaction', { chainId: '1001', rawTransaction: base64Of(signed) });
			devnet.faults.failNext('/chain/sendtransaction', fault);
			expect(
				await send().then(
					({ status }) => status,
					() => 'dropped',
				),
			).toBe(answered);
			expect((await send()).body.data).toEqual({ transactionHash: signed.txID });
			expect(await trxBalance(to.address)).toBe(toBefore + 3_000_000n);
		}
	});

	test('a 429 is answered before the send is processed', async () => {
		const signed = await trxTransfer(wallet(1), wallet(3).address, 1_000_000);
		devnet.faults.failNext('/chain/sendtransaction', 'rateLimit');
		const limited = await post('/chain/sendtransaction', {
			chainId: '1001',
			rawTransaction: base64Of(signed),
		});
		expect(limited.status).toBe(429);
		expect(await node(nile, '/wallet/gettransactionbyid', { value: signed.txID })).toEqual({});
	});

	test("the stand-in's own HTTP API takes them too: a broadcast dropped or answered 503 after it was processed has landed (a rebroadcast is DUP_TRANSACTION_ERROR), a 429 was not processed", async () => {
		const [from, to] = [wallet(1), wallet(3)];
		const broadcastUrl = `${nile.rpcUrl}/wallet/broadcasttransaction`;
		for (const [fault, answered] of [
			['reset', 'dropped'],
			['serverError', 503],
		] as const) {
			const toBefore = await trxBalance(to.address);
			const signed = await trxTransfer(from, to.address, 2_000_000);
			devnet.faults.failNext(broadcastUrl, fault);
			expect(
				await call(broadcastUrl, undefined, { method: 'POST', body: signed }).then(
					({ status }) => status,
					() => 'dropped',
				),
			).toBe(answered);
			expect(devnet.faults.received.at(-1)).toMatchObject({
				path: broadcastUrl,
				fault,
				params: { txID: signed.txID },
			});
			expect(await node(nile, '/wallet/broadcasttransaction', signed)).toMatchObject({
				code: 'DUP_TRANSACTION_ERROR',
			});
			expect(await trxBalance(to.address)).toBe(toBefore + 2_000_000n);
		}
		const signed = await trxTransfer(from, to.address, 1_000_000);
		devnet.faults.failNext(broadcastUrl, 'rateLimit');
		const limited = await call(broadcastUrl, undefined, { method: 'POST', body: signed });
		expect(limited).toEqual({ status: 429, body: { message: 'Too Many Requests' } });
		expect(await node(nile, '/wallet/gettransactionbyid', { value: signed.txID })).toEqual({});
		// Named by URL: the same call on the other chain is not the one forced.
		devnet.faults.failNext(`${mainnet.rpcUrl}/wallet/getnowblock`, 'rateLimit');
		expect((await call(`${nile.rpcUrl}/wallet/getnowblock`, undefined)).status).toBe(200);
		expect((await call(`${mainnet.rpcUrl}/wallet/getnowblock`, undefined)).status).toBe(429);
	});

	test('cancelNext drops the forced faults no call drew, and only those of its path', async () => {
		const head = `${nile.rpcUrl}/wallet/getnowblock`;
		const account = `${nile.rpcUrl}/wallet/getaccount`;
		devnet.faults.failNext(head, 'rateLimit');
		devnet.faults.failNext(account, 'rateLimit');
		devnet.faults.failNext(head, 'serverError');
		expect(devnet.faults.cancelNext(head)).toBe(2);
		expect((await call(head, undefined)).status).toBe(200);
		expect((await call(account, undefined)).status).toBe(429);
	});

	test('shares and latency reach the Tron endpoints of the API and of the stand-in: every call delayed, 429s drawn on both', async () => {
		const slow = await startDevnet({
			faults: { latencyMs: 150, bareRateLimitShare: 0.5, seed: 5 },
		});
		try {
			const chain = slow.tron[1];
			const urls = [
				`${chain.rpcUrl}/wallet/getnowblock`,
				query(slow.baseUrl, '/chain/getbalance', {
					chainId: chain.chainId,
					address: chain.wallets[0].address,
				}),
			];
			for (const url of urls) {
				const statuses: number[] = [];
				for (let index = 0; index < 8; index++) {
					const started = Date.now();
					statuses.push((await call(url, slow.apiKey)).status);
					expect(Date.now() - started).toBeGreaterThanOrEqual(140);
				}
				expect(new Set(statuses)).toEqual(new Set([200, 429]));
			}
		} finally {
			await slow.stop();
		}
	});
});
