/** The Signer's Solana family against the devnet's Solana chain (901): keys, building, reading for the policy, signing, and landing. */
import {
	getSetComputeUnitLimitInstruction,
	getSetComputeUnitPriceInstruction,
} from '@solana-program/compute-budget';
import { getTransferSolInstruction } from '@solana-program/system';
import {
	TOKEN_PROGRAM_ADDRESS,
	findAssociatedTokenPda,
	getCloseAccountInstruction,
	getTransferInstruction,
} from '@solana-program/token';
import {
	type Instruction,
	type Transaction,
	address,
	compileTransaction,
	createNoopSigner,
	generateKeyPairSigner,
	getBase58Encoder,
	getBase64Encoder,
	getPublicKeyFromAddress,
	getTransactionDecoder,
	verifySignature,
	type SignatureBytes,
} from '@solana/kit';

import { type Devnet, startDevnet } from '../../../../devnet';
import { SigningKeyError } from '../../../../packages/signer/nodes/ExpandSigner/policy/vocabulary';
import {
	type SolanaAccount,
	type SolanaRpc,
	type SolanaUnsigned,
	NotASigner,
	decodeTransaction,
	latestLifetime,
	prepareSolanaTransaction,
	rpcChainReader,
	signSolanaMessage,
	signSolanaTransaction,
	solanaKeyring,
	transferSolTransaction,
	transferTokenTransaction,
} from '../../../../packages/signer/nodes/ExpandSigner/families/solana';
import { call, query } from '../../../devnet/client';
import { solanaMessage } from '../../../helpers/solanaMessages';

let devnet: Devnet;
/** Signs a prepared transaction as the Signer does. */
const signPrepared = async (account: SolanaAccount, prepared: SolanaUnsigned) =>
	await signSolanaTransaction(account, prepared.transaction, prepared.chainId);
let rpc: SolanaRpc;
const get = (path: string, params: Record<string, string>) =>
	call(query(devnet.baseUrl, path, params), devnet.apiKey);
const post = (path: string, body: unknown) =>
	call(`${devnet.baseUrl}${path}`, devnet.apiKey, { method: 'POST', body });
const balance = async (owner: string, token?: string) =>
	BigInt(
		(
			await get('/chain/getbalance', {
				chainId: '901',
				address: owner,
				...(token ? { tokenAddress: token } : {}),
			})
		).body.data.balance,
	);
const secretKeyCredential = (index: number) => ({
	keyType: 'secretKey',
	secretKey: devnet.solana.wallets[index].secretKey,
});
const mnemonicCredential = () => ({ keyType: 'mnemonic', mnemonic: devnet.solana.mnemonic });

async function verified(
	signer: string,
	signature: string,
	transaction: Transaction | Uint8Array,
): Promise<boolean> {
	const bytes = transaction instanceof Uint8Array ? transaction : transaction.messageBytes;
	return verifySignature(
		await getPublicKeyFromAddress(address(signer)),
		getBase58Encoder().encode(signature) as SignatureBytes,
		bytes,
	);
}

function unsigned(feePayer: string, instructions: Instruction[], blockhash: string): Transaction {
	return compileTransaction(solanaMessage(address(feePayer), blockhash, instructions));
}

beforeAll(async () => {
	devnet = await startDevnet();
	rpc = async <T>(method: string, params: unknown[]) => {
		const reply = await call(devnet.solana.rpcUrl, undefined, {
			method: 'POST',
			body: { jsonrpc: '2.0', id: 1, method, params },
		});
		if (reply.body.error) throw new Error(reply.body.error.message);
		return reply.body.result as T;
	};
});
afterAll(async () => {
	await devnet.stop();
});

