/** The devnet's Stellar chains (1500, 1501) through their Horizon subset and the gateway, with envelopes built and signed by @stellar/stellar-base. */
import {
	Account,
	Asset,
	type AuthFlag,
	AuthClawbackEnabledFlag,
	AuthRequiredFlag,
	AuthRevocableFlag,
	Claimant,
	Keypair,
	Memo,
	Operation,
	type Transaction,
	TransactionBuilder,
	xdr,
} from '@stellar/stellar-base';

import { type Devnet, type DevnetStellar, startDevnet } from '../../devnet';
import { stellarKeypairs } from '../../devnet/chains/stellar';
import { call, query } from './client';

let devnet: Devnet;
let mainnet: DevnetStellar;
let testnet: DevnetStellar;

const UNIT = 10_000_000n;
const get = (path: string, params: Record<string, string>) =>
	call(query(devnet.baseUrl, path, params), devnet.apiKey);
const post = (path: string, body: unknown) =>
	call(`${devnet.baseUrl}${path}`, devnet.apiKey, { method: 'POST', body });
const horizon = (chain: DevnetStellar, path: string) => call(`${chain.rpcUrl}${path}`, undefined);

async function horizonSubmit(chain: DevnetStellar, envelope: string) {
	const response = await fetch(`${chain.rpcUrl}/transactions`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ tx: envelope }).toString(),
	});
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	return { status: response.status, body: (await response.json()) as any };
}

async function accountOf(chain: DevnetStellar, id: string) {
	const { status, body } = await horizon(chain, `/accounts/${id}`);
	if (status !== 200) throw new Error(`no account ${id}`);
	return body;
}

const nativeBalance = async (chain: DevnetStellar, id: string) =>
	stroops(
		(await accountOf(chain, id)).balances.find(
			(b: { asset_type: string }) => b.asset_type === 'native',
		).balance,
	);

async function assetBalance(chain: DevnetStellar, id: string, code: string, issuer: string) {
	const line = (await accountOf(chain, id)).balances.find(
		(b: { asset_code?: string; asset_issuer?: string }) =>
			b.asset_code === code && b.asset_issuer === issuer,
	);
	return line ? stroops(line.balance) : undefined;
}

function stroops(amount: string): bigint {
	const [whole, fraction] = amount.split('.');
	return BigInt(whole) * UNIT + BigInt(fraction.padEnd(7, '0'));
}

interface BuildOptions {
	memo?: Memo;
	sequence?: string;
	timebounds?: { minTime: number; maxTime: number };
	passphrase?: string;
	signers?: Keypair[];
}

/** An envelope from `source` with its next sequence (as Horizon gives it), signed by `signers` (the source by default). */
async function build(
	chain: DevnetStellar,
	source: Keypair,
	operations: xdr.Operation[],
	options: BuildOptions = {},
): Promise<Transaction> {
	const sequence = options.sequence ?? (await accountOf(chain, source.publicKey())).sequence;
	const builder = new TransactionBuilder(new Account(source.publicKey(), sequence), {
		fee: '100',
		networkPassphrase: options.passphrase ?? chain.passphrase,
		...(options.timebounds ? { timebounds: options.timebounds } : {}),
	});
	operations.forEach((operation) => builder.addOperation(operation));
	if (options.memo) builder.addMemo(options.memo);
	if (!options.timebounds) builder.setTimeout(300);
	const transaction = builder.build();
	(options.signers ?? [source]).forEach((signer) => transaction.sign(signer));
	return transaction;
}

const keypairOf = (chain: DevnetStellar, index: number) =>
	Keypair.fromSecret(chain.wallets[index].secret);
const usdcOf = (chain: DevnetStellar) => new Asset('USDC', chain.usdc.issuer);
const rwaOf = (chain: DevnetStellar) => new Asset('RWA1', chain.rwa.issuer);

/** A new account funded with `xlm` by wallet 0, so a test may change its signers or trustlines freely. */
async function freshAccount(chain: DevnetStellar, xlm = '100'): Promise<Keypair> {
	const keypair = Keypair.random();
	const funding = await build(chain, keypairOf(chain, 0), [
		Operation.createAccount({ destination: keypair.publicKey(), startingBalance: xlm }),
	]);
	expect((await horizonSubmit(chain, funding.toXDR())).status).toBe(200);
	return keypair;
}

beforeAll(async () => {
	devnet = await startDevnet();
	[mainnet, testnet] = devnet.stellar;
});
afterAll(async () => {
	await devnet.stop();
});

