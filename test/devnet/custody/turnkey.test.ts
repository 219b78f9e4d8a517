/** The Turnkey stand-in over real HTTP: stamps, sign_transaction for EVM and Solana, deduplication by fingerprint, refusals. */
import { getTransferSolInstruction } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS, findAssociatedTokenPda } from '@solana-program/token';
import {
	address,
	appendTransactionMessageInstructions,
	compileTransaction,
	createNoopSigner,
	createTransactionMessage,
	getBase64EncodedWireTransaction,
	getPublicKeyFromAddress,
	getTransactionDecoder,
	pipe,
	setTransactionMessageFeePayerSigner,
	setTransactionMessageLifetimeUsingBlockhash,
	verifySignature,
} from '@solana/kit';
import { JsonRpcProvider, Transaction, Wallet, parseEther, parseUnits, Contract } from 'ethers';

import { createECDH } from 'crypto';

import type { Devnet } from '../../../devnet';
import { stampBody } from '../../../devnet/custody/turnkey';
import { useDevnet } from '../../helpers/useDevnet';

let devnet: Devnet;
useDevnet((started) => (devnet = started));

interface Answer {
	status: number;
	body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers read field by field
}

async function post(path: string, body: string, stamp?: string | null): Promise<Answer> {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	const value = stamp === undefined ? devnet.turnkey.stamp(body) : stamp;
	if (value !== null) headers['X-Stamp'] = value;
	const response = await fetch(`${devnet.turnkey.url}${path}`, { method: 'POST', headers, body });
	return { status: response.status, body: await response.json() };
}

function signBody(
	unsignedTransaction: string,
	type: string,
	signWith: string,
	timestampMs = String(Date.now()),
) {
	return JSON.stringify({
		type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
		timestampMs,
		organizationId: devnet.turnkey.organizationId,
		parameters: { signWith, unsignedTransaction, type },
	});
}

async function unsignedEvmTransfer(to: string, value: bigint, nonceOffset = 0): Promise<string> {
	const provider = new JsonRpcProvider(devnet.chains[0].rpcUrl, 31337, { staticNetwork: true });
	const nonce = await provider.getTransactionCount(devnet.turnkey.accounts.evm, 'pending');
	const transaction = Transaction.from({
		type: 2,
		chainId: 31337,
		nonce: nonce + nonceOffset,
		to,
		value,
		gasLimit: 21_000,
		maxFeePerGas: parseUnits('100', 'gwei'),
		maxPriorityFeePerGas: parseUnits('1', 'gwei'),
	});
	provider.destroy();
	return transaction.unsignedSerialized.slice(2);
}

async function solanaRpc(method: string, params: unknown[] = []) {
	const response = await fetch(devnet.solana.rpcUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
	});
	return ((await response.json()) as { result: any }).result; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function unsignedSolanaTransfer(to: string, lamports: bigint): Promise<string> {
	const { value } = await solanaRpc('getLatestBlockhash');
	const payer = createNoopSigner(address(devnet.turnkey.accounts.solana));
	const message = pipe(
		createTransactionMessage({ version: 0 }),
		(draft) => setTransactionMessageFeePayerSigner(payer, draft),
		(draft) =>
			setTransactionMessageLifetimeUsingBlockhash(
				{ blockhash: value.blockhash, lastValidBlockHeight: BigInt(value.lastValidBlockHeight) },
				draft,
			),
		(draft) =>
			appendTransactionMessageInstructions(
				[getTransferSolInstruction({ source: payer, destination: address(to), amount: lamports })],
				draft,
			),
	);
	const wire = getBase64EncodedWireTransaction(compileTransaction(message));
	return Buffer.from(wire, 'base64').toString('hex');
}