describe('keys', () => {
	test("a base58 secret key (Phantom's export), its JSON-array form (solana-keygen's file) and the mnemonic on m/44'/501'/i'/0' give the devnet's addresses", () => {
		for (const wallet of devnet.solana.wallets) {
			expect(
				solanaKeyring({ keyType: 'secretKey', secretKey: wallet.secretKey }).account(0).address,
			).toBe(wallet.address);
			expect(
				solanaKeyring({ keyType: 'secretKey', secretKey: wallet.secretKeyJson }).account(0).address,
			).toBe(wallet.address);
		}
		const keyring = solanaKeyring(mnemonicCredential());
		expect(devnet.solana.wallets.map((wallet) => keyring.account(wallet.index).address)).toEqual(
			devnet.solana.wallets.map((wallet) => wallet.address),
		);
	});

	test("the published address of the 'abandon … about' phrase on m/44'/501'/0'/0', and a passphrase changes it", () => {
		const phrase =
			'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
		expect(solanaKeyring({ keyType: 'mnemonic', mnemonic: phrase }).account(0).address).toBe(
			'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk',
		);
		expect(
			solanaKeyring({ keyType: 'mnemonic', mnemonic: phrase, passphrase: 'treasury' }).account(0)
				.address,
		).not.toBe('HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk');
	});

	test('malformed keys fail with messages that do not quote them; a single key has only account 0; the account never serializes its key', () => {
		const secret = devnet.solana.wallets[1].secretKey;
		const failures: Array<[Record<string, string>, RegExp]> = [
			[
				{ keyType: 'secretKey', secretKey: secret.slice(0, -4) },
				/has 6\d bytes; a Solana key pair has 64/,
			],
			[
				{ keyType: 'secretKey', secretKey: `${secret.slice(0, 20)}0OIl` },
				/neither base58 nor a JSON array/,
			],
			[{ keyType: 'secretKey', secretKey: '[1, 2, 300]' }, /not a JSON array of bytes/],
			[
				{ keyType: 'mnemonic', mnemonic: devnet.solana.mnemonic.replace('junk', 'junks') },
				/not a valid BIP-39 phrase/,
			],
		];
		for (const [credential, message] of failures) {
			let error: unknown;
			try {
				solanaKeyring(credential);
			} catch (caught) {
				error = caught;
			}
			expect(error).toBeInstanceOf(SigningKeyError);
			expect((error as Error).message).toMatch(message);
			expect((error as Error).message).not.toContain(secret.slice(0, 12));
		}
		expect(() => solanaKeyring(secretKeyCredential(1)).account(1)).toThrow(/only account 0/);
		const account = solanaKeyring(secretKeyCredential(1)).account(0);
		expect(JSON.stringify(account)).toBe(
			JSON.stringify({ address: devnet.solana.wallets[1].address, index: 0 }),
		);
		expect(Object.values(account)).not.toContainEqual(expect.any(Uint8Array));
	});

	test('a key pair whose public half belongs to another key is refused at signing', async () => {
		const bytes = getBase58Encoder().encode(devnet.solana.wallets[1].secretKey);
		const other = getBase58Encoder().encode(devnet.solana.wallets[2].secretKey);
		const mixed = JSON.stringify([...bytes.slice(0, 32), ...other.slice(32)]);
		const account = solanaKeyring({ keyType: 'secretKey', secretKey: mixed }).account(0);
		expect(account.address).toBe(devnet.solana.wallets[2].address);
		const transaction = transferSolTransaction({
			from: account.address,
			to: devnet.solana.wallets[3].address,
			lamports: 1n,
			lifetime: await latestLifetime(rpc),
		});
		await expect(signSolanaTransaction(account, transaction, '901')).rejects.toThrow(
			/public half does not match/,
		);
	});
});