describe('fixtures and reads', () => {
	test("SEP-0005's published vector: the 12-word mnemonic's account 0 and 1", () => {
		const [first, second] = stellarKeypairs(
			'illness spike retreat truth genius clock brain pass fit cave bargain toe',
			2,
		);
		expect(first.publicKey()).toBe('GDRXE2BQUC3AZNPVFSCEZ76NJ3WWL25FYFK6RGZGIEKWE4SOOHSUJUJ6');
		expect(first.secret()).toBe('SBGWSG6BTNCKCOB3DIFBGCVMUPQFYPA2G4O34RMTB343OYPXU5DJDVMN');
		expect(second.publicKey()).toBe('GBAW5XGWORWVFE2XTJYDTLDHXTY2Q2MO73HYCGB3XMFMQ562Q2W2GJQX');
	});

	test("chains 1500 and 1501: wallets of m/44'/148'/i' (i = 0-3) with 10,000 XLM and 100,000 USDC; RWA1's issuer is wallet 3 with auth_required and auth_revocable", async () => {
		const keys = stellarKeypairs(devnet.solana.mnemonic, 4);
		expect(devnet.stellar.map((chain) => [chain.chainId, chain.symbol, chain.passphrase])).toEqual([
			['1500', 'XLM', 'Public Global Stellar Network ; September 2015'],
			['1501', 'TXLM', 'Test SDF Network ; September 2015'],
		]);
		for (const chain of devnet.stellar) {
			expect(chain.wallets.map((wallet) => wallet.publicKey)).toEqual(
				keys.map((key) => key.publicKey()),
			);
			expect(chain.usdc).toMatchObject({
				code: 'USDC',
				decimals: 7,
				asset: `USDC:${chain.usdc.issuer}`,
			});
			expect(Keypair.fromSecret(chain.usdc.issuerSecret).publicKey()).toBe(chain.usdc.issuer);
			expect(chain.rwa).toEqual({
				code: 'RWA1',
				issuer: keys[3].publicKey(),
				asset: `RWA1:${keys[3].publicKey()}`,
				decimals: 7,
			});
			const account = await accountOf(chain, keys[2].publicKey());
			expect(account).toMatchObject({
				id: keys[2].publicKey(),
				thresholds: { low_threshold: 0, med_threshold: 0, high_threshold: 0 },
				signers: [{ key: keys[2].publicKey(), weight: 1, type: 'ed25519_public_key' }],
				num_subentries: 1,
			});
			expect(account.balances).toEqual(
				expect.arrayContaining([
					expect.objectContaining({
						asset_type: 'credit_alphanum4',
						asset_code: 'USDC',
						asset_issuer: chain.usdc.issuer,
						balance: '100000.0000000',
						is_authorized: true,
					}),
				]),
			);
			expect((await accountOf(chain, chain.rwa.issuer)).flags).toEqual({
				auth_required: true,
				auth_revocable: true,
				auth_immutable: false,
				auth_clawback_enabled: false,
			});
			expect((await accountOf(chain, chain.usdc.issuer)).flags.auth_required).toBe(false);
		}
	});

	test("Horizon's root names the chain's passphrase; the latest ledger carries the base fee and reserve; an unknown account is 404", async () => {
		for (const chain of devnet.stellar) {
			const root = await horizon(chain, '/');
			expect(root.body.network_passphrase).toBe(chain.passphrase);
			const { body } = await horizon(chain, '/ledgers?order=desc&limit=1');
			expect(body._embedded.records).toHaveLength(1);
			expect(body._embedded.records[0]).toMatchObject({
				sequence: root.body.history_latest_ledger,
				base_fee_in_stroops: 100,
				base_reserve_in_stroops: 5_000_000,
			});
			const missing = await horizon(chain, `/accounts/${Keypair.random().publicKey()}`);
			expect(missing).toMatchObject({
				status: 404,
				body: { status: 404, title: 'Resource Missing' },
			});
		}
	});
});