describe('the Turnkey stand-in', () => {
	it('holds funded wallet accounts that are none of the devnet wallets', async () => {
		const { evm, solana } = devnet.turnkey.accounts;
		expect(devnet.chains[0].wallets.map((wallet) => wallet.address)).not.toContain(evm);
		expect(devnet.solana.wallets.map((wallet) => wallet.address)).not.toContain(solana);
		const provider = new JsonRpcProvider(devnet.chains[0].rpcUrl, 31337, { staticNetwork: true });
		expect(await provider.getBalance(evm)).toBe(parseEther('1000'));
		const usdc = new Contract(
			devnet.chains[0].tokens.USDC.address,
			['function balanceOf(address) view returns (uint256)'],
			provider,
		);
		expect(await usdc.balanceOf(evm)).toBe(parseUnits('1000000', 6));
		provider.destroy();
		expect(BigInt((await solanaRpc('getBalance', [solana])).value)).toBe(100_000_000_000n);
		const [ata] = await findAssociatedTokenPda({
			owner: address(solana),
			mint: address(devnet.solana.usdc.address),
			tokenProgram: TOKEN_PROGRAM_ADDRESS,
		});
		expect((await solanaRpc('getTokenAccountBalance', [ata])).value.amount).toBe('1000000000000');
	});

	it('signs an EVM transaction with the account key, leaving the unsigned part unchanged, and it moves funds', async () => {
		const recipient = Wallet.createRandom().address;
		const unsigned = await unsignedEvmTransfer(recipient, 12_345n);
		const before = devnet.turnkey.signatures;
		const answer = await post(
			'/public/v1/submit/sign_transaction',
			signBody(unsigned, 'TRANSACTION_TYPE_ETHEREUM', devnet.turnkey.accounts.evm),
		);
		expect(answer.status).toBe(200);
		const { activity } = answer.body;
		expect(activity).toMatchObject({
			organizationId: devnet.turnkey.organizationId,
			status: 'ACTIVITY_STATUS_COMPLETED',
			type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
		});
		const signedHex: string = activity.result.signTransactionResult.signedTransaction;
		expect(signedHex.startsWith('0x')).toBe(false);
		const signed = Transaction.from(`0x${signedHex}`);
		expect(signed.from).toBe(devnet.turnkey.accounts.evm);
		expect(signed.unsignedSerialized).toBe(`0x${unsigned}`);
		expect(devnet.turnkey.signatures).toBe(before + 1);
		const provider = new JsonRpcProvider(devnet.chains[0].rpcUrl, 31337, { staticNetwork: true });
		await (await provider.broadcastTransaction(signed.serialized)).wait();
		expect(await provider.getBalance(recipient)).toBe(12_345n);
		provider.destroy();
		const fetched = await post(
			'/public/v1/query/get_activity',
			JSON.stringify({ organizationId: devnet.turnkey.organizationId, activityId: activity.id }),
		);
		expect(fetched).toEqual({ status: 200, body: { activity } });
	});

	it('signs a Solana transaction in its signer slot, the signature verifies and the transfer lands', async () => {
		const recipient = devnet.solana.wallets[4].address;
		const before = BigInt((await solanaRpc('getBalance', [recipient])).value);
		const unsigned = await unsignedSolanaTransfer(recipient, 7_000n);
		const answer = await post(
			'/public/v1/submit/sign_transaction',
			signBody(unsigned, 'TRANSACTION_TYPE_SOLANA', devnet.turnkey.accounts.solana),
		);
		expect(answer.body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
		const signedHex: string = answer.body.activity.result.signTransactionResult.signedTransaction;
		const signed = getTransactionDecoder().decode(Buffer.from(signedHex, 'hex'));
		const unsignedDecoded = getTransactionDecoder().decode(Buffer.from(unsigned, 'hex'));
		expect(Buffer.from(signed.messageBytes).equals(Buffer.from(unsignedDecoded.messageBytes))).toBe(
			true,
		);
		const signature = signed.signatures[devnet.turnkey.accounts.solana as never] as Uint8Array;
		const key = await getPublicKeyFromAddress(address(devnet.turnkey.accounts.solana));
		expect(await verifySignature(key, signature as never, signed.messageBytes)).toBe(true);
		await solanaRpc('sendTransaction', [
			Buffer.from(signedHex, 'hex').toString('base64'),
			{ encoding: 'base64' },
		]);
		expect(BigInt((await solanaRpc('getBalance', [recipient])).value)).toBe(before + 7_000n);
	});

	it('answers the same body with the same activity and signs once; a new timestampMs is a new activity', async () => {
		const unsigned = await unsignedEvmTransfer(Wallet.createRandom().address, 1n, 50);
		const body = signBody(
			unsigned,
			'TRANSACTION_TYPE_ETHEREUM',
			devnet.turnkey.accounts.evm,
			'1700000000000',
		);
		const before = devnet.turnkey.signatures;
		const first = await post('/public/v1/submit/sign_transaction', body);
		const second = await post('/public/v1/submit/sign_transaction', body);
		expect(second.body.activity.id).toBe(first.body.activity.id);
		expect(second.body.activity.fingerprint).toBe(first.body.activity.fingerprint);
		expect(devnet.turnkey.signatures).toBe(before + 1);
		const third = await post(
			'/public/v1/submit/sign_transaction',
			signBody(unsigned, 'TRANSACTION_TYPE_ETHEREUM', devnet.turnkey.accounts.evm, '1700000000001'),
		);
		expect(third.body.activity.id).not.toBe(first.body.activity.id);
		expect(devnet.turnkey.signatures).toBe(before + 2);
	});

	it('refuses a missing, forged or foreign stamp and a wrong organization with Turnkey error bodies', async () => {
		const body = JSON.stringify({ organizationId: devnet.turnkey.organizationId });
		const missing = await post('/public/v1/query/whoami', body, null);
		expect(missing.status).toBe(401);
		expect(missing.body).toEqual({
			code: 16,
			message: expect.stringContaining('without a stamp'),
			details: [],
		});
		const stampOfOtherBody = devnet.turnkey.stamp(`${body} `);
		const tampered = await post('/public/v1/query/whoami', body, stampOfOtherBody);
		expect(tampered).toEqual({
			status: 401,
			body: { code: 16, message: 'could not verify api key signature', details: [] },
		});
		const garbage = await post('/public/v1/query/whoami', body, 'not-a-stamp');
		expect(garbage.status).toBe(401);
		expect(garbage.body.code).toBe(16);
		const ecdh = createECDH('prime256v1');
		ecdh.generateKeys();
		const foreignKey = {
			publicKey: ecdh.getPublicKey('hex', 'compressed'),
			privateKey: ecdh.getPrivateKey('hex').padStart(64, '0'),
		};
		const foreign = await post('/public/v1/query/whoami', body, stampBody(body, foreignKey));
		expect(foreign.status).toBe(401);
		expect(foreign.body).toEqual({
			code: 16,
			message: expect.stringContaining('could not find public key in organization'),
			details: [],
		});
		expect(JSON.stringify(foreign.body)).not.toContain(foreignKey.privateKey);
		const otherOrg = JSON.stringify({ organizationId: '00000000-0000-4000-8000-000000000000' });
		const wrongOrg = await post('/public/v1/query/whoami', otherOrg);
		expect(wrongOrg).toEqual({
			status: 404,
			body: { code: 5, message: 'no organization found with the given ID', details: [] },
		});
		const whoami = await post('/public/v1/query/whoami', body);
		expect(whoami.status).toBe(200);
		expect(whoami.body.organizationId).toBe(devnet.turnkey.organizationId);
	});

	it('refuses a Sign With outside the organization and a transaction that does not parse', async () => {
		const before = devnet.turnkey.signatures;
		const unknown = await post(
			'/public/v1/submit/sign_transaction',
			signBody('02ea', 'TRANSACTION_TYPE_ETHEREUM', devnet.chains[0].wallets[0].address),
		);
		expect(unknown.status).toBe(404);
		expect(unknown.body).toEqual({
			code: 5,
			message: expect.stringContaining(devnet.chains[0].wallets[0].address),
			details: [],
		});
		const garbage = await post(
			'/public/v1/submit/sign_transaction',
			signBody('02deadbeef', 'TRANSACTION_TYPE_ETHEREUM', devnet.turnkey.accounts.evm),
		);
		expect(garbage.status).toBe(400);
		expect(garbage.body).toEqual({
			code: 3,
			message: expect.stringContaining('failed to parse unsigned transaction'),
			details: [],
		});
		expect(devnet.turnkey.signatures).toBe(before);
	});
});