describe('sign, send, balances', () => {
	test('Transfer SOL: built, read by the policy, signed, sent through chain/sendtransaction; the recipient gets exactly the amount and the signature verifies', async () => {
		const account = solanaKeyring(mnemonicCredential()).account(1);
		const recipient = (await generateKeyPairSigner()).address;
		const before = await balance(account.address);
		const transaction = transferSolTransaction({
			from: account.address,
			to: recipient,
			lamports: 1_500_000_000n,
			lifetime: await latestLifetime(rpc),
		});
		const prepared = await prepareSolanaTransaction(
			transaction,
			'901',
			account,
			rpcChainReader(rpc),
		);
		expect(prepared.effect).toMatchObject({
			chainId: '901',
			from: account.address,
			movements: [
				{
					asset: 'native',
					recipient,
					amount: 1_500_000_000n,
					via: 'System transfer',
					action: 'transfer',
				},
			],
			maxFee: 5000n,
			rent: 0n,
		});
		const signed = await signPrepared(account, prepared);
		expect(signed).toMatchObject({ from: account.address, chainId: '901', complete: true });
		expect(await verified(account.address, signed.transactionHash, transaction)).toBe(true);
		const sent = await post('/chain/sendtransaction', {
			chainId: '901',
			rawTransaction: signed.rawTransaction,
		});
		expect(sent.body.data).toEqual({ transactionHash: signed.transactionHash });
		expect(await balance(recipient)).toBe(1_500_000_000n);
		expect(before - (await balance(account.address))).toBe(1_500_005_000n);
	});

	test('Transfer SPL Token to a wallet without a USDC account: the account is created, its rent shown and paid, the exact amount lands', async () => {
		const account = solanaKeyring(secretKeyCredential(0)).account(0);
		const recipient = devnet.solana.wallets[4].address;
		const usdc = devnet.solana.usdc.address;
		const [solBefore, usdcBefore] = [
			await balance(account.address),
			await balance(account.address, usdc),
		];
		const { transaction, recipientAccount } = await transferTokenTransaction({
			owner: account.address,
			mint: usdc,
			recipient,
			amount: 250_000_000n,
			decimals: 6,
			createAccount: true,
			lifetime: await latestLifetime(rpc),
		});
		expect(recipientAccount).toBe(devnet.solana.wallets[4].usdcAccount);
		const prepared = await prepareSolanaTransaction(
			transaction,
			'901',
			account,
			rpcChainReader(rpc),
		);
		expect(prepared.effect.rent).toBe(2_039_280n);
		expect(prepared.effect.movements).toEqual([
			{
				asset: 'native',
				recipient,
				amount: 2_039_280n,
				via: "rent of the recipient's new token account",
				action: 'transfer',
				cost: true,
			},
			{
				asset: usdc,
				recipient,
				amount: 250_000_000n,
				via: 'SPL Token transfer',
				action: 'transfer',
			},
		]);
		const signed = await signPrepared(account, prepared);
		expect(await verified(account.address, signed.signature, transaction)).toBe(true);
		expect(
			(
				await post('/chain/sendtransaction', {
					chainId: '901',
					rawTransaction: signed.rawTransaction,
				})
			).status,
		).toBe(200);
		expect(await balance(recipient, usdc)).toBe(250_000_000n);
		expect(usdcBefore - (await balance(account.address, usdc))).toBe(250_000_000n);
		expect(solBefore - (await balance(account.address))).toBe(2_039_280n + 5000n);
		// The rent the Signer computes is what the chain charges.
		expect(await rpc('getMinimumBalanceForRentExemption', [165])).toBe(2_039_280);
	});

	test('Sign Transaction: the unsigned transfer fungibletoken/transfer prepares is read (recipient wallet, mint, amount), signed and landed', async () => {
		const account = solanaKeyring(mnemonicCredential()).account(2);
		const recipient = devnet.solana.wallets[3].address;
		const usdc = devnet.solana.usdc.address;
		const recipientBefore = await balance(recipient, usdc);
		const prepared = await post('/fungibletoken/transfer', {
			chainId: '901',
			token: usdc,
			sender: account.address,
			destination: recipient,
			feePayer: account.address,
			amount: '4200000',
			decimals: '6',
		});
		const transaction = getTransactionDecoder().decode(
			getBase64Encoder().encode(prepared.body.data.data),
		);
		const unsignedTransfer = await prepareSolanaTransaction(
			transaction,
			'901',
			account,
			rpcChainReader(rpc),
		);
		// The recipient's account exists, so the owner comes from the chain and is believed because it is the recipient's associated account.
		expect(unsignedTransfer.effect.movements).toEqual([
			{ asset: usdc, recipient, amount: 4_200_000n, via: 'SPL Token transfer', action: 'transfer' },
		]);
		const signed = await signPrepared(account, unsignedTransfer);
		expect(await verified(account.address, signed.transactionHash, transaction)).toBe(true);
		const sent = await post('/chain/sendtransaction', {
			chainId: '901',
			rawTransaction: signed.rawTransaction,
		});
		expect(sent.body.data.transactionHash).toBe(signed.transactionHash);
		expect((await balance(recipient, usdc)) - recipientBefore).toBe(4_200_000n);
	});

	test('a transaction that does not ask for the account is refused; one needing another signer is signed but marked incomplete', async () => {
		const [payer, second] = [
			solanaKeyring(mnemonicCredential()).account(0),
			solanaKeyring(mnemonicCredential()).account(3),
		];
		const { blockhash } = await latestLifetime(rpc);
		const foreign = unsigned(
			payer.address,
			[
				getTransferSolInstruction({
					source: createNoopSigner(payer.address as never),
					destination: address(second.address),
					amount: 1n,
				}),
			],
			blockhash,
		);
		await expect(
			prepareSolanaTransaction(foreign, '901', second, rpcChainReader(rpc)).then((prepared) =>
				signPrepared(second, prepared),
			),
		).rejects.toThrow(NotASigner);
		const both = unsigned(
			payer.address,
			[
				getTransferSolInstruction({
					source: createNoopSigner(second.address as never),
					destination: address(payer.address),
					amount: 1n,
				}),
			],
			blockhash,
		);
		const signed = await signPrepared(
			second,
			await prepareSolanaTransaction(both, '901', second, rpcChainReader(rpc)),
		);
		expect(signed).toMatchObject({ complete: false, transactionHash: '' });
		expect(await verified(second.address, signed.signature, both)).toBe(true);
	});

	test('Sign Message: an Ed25519 signature of the bytes that verifies against the address', async () => {
		const account = solanaKeyring(mnemonicCredential()).account(4);
		const message = new TextEncoder().encode('Payout batch 2026-11 approved');
		const { signature, address: signer } = await signSolanaMessage(account, message);
		expect(signer).toBe(devnet.solana.wallets[4].address);
		expect(await verified(signer, signature, message)).toBe(true);
		expect(
			await verified(signer, signature, new TextEncoder().encode('Payout batch 2026-12 approved')),
		).toBe(false);
	});
});