describe('what stellar-core applies', () => {
	test('a payment moves XLM and USDC, charges 100 stroops per operation, and its text memo is read back', async () => {
		const [from, to] = [keypairOf(testnet, 0), keypairOf(testnet, 1)];
		const before = {
			fromXlm: await nativeBalance(testnet, from.publicKey()),
			toXlm: await nativeBalance(testnet, to.publicKey()),
			fromUsdc: await assetBalance(testnet, from.publicKey(), 'USDC', testnet.usdc.issuer),
			toUsdc: await assetBalance(testnet, to.publicKey(), 'USDC', testnet.usdc.issuer),
		};
		const transaction = await build(
			testnet,
			from,
			[
				Operation.payment({ destination: to.publicKey(), asset: Asset.native(), amount: '2.5' }),
				Operation.payment({
					destination: to.publicKey(),
					asset: usdcOf(testnet),
					amount: '12.3456789',
				}),
			],
			{ memo: Memo.text('payout 42') },
		);
		const { status, body } = await horizonSubmit(testnet, transaction.toXDR());
		expect(status).toBe(200);
		expect(body).toMatchObject({
			successful: true,
			hash: transaction.hash().toString('hex'),
			fee_charged: '200',
		});
		expect(await nativeBalance(testnet, from.publicKey())).toBe(
			before.fromXlm - 25_000_000n - 200n,
		);
		expect(await nativeBalance(testnet, to.publicKey())).toBe(before.toXlm + 25_000_000n);
		expect(await assetBalance(testnet, from.publicKey(), 'USDC', testnet.usdc.issuer)).toBe(
			(before.fromUsdc ?? 0n) - 123_456_789n,
		);
		expect(await assetBalance(testnet, to.publicKey(), 'USDC', testnet.usdc.issuer)).toBe(
			(before.toUsdc ?? 0n) + 123_456_789n,
		);
		const record = await horizon(testnet, `/transactions/${body.hash}`);
		expect(record.body).toMatchObject({
			hash: body.hash,
			successful: true,
			source_account: from.publicKey(),
			fee_charged: '200',
			max_fee: '200',
			operation_count: 2,
			memo_type: 'text',
			memo: 'payout 42',
			envelope_xdr: transaction.toXDR(),
		});
		expect(
			xdr.TransactionResult.fromXDR(record.body.result_xdr, 'base64').result().switch().name,
		).toBe('txSuccess');
	});

	test('an ID memo and a muxed destination: the payment reaches the base account and the memo reads back', async () => {
		const [from, to] = [keypairOf(testnet, 1), keypairOf(testnet, 2)];
		const before = await nativeBalance(testnet, to.publicKey());
		const muxed = new (await import('@stellar/stellar-base')).MuxedAccount(
			new Account(to.publicKey(), '0'),
			'7',
		);
		const transaction = await build(
			testnet,
			from,
			[Operation.payment({ destination: muxed.accountId(), asset: Asset.native(), amount: '1' })],
			{
				memo: Memo.id('18446744073709551615'),
			},
		);
		expect((await horizonSubmit(testnet, transaction.toXDR())).status).toBe(200);
		expect(await nativeBalance(testnet, to.publicKey())).toBe(before + UNIT);
		const record = await horizon(testnet, `/transactions/${transaction.hash().toString('hex')}`);
		expect(record.body).toMatchObject({ memo_type: 'id', memo: '18446744073709551615' });
	});

	test("a sequence other than the account's + 1 is tx_bad_seq, and changes nothing", async () => {
		const from = keypairOf(testnet, 0);
		const account = await accountOf(testnet, from.publicKey());
		const ahead = (BigInt(account.sequence) + 1n).toString();
		const transaction = await build(
			testnet,
			from,
			[
				Operation.payment({
					destination: keypairOf(testnet, 1).publicKey(),
					asset: Asset.native(),
					amount: '1',
				}),
			],
			{ sequence: ahead },
		);
		const { status, body } = await horizonSubmit(testnet, transaction.toXDR());
		expect(status).toBe(400);
		expect(body).toMatchObject({
			type: 'https://stellar.org/horizon-errors/transaction_failed',
			extras: { result_codes: { transaction: 'tx_bad_seq' } },
		});
		expect(await accountOf(testnet, from.publicKey())).toMatchObject({
			sequence: account.sequence,
			balances: account.balances,
		});
		expect(
			(await horizon(testnet, `/transactions/${transaction.hash().toString('hex')}`)).status,
		).toBe(404);
	});

	test('time bounds by the chain clock: tx_too_early before minTime, tx_too_late once advance() passes maxTime', async () => {
		const from = keypairOf(testnet, 0);
		const now = testnet.chain.now;
		const payment = Operation.payment({
			destination: keypairOf(testnet, 1).publicKey(),
			asset: Asset.native(),
			amount: '1',
		});
		const early = await build(testnet, from, [payment], {
			timebounds: { minTime: now + 60, maxTime: now + 120 },
		});
		expect((await horizonSubmit(testnet, early.toXDR())).body.extras.result_codes).toEqual({
			transaction: 'tx_too_early',
		});
		const late = await build(testnet, from, [payment], {
			timebounds: { minTime: 0, maxTime: now + 30 },
		});
		testnet.chain.advance(31);
		expect((await horizonSubmit(testnet, late.toXDR())).body.extras.result_codes).toEqual({
			transaction: 'tx_too_late',
		});
		// The latest ledger follows the chain's clock, as a live network closes one every 5 s.
		const { body } = await horizon(testnet, '/ledgers?order=desc&limit=1');
		const closedAt = Date.parse(body._embedded.records[0].closed_at) / 1000;
		expect(closedAt).toBeGreaterThanOrEqual(now + 31);
	});

	test('signer weights against thresholds: a payment under the medium threshold is refused (op_bad_auth), both signers pass it', async () => {
		const account = await freshAccount(testnet);
		const cosigner = Keypair.random();
		const setup = await build(testnet, account, [
			Operation.setOptions({
				signer: { ed25519PublicKey: cosigner.publicKey(), weight: 1 },
				medThreshold: 2,
				highThreshold: 2,
				lowThreshold: 1,
			}),
		]);
		expect((await horizonSubmit(testnet, setup.toXDR())).status).toBe(200);
		expect((await accountOf(testnet, account.publicKey())).signers).toEqual(
			expect.arrayContaining([
				{ key: cosigner.publicKey(), weight: 1, type: 'ed25519_public_key' },
			]),
		);
		const payment = Operation.payment({
			destination: keypairOf(testnet, 1).publicKey(),
			asset: Asset.native(),
			amount: '1',
		});
		const single = await build(testnet, account, [payment]);
		const refused = await horizonSubmit(testnet, single.toXDR());
		expect(refused.body.extras.result_codes).toEqual({
			transaction: 'tx_failed',
			operations: ['op_bad_auth'],
		});
		const both = await build(testnet, account, [payment], { signers: [account, cosigner] });
		expect((await horizonSubmit(testnet, both.toXDR())).status).toBe(200);
		// Changing signers needs the high threshold (2): the master key alone is tx_failed op_bad_auth too.
		const removal = await build(testnet, account, [
			Operation.setOptions({ signer: { ed25519PublicKey: cosigner.publicKey(), weight: 0 } }),
		]);
		expect(
			(await horizonSubmit(testnet, removal.toXDR())).body.extras.result_codes.operations,
		).toEqual(['op_bad_auth']);
		// A signature of a key that is no signer: tx_bad_auth_extra.
		const extra = await build(testnet, account, [payment], {
			signers: [account, cosigner, Keypair.random()],
		});
		expect((await horizonSubmit(testnet, extra.toXDR())).body.extras.result_codes).toEqual({
			transaction: 'tx_bad_auth_extra',
		});
		// Under the low threshold the transaction itself is tx_bad_auth.
		const stranger = await build(testnet, account, [payment], { signers: [Keypair.random()] });
		expect((await horizonSubmit(testnet, stranger.toXDR())).body.extras.result_codes).toEqual({
			transaction: 'tx_bad_auth',
		});
	});

	test('no trustline: op_no_trust fails the whole transaction (its XLM payment undone), the fee is charged and the sequence consumed', async () => {
		const account = await freshAccount(testnet);
		const from = keypairOf(testnet, 0);
		const before = {
			xlm: await nativeBalance(testnet, from.publicKey()),
			sequence: BigInt((await accountOf(testnet, from.publicKey())).sequence),
		};
		const transaction = await build(testnet, from, [
			Operation.payment({ destination: account.publicKey(), asset: Asset.native(), amount: '5' }),
			Operation.payment({ destination: account.publicKey(), asset: usdcOf(testnet), amount: '5' }),
		]);
		const { status, body } = await horizonSubmit(testnet, transaction.toXDR());
		expect(status).toBe(400);
		expect(body.extras.result_codes).toEqual({
			transaction: 'tx_failed',
			operations: ['op_success', 'op_no_trust'],
		});
		expect(await nativeBalance(testnet, from.publicKey())).toBe(before.xlm - 200n);
		expect(BigInt((await accountOf(testnet, from.publicKey())).sequence)).toBe(
			before.sequence + 1n,
		);
		expect(await nativeBalance(testnet, account.publicKey())).toBe(100n * UNIT);
		const record = await horizon(testnet, `/transactions/${transaction.hash().toString('hex')}`);
		expect(record.body).toMatchObject({ successful: false, fee_charged: '200' });
		// With a trustline under its limit: op_line_full above it, then the payment lands.
		const trust = await build(testnet, account, [
			Operation.changeTrust({ asset: usdcOf(testnet), limit: '3' }),
		]);
		expect((await horizonSubmit(testnet, trust.toXDR())).status).toBe(200);
		const over = await build(testnet, from, [
			Operation.payment({ destination: account.publicKey(), asset: usdcOf(testnet), amount: '5' }),
		]);
		expect(
			(await horizonSubmit(testnet, over.toXDR())).body.extras.result_codes.operations,
		).toEqual(['op_line_full']);
		const within = await build(testnet, from, [
			Operation.payment({ destination: account.publicKey(), asset: usdcOf(testnet), amount: '3' }),
		]);
		expect((await horizonSubmit(testnet, within.toXDR())).status).toBe(200);
	});

	test('the base reserve: op_underfunded past it, op_low_reserve for a trustline it cannot cover, createAccount under 1 XLM', async () => {
		const account = await freshAccount(testnet, '1.0000300');
		const payment = await build(testnet, account, [
			Operation.payment({
				destination: keypairOf(testnet, 0).publicKey(),
				asset: Asset.native(),
				amount: '0.0001',
			}),
		]);
		expect(
			(await horizonSubmit(testnet, payment.toXDR())).body.extras.result_codes.operations,
		).toEqual(['op_underfunded']);
		const trust = await build(testnet, account, [
			Operation.changeTrust({ asset: usdcOf(testnet) }),
		]);
		expect(
			(await horizonSubmit(testnet, trust.toXDR())).body.extras.result_codes.operations,
		).toEqual(['op_low_reserve']);
		const create = await build(testnet, keypairOf(testnet, 0), [
			Operation.createAccount({
				destination: Keypair.random().publicKey(),
				startingBalance: '0.9',
			}),
		]);
		expect(
			(await horizonSubmit(testnet, create.toXDR())).body.extras.result_codes.operations,
		).toEqual(['op_low_reserve']);
	});

	test('a fee bump applies its inner transaction once; the fee source pays (ops + 1) × 100; both hashes find it', async () => {
		const [source, feeSource, to] = [
			keypairOf(testnet, 1),
			keypairOf(testnet, 2),
			keypairOf(testnet, 0),
		];
		const inner = await build(testnet, source, [
			Operation.payment({ destination: to.publicKey(), asset: Asset.native(), amount: '3' }),
		]);
		const before = {
			source: await nativeBalance(testnet, source.publicKey()),
			fee: await nativeBalance(testnet, feeSource.publicKey()),
		};
		// The fee bump's base fee is per operation, the bump counting as one: 200 × 2 = a 400-stroop fee.
		const bump = TransactionBuilder.buildFeeBumpTransaction(
			feeSource,
			'200',
			inner,
			testnet.passphrase,
		);
		bump.sign(feeSource);
		const { status, body } = await horizonSubmit(testnet, bump.toXDR());
		expect(status).toBe(200);
		expect(body).toMatchObject({
			hash: bump.hash().toString('hex'),
			fee_charged: '200',
			fee_account: feeSource.publicKey(),
			max_fee: '400',
		});
		expect(await nativeBalance(testnet, source.publicKey())).toBe(before.source - 3n * UNIT);
		expect(await nativeBalance(testnet, feeSource.publicKey())).toBe(before.fee - 200n);
		for (const hash of [bump.hash(), inner.hash()].map((bytes) => bytes.toString('hex'))) {
			const record = await horizon(testnet, `/transactions/${hash}`);
			expect(record.body).toMatchObject({
				hash,
				successful: true,
				fee_bump_transaction: { hash: bump.hash().toString('hex') },
				inner_transaction: { hash: inner.hash().toString('hex'), max_fee: '100' },
			});
		}
		// Another fee bump of the same inner transaction cannot apply it again.
		const again = TransactionBuilder.buildFeeBumpTransaction(
			feeSource,
			'1000',
			inner,
			testnet.passphrase,
		);
		again.sign(feeSource);
		expect((await horizonSubmit(testnet, again.toXDR())).body.extras.result_codes).toEqual({
			transaction: 'tx_fee_bump_inner_failed',
			inner_transaction: 'tx_bad_seq',
		});
		expect(await nativeBalance(testnet, source.publicKey())).toBe(before.source - 3n * UNIT);
	});

	test('passphrase binding: an envelope signed for 1501 is tx_bad_auth on 1500', async () => {
		const from = keypairOf(mainnet, 0);
		const sequence = (await accountOf(mainnet, from.publicKey())).sequence;
		const payment = Operation.payment({
			destination: keypairOf(mainnet, 1).publicKey(),
			asset: Asset.native(),
			amount: '1',
		});
		const forTestnet = await build(mainnet, from, [payment], {
			sequence,
			passphrase: testnet.passphrase,
		});
		expect((await horizonSubmit(mainnet, forTestnet.toXDR())).body.extras.result_codes).toEqual({
			transaction: 'tx_bad_auth',
		});
		const forMainnet = await build(mainnet, from, [payment], { sequence });
		expect((await horizonSubmit(mainnet, forMainnet.toXDR())).status).toBe(200);
	});

	test('faults reach Horizon by URL: a 429 is answered before the envelope is applied', async () => {
		const from = keypairOf(testnet, 3);
		const sequence = (await accountOf(testnet, from.publicKey())).sequence;
		const transaction = await build(testnet, from, [Operation.bumpSequence({ bumpTo: '0' })]);
		const url = `${testnet.rpcUrl}/transactions`;
		devnet.faults.failNext(url, 'rateLimit');
		expect((await horizonSubmit(testnet, transaction.toXDR())).status).toBe(429);
		expect((await accountOf(testnet, from.publicKey())).sequence).toBe(sequence);
		expect((await horizonSubmit(testnet, transaction.toXDR())).status).toBe(200);
		expect(devnet.faults.received.at(-1)).toMatchObject({
			path: url,
			params: { tx: transaction.toXDR() },
		});
	});
});