describe('reading transactions for the policy', () => {
	test('the fee includes the priority fee of a compute-unit price, as the chain charges it', async () => {
		const account = solanaKeyring(mnemonicCredential()).account(0);
		const { blockhash } = await latestLifetime(rpc);
		const transaction = unsigned(
			account.address,
			[
				getSetComputeUnitLimitInstruction({ units: 300 }),
				getSetComputeUnitPriceInstruction({ microLamports: 1_000_001n }),
				getTransferSolInstruction({
					source: createNoopSigner(account.address as never),
					destination: address(devnet.solana.wallets[1].address),
					amount: 1n,
				}),
			],
			blockhash,
		);
		expect(decodeTransaction(transaction).fee).toBe(5000n + 301n);
		expect(
			await rpc('getFeeForMessage', [Buffer.from(transaction.messageBytes).toString('base64')]),
		).toMatchObject({ value: 5301 });
	});

	test("a token account the chain claims for an allowlisted wallet is not believed unless it is that wallet's associated account", async () => {
		const account = solanaKeyring(mnemonicCredential()).account(0);
		const usdc = devnet.solana.usdc.address;
		const attacker = (await generateKeyPairSigner()).address;
		const [attackerAccount] = await findAssociatedTokenPda({
			owner: attacker,
			mint: address(usdc),
			tokenProgram: TOKEN_PROGRAM_ADDRESS,
		});
		const { transaction } = await transferTokenTransaction({
			owner: account.address,
			mint: usdc,
			recipient: attacker,
			amount: 5n,
			decimals: 6,
			createAccount: false,
			lifetime: await latestLifetime(rpc),
		});
		const lyingReader = {
			tokenAccount: async () => ({ mint: usdc, owner: devnet.solana.wallets[3].address }),
		};
		const prepared = await prepareSolanaTransaction(transaction, '901', account, lyingReader);
		expect(prepared.effect.movements).toEqual([
			{
				asset: usdc,
				recipient: attackerAccount,
				amount: 5n,
				via: 'SPL Token transfer',
				action: 'transfer',
			},
		]);
	});

	test("an unchecked Transfer gets its mint from the source account, verified as the signer's associated account; other instructions are opaque", async () => {
		const account = solanaKeyring(mnemonicCredential()).account(1);
		const usdc = devnet.solana.usdc.address;
		const { blockhash } = await latestLifetime(rpc);
		const source = devnet.solana.wallets[1].usdcAccount;
		const authority = createNoopSigner(account.address as never);
		const transfer = unsigned(
			account.address,
			[
				getTransferInstruction({
					source: address(source),
					destination: address(devnet.solana.wallets[2].usdcAccount),
					authority,
					amount: 7n,
				}),
			],
			blockhash,
		);
		const read = await prepareSolanaTransaction(transfer, '901', account, rpcChainReader(rpc));
		expect(read.effect.movements).toEqual([
			{
				asset: usdc,
				recipient: devnet.solana.wallets[2].address,
				amount: 7n,
				via: 'SPL Token transfer',
				action: 'transfer',
			},
		]);
		expect(read.effect.opaque).toEqual([]);

		const close = unsigned(
			account.address,
			[
				getCloseAccountInstruction({
					account: address(source),
					destination: address(devnet.solana.wallets[2].address),
					owner: authority,
				}),
			],
			blockhash,
		);
		const closing = await prepareSolanaTransaction(close, '901', account, rpcChainReader(rpc));
		expect(closing.effect).toMatchObject({
			movements: [],
			opaque: [{ to: TOKEN_PROGRAM_ADDRESS, what: 'SPL Token CloseAccount' }],
		});

		const unknownReader = { tokenAccount: async () => null };
		const unresolved = await prepareSolanaTransaction(transfer, '901', account, unknownReader);
		expect(unresolved.effect).toMatchObject({
			movements: [],
			opaque: [
				{
					to: TOKEN_PROGRAM_ADDRESS,
					what: 'a token transfer from an account whose mint cannot be established',
				},
			],
		});
	});
});