describe("the API's Stellar endpoints", () => {
	const signed = (chain: DevnetStellar, data: string, signer: Keypair) => {
		const transaction = TransactionBuilder.fromXDR(data, chain.passphrase) as Transaction;
		transaction.sign(signer);
		return transaction;
	};
	const send = async (chain: DevnetStellar, transaction: Transaction) => {
		const { status, body } = await post('/chain/sendtransaction', {
			chainId: chain.chainId,
			rawTransaction: transaction.toXDR(),
		});
		expect(status).toBe(200);
		expect(body.data).toEqual({
			chainId: chain.chainId,
			transactionHash: transaction.hash().toString('hex'),
		});
		return (
			await get('/chain/gettransaction', {
				chainId: chain.chainId,
				transactionHash: body.data.transactionHash,
			})
		).body.data;
	};
	const rwaBalance = async (chain: DevnetStellar, address: string) =>
		(
			await get('/chain/getbalance', {
				chainId: chain.chainId,
				address,
				assetCode: 'RWA1',
				issuer: chain.rwa.issuer,
			})
		).body.data.balance;

	test('getbalance in stroops (XLM, or an asset by code and issuer), getpublicrpc, and a bad address', async () => {
		for (const chain of devnet.stellar) {
			const address = chain.wallets[1].publicKey;
			const xlm = await get('/chain/getbalance', { chainId: chain.chainId, address });
			expect(xlm.body.data.balance).toBe((await nativeBalance(chain, address)).toString());
			const usdc = await get('/chain/getbalance', {
				chainSymbol: chain.symbol,
				address,
				assetCode: 'USDC',
				issuer: chain.usdc.issuer,
			});
			expect(usdc.body.data).toEqual({
				assetCode: 'USDC',
				issuer: chain.usdc.issuer,
				balance: (await assetBalance(chain, address, 'USDC', chain.usdc.issuer))?.toString(),
			});
			expect((await get('/chain/getpublicrpc', { chainId: chain.chainId })).body.data).toEqual({
				rpc: chain.rpcUrl,
			});
			expect(
				(await get('/chain/getbalance', { chainId: chain.chainId, address: 'GBAD' })).body,
			).toEqual({
				status: 400,
				msg: 'failed to query',
				data: { message: 'Invalid User Address', code: 400 },
			});
		}
		expect(
			(await post('/rwa/freeze', { chainId: '31337', user: 'a', issuer: 'b', assetCode: 'C' })).body
				.data,
		).toMatchObject({ message: 'Given function is not applicable' });
		expect(
			(await post('/rwa/issue', { chainId: '1501', assetCode: 'RWA1', amount: '1', to: 'x' })).body
				.data,
		).toEqual({ valid: false, message: { missingProperty: 'issuer' }, code: 400 });
	});

	test('RWA round trip: settrustline, issue (refused until the issuer authorises), transfer, freeze, burn, each envelope built by the API and signed here', async () => {
		const chain = testnet;
		const [issuer, holder, other] = [keypairOf(chain, 3), keypairOf(chain, 1), keypairOf(chain, 2)];
		const unsigned = async (path: string, body: Record<string, string>) => {
			const { status, body: answer } = await post(path, {
				chainId: chain.chainId,
				assetCode: 'RWA1',
				issuer: issuer.publicKey(),
				...body,
			});
			expect(status).toBe(200);
			expect(answer.data).toMatchObject({ chainId: chain.chainId, gas: '100' });
			const decoded = TransactionBuilder.fromXDR(answer.data.data, chain.passphrase) as Transaction;
			expect(decoded.source).toBe(answer.data.from);
			expect(BigInt(decoded.timeBounds?.maxTime ?? 0)).toBeGreaterThan(BigInt(chain.chain.now));
			return answer.data.data as string;
		};
		for (const account of [holder, other]) {
			const trust = signed(
				chain,
				await unsigned('/rwa/settrustline', { from: account.publicKey(), amount: '1000' }),
				account,
			);
			expect(await send(chain, trust)).toMatchObject({
				transactionStatus: true,
				from: account.publicKey(),
			});
		}
		const early = signed(
			chain,
			await unsigned('/rwa/issue', { to: holder.publicKey(), amount: '100' }),
			issuer,
		);
		expect(await send(chain, early)).toMatchObject({ transactionStatus: false });
		expect(
			(await horizon(chain, `/transactions/${early.hash().toString('hex')}`)).body.successful,
		).toBe(false);
		// The issuer authorises both trustlines (no API endpoint does; a setTrustLineFlags signed here).
		const authorise = await build(
			chain,
			issuer,
			[holder, other].map((account) =>
				Operation.setTrustLineFlags({
					trustor: account.publicKey(),
					asset: rwaOf(chain),
					flags: { authorized: true },
				}),
			),
		);
		expect((await horizonSubmit(chain, authorise.toXDR())).status).toBe(200);
		const issued = signed(
			chain,
			await unsigned('/rwa/issue', { to: holder.publicKey(), amount: '100' }),
			issuer,
		);
		expect(await send(chain, issued)).toMatchObject({ transactionStatus: true });
		expect(await rwaBalance(chain, holder.publicKey())).toBe((100n * UNIT).toString());
		const moved = signed(
			chain,
			await unsigned('/rwa/transfer', {
				from: holder.publicKey(),
				to: other.publicKey(),
				amount: '40',
			}),
			holder,
		);
		expect(await send(chain, moved)).toMatchObject({ transactionStatus: true });
		expect(await rwaBalance(chain, other.publicKey())).toBe((40n * UNIT).toString());
		const frozen = signed(
			chain,
			await unsigned('/rwa/freeze', { user: holder.publicKey() }),
			issuer,
		);
		expect(await send(chain, frozen)).toMatchObject({ transactionStatus: true });
		expect(await assetBalance(chain, holder.publicKey(), 'RWA1', issuer.publicKey())).toBe(
			60n * UNIT,
		);
		const blocked = signed(
			chain,
			await unsigned('/rwa/transfer', {
				from: holder.publicKey(),
				to: other.publicKey(),
				amount: '1',
			}),
			holder,
		);
		expect(await send(chain, blocked)).toMatchObject({ transactionStatus: false });
		const record = await horizon(chain, `/transactions/${blocked.hash().toString('hex')}`);
		expect(record.body.successful).toBe(false);
		const burned = signed(
			chain,
			await unsigned('/rwa/burn', { from: other.publicKey(), amount: '15' }),
			other,
		);
		expect(await send(chain, burned)).toMatchObject({ transactionStatus: true });
		expect(await rwaBalance(chain, other.publicKey())).toBe((25n * UNIT).toString());
	});

	test('sendtransaction answers the hash of a refused envelope too; one that does not decode is "execution reverted"', async () => {
		const from = keypairOf(mainnet, 2);
		const stale = await build(
			mainnet,
			from,
			[
				Operation.payment({
					destination: keypairOf(mainnet, 0).publicKey(),
					asset: Asset.native(),
					amount: '1',
				}),
			],
			{ sequence: '1' },
		);
		const refused = await post('/chain/sendtransaction', {
			chainId: '1500',
			rawTransaction: stale.toXDR(),
		});
		expect(refused.body.data).toEqual({
			chainId: '1500',
			transactionHash: stale.hash().toString('hex'),
		});
		expect(
			(
				await get('/chain/gettransaction', {
					chainId: '1500',
					transactionHash: stale.hash().toString('hex'),
				})
			).body.data,
		).toEqual({
			message: 'The transactionHash Provided Is Incorrect',
			code: 400,
		});
		const garbage = await post('/chain/sendtransaction', {
			chainId: '1500',
			rawTransaction: 'AAAA',
		});
		expect(garbage.body.data).toEqual({
			message: 'Error: Returned error: execution reverted',
			code: 400,
		});
	});

	test('SDEX swap (dexId 2401): a pathPaymentStrictSend from `from` to itself, with a trustline first; the stand-in has no offers (op_too_few_offers)', async () => {
		const account = await freshAccount(testnet, '50');
		const { status, body } = await post('/dex/swap', {
			dexId: '2401',
			from: account.publicKey(),
			path: ['XLM', `USDC:${testnet.usdc.issuer}`],
			amountIn: '10000000',
			amountOutMin: '5000000',
		});
		expect(status).toBe(200);
		const transaction = TransactionBuilder.fromXDR(
			body.data.data,
			testnet.passphrase,
		) as Transaction;
		expect(transaction.operations.map((operation) => operation.type)).toEqual([
			'changeTrust',
			'pathPaymentStrictSend',
		]);
		expect(transaction.operations[1]).toMatchObject({
			sendAmount: '1.0000000',
			destMin: '0.5000000',
			destination: account.publicKey(),
		});
		transaction.sign(account);
		const result = await horizonSubmit(testnet, transaction.toXDR());
		expect(result.body.extras.result_codes).toEqual({
			transaction: 'tx_failed',
			operations: ['op_success', 'op_too_few_offers'],
		});
	});

	test('an account with auth_required issues to a new trustline only once authorised (op_not_authorized before)', async () => {
		const issuer = await freshAccount(testnet);
		const holder = await freshAccount(testnet);
		const asset = new Asset('GOLD', issuer.publicKey());
		const flags = await build(testnet, issuer, [
			Operation.setOptions({ setFlags: AuthRequiredFlag }),
		]);
		expect((await horizonSubmit(testnet, flags.toXDR())).status).toBe(200);
		const trust = await build(testnet, holder, [Operation.changeTrust({ asset })]);
		expect((await horizonSubmit(testnet, trust.toXDR())).status).toBe(200);
		const pay = Operation.payment({ destination: holder.publicKey(), asset, amount: '10' });
		const refused = await build(testnet, issuer, [pay]);
		expect(
			(await horizonSubmit(testnet, refused.toXDR())).body.extras.result_codes.operations,
		).toEqual(['op_not_authorized']);
		const allowed = await build(testnet, issuer, [
			Operation.allowTrust({ trustor: holder.publicKey(), assetCode: 'GOLD', authorize: 1 }),
			pay,
		]);
		expect((await horizonSubmit(testnet, allowed.toXDR())).status).toBe(200);
		// Revoking needs auth_revocable, which this issuer does not have.
		const revoke = await build(testnet, issuer, [
			Operation.allowTrust({ trustor: holder.publicKey(), assetCode: 'GOLD', authorize: 0 }),
		]);
		expect(
			(await horizonSubmit(testnet, revoke.toXDR())).body.extras.result_codes.operations,
		).toEqual(['op_cant_revoke']);
	});

	test('offers are recorded without matching (a subentry each, deleted at amount 0); a claimable balance takes its amount; clawback takes from a clawback-enabled trustline', async () => {
		const issuer = await freshAccount(testnet);
		const holder = await freshAccount(testnet);
		const asset = new Asset('CLAW', issuer.publicKey());
		const flags = await build(testnet, issuer, [
			Operation.setOptions({ setFlags: (AuthRevocableFlag | AuthClawbackEnabledFlag) as AuthFlag }),
		]);
		expect((await horizonSubmit(testnet, flags.toXDR())).status).toBe(200);
		const trust = await build(testnet, holder, [Operation.changeTrust({ asset })]);
		expect((await horizonSubmit(testnet, trust.toXDR())).status).toBe(200);
		const issue = await build(testnet, issuer, [
			Operation.payment({ destination: holder.publicKey(), asset, amount: '50' }),
		]);
		expect((await horizonSubmit(testnet, issue.toXDR())).status).toBe(200);
		const line = (await accountOf(testnet, holder.publicKey())).balances[0];
		expect(line).toMatchObject({
			asset_code: 'CLAW',
			balance: '50.0000000',
			is_clawback_enabled: true,
		});

		const offer = await build(testnet, holder, [
			Operation.manageSellOffer({
				selling: asset,
				buying: Asset.native(),
				amount: '10',
				price: '2',
			}),
		]);
		const created = await horizonSubmit(testnet, offer.toXDR());
		expect(created.status).toBe(200);
		const offerResult = xdr.TransactionResult.fromXDR(created.body.result_xdr, 'base64')
			.result()
			.results()[0]
			.tr()
			.manageSellOfferResult()
			.success()
			.offer();
		expect(offerResult.switch().name).toBe('manageOfferCreated');
		const offerId = offerResult.offer().offerId().toString();
		expect((await accountOf(testnet, holder.publicKey())).num_subentries).toBe(2);
		expect(await assetBalance(testnet, holder.publicKey(), 'CLAW', issuer.publicKey())).toBe(
			50n * UNIT,
		);
		const tooMuch = await build(testnet, holder, [
			Operation.manageSellOffer({
				selling: asset,
				buying: Asset.native(),
				amount: '60',
				price: '2',
			}),
		]);
		expect(
			(await horizonSubmit(testnet, tooMuch.toXDR())).body.extras.result_codes.operations,
		).toEqual(['op_underfunded']);
		const removal = await build(testnet, holder, [
			Operation.manageSellOffer({
				selling: asset,
				buying: Asset.native(),
				amount: '0',
				price: '2',
				offerId,
			}),
		]);
		expect((await horizonSubmit(testnet, removal.toXDR())).status).toBe(200);
		expect((await accountOf(testnet, holder.publicKey())).num_subentries).toBe(1);

		const claimable = await build(testnet, holder, [
			Operation.createClaimableBalance({
				asset,
				amount: '5',
				claimants: [new Claimant(issuer.publicKey(), Claimant.predicateUnconditional())],
			}),
		]);
		expect((await horizonSubmit(testnet, claimable.toXDR())).status).toBe(200);
		expect(await assetBalance(testnet, holder.publicKey(), 'CLAW', issuer.publicKey())).toBe(
			45n * UNIT,
		);

		const clawback = await build(testnet, issuer, [
			Operation.clawback({ asset, from: holder.publicKey(), amount: '45' }),
		]);
		expect((await horizonSubmit(testnet, clawback.toXDR())).status).toBe(200);
		expect(await assetBalance(testnet, holder.publicKey(), 'CLAW', issuer.publicKey())).toBe(0n);
		const more = await build(testnet, issuer, [
			Operation.clawback({ asset, from: holder.publicKey(), amount: '1' }),
		]);
		expect(
			(await horizonSubmit(testnet, more.toXDR())).body.extras.result_codes.operations,
		).toEqual(['op_underfunded']);
	});

	test('account merge needs the high threshold and no subentries beyond signers; the balance moves to the destination', async () => {
		const account = await freshAccount(testnet, '20');
		const destination = keypairOf(testnet, 0).publicKey();
		const before = await nativeBalance(testnet, destination);
		const merge = await build(testnet, account, [Operation.accountMerge({ destination })]);
		expect((await horizonSubmit(testnet, merge.toXDR())).status).toBe(200);
		expect((await horizon(testnet, `/accounts/${account.publicKey()}`)).status).toBe(404);
		expect(await nativeBalance(testnet, destination)).toBe(before + 20n * UNIT - 100n);
	});
});
