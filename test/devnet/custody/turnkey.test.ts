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
import { type IncomingHttpHeaders, createServer } from 'http';
import type { AddressInfo } from 'net';

import type { Devnet } from '../../../devnet';
import {
	type TurnkeyActivity,
	stampBody,
	verifyWebhookEvent,
} from '../../../devnet/custody/turnkey';
import { readBody } from '../../../devnet/readBody';
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

/** A webhook receiver on 127.0.0.1 keeping each raw body with its headers; answers `status()` (200 by default). */
async function startReceiver(status: () => number = () => 200) {
	const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
	const server = createServer((request, response) => {
		void readBody(request).then((body) => {
			received.push({ headers: request.headers, body });
			response.writeHead(status()).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/turnkey`,
		received,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

async function jwks() {
	const response = await fetch(devnet.turnkey.jwksUrl);
	return (await response.json()) as {
		keys: Array<{ kid: string; kty: string; crv: string; x: string }>;
	};
}

async function signNewEvmTransfer(nonceOffset: number): Promise<Answer> {
	const unsigned = await unsignedEvmTransfer(Wallet.createRandom().address, 1n, nonceOffset);
	return post(
		'/public/v1/submit/sign_transaction',
		signBody(unsigned, 'TRANSACTION_TYPE_ETHEREUM', devnet.turnkey.accounts.evm),
	);
}

describe('the Turnkey stand-in consensus hold', () => {
	afterEach(() => {
		devnet.turnkey.requireConsensus = false;
	});

	it('holds an activity without a result until it is approved, then signs once', async () => {
		devnet.turnkey.requireConsensus = true;
		const before = devnet.turnkey.signatures;
		const held = await signNewEvmTransfer(100);
		expect(held.status).toBe(200);
		expect(held.body.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
		expect(held.body.activity.result).toEqual({});
		expect(devnet.turnkey.signatures).toBe(before);
		const approved = await fetch(
			`${devnet.turnkey.url}/devnet/activities/${held.body.activity.id}/approve`,
			{ method: 'POST' },
		);
		expect(approved.status).toBe(200);
		const fetched = await post(
			'/public/v1/query/get_activity',
			JSON.stringify({
				organizationId: devnet.turnkey.organizationId,
				activityId: held.body.activity.id,
			}),
		);
		expect(fetched.body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
		const signed = Transaction.from(
			`0x${fetched.body.activity.result.signTransactionResult.signedTransaction}`,
		);
		expect(signed.from).toBe(devnet.turnkey.accounts.evm);
		expect(devnet.turnkey.signatures).toBe(before + 1);
		expect(() => devnet.turnkey.approve(held.body.activity.id)).toThrow('not awaiting consensus');
	});

	it('rejects a held activity without signing, by a rule that holds only Solana', async () => {
		devnet.turnkey.requireConsensus = (activity: TurnkeyActivity) =>
			activity.intent.signTransactionIntentV2.type === 'TRANSACTION_TYPE_SOLANA';
		const evm = await signNewEvmTransfer(101);
		expect(evm.body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
		const before = devnet.turnkey.signatures;
		const unsigned = await unsignedSolanaTransfer(devnet.solana.wallets[3].address, 1_000n);
		const held = await post(
			'/public/v1/submit/sign_transaction',
			signBody(unsigned, 'TRANSACTION_TYPE_SOLANA', devnet.turnkey.accounts.solana),
		);
		expect(held.body.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
		expect(devnet.turnkey.reject(held.body.activity.id).status).toBe('ACTIVITY_STATUS_REJECTED');
		expect(devnet.turnkey.signatures).toBe(before);
		const listed = (await (await fetch(`${devnet.turnkey.url}/devnet/activities`)).json()) as {
			activities: TurnkeyActivity[];
		};
		expect(
			listed.activities.find((activity) => activity.id === held.body.activity.id)?.status,
		).toBe('ACTIVITY_STATUS_REJECTED');
	});
});

describe('the Turnkey stand-in faults', () => {
	it('drops the answer of a sign request after its activity exists; resending the body finds it', async () => {
		const unsigned = await unsignedEvmTransfer(Wallet.createRandom().address, 1n, 200);
		const body = signBody(unsigned, 'TRANSACTION_TYPE_ETHEREUM', devnet.turnkey.accounts.evm);
		const before = devnet.turnkey.signatures;
		const count = devnet.turnkey.activities().length;
		devnet.turnkey.faults.dropNextSignAnswer();
		await expect(post('/public/v1/submit/sign_transaction', body)).rejects.toThrow();
		expect(devnet.turnkey.activities()).toHaveLength(count + 1);
		const again = await post('/public/v1/submit/sign_transaction', body);
		expect(again.body.activity.id).toBe(devnet.turnkey.activities()[count].id);
		expect(devnet.turnkey.signatures).toBe(before + 1);
		const recorded = devnet.turnkey.requests().filter((request) => request.body === body);
		expect(recorded.map((request) => request.status)).toEqual([0, 200]);
	});

	it('answers 429 and 5xx with Turnkey error bodies before doing anything', async () => {
		const count = devnet.turnkey.activities().length;
		devnet.turnkey.faults.failNext(429);
		devnet.turnkey.faults.failNext(500);
		const limited = await signNewEvmTransfer(300);
		expect(limited.status).toBe(429);
		expect(limited.body).toEqual({
			code: 8,
			message: expect.stringContaining('rate limited'),
			details: [],
		});
		const failed = await signNewEvmTransfer(300);
		expect(failed).toEqual({
			status: 500,
			body: { code: 13, message: 'internal server error', details: [] },
		});
		expect(devnet.turnkey.activities()).toHaveLength(count);
	});
});

describe('the Turnkey stand-in webhooks', () => {
	it('signs each status change so it verifies against the JWKS; a tampered body or forged key fails', async () => {
		const receiver = await startReceiver();
		devnet.turnkey.subscribe(receiver.url);
		try {
			const answer = await signNewEvmTransfer(400);
			await devnet.turnkey.webhooksIdle();
			const keys = await jwks();
			expect(keys.keys[0]).toMatchObject({
				kid: devnet.turnkey.webhookKeyId,
				kty: 'OKP',
				crv: 'Ed25519',
			});
			const events = receiver.received.filter(
				(event) => (JSON.parse(event.body) as { id: string }).id === answer.body.activity.id,
			);
			expect(events.map((event) => (JSON.parse(event.body) as { status: string }).status)).toEqual([
				'ACTIVITY_STATUS_CREATED',
				'ACTIVITY_STATUS_COMPLETED',
			]);
			for (const event of events) {
				expect(event.headers['x-turnkey-organization-id']).toBe(devnet.turnkey.organizationId);
				expect(event.headers['x-turnkey-event-type']).toBe('ACTIVITY_UPDATES');
				expect(
					verifyWebhookEvent({
						headers: event.headers,
						body: event.body,
						jwks: keys,
						maxTimestampAgeMs: 60_000,
					}),
				).toMatchObject({ ok: true, eventId: event.headers['x-turnkey-event-id'] });
			}
			const tampered = events[1].body.replace(
				'ACTIVITY_STATUS_COMPLETED',
				'ACTIVITY_STATUS_REJECTED',
			);
			expect(
				verifyWebhookEvent({
					headers: events[1].headers,
					body: tampered,
					jwks: keys,
					maxTimestampAgeMs: 60_000,
				}),
			).toEqual({ ok: false, reason: 'invalid_signature' });
			expect(
				verifyWebhookEvent({
					headers: events[1].headers,
					body: events[1].body,
					jwks: keys,
					maxTimestampAgeMs: 60_000,
					nowMs: Date.now() + 120_000,
				}),
			).toEqual({ ok: false, reason: 'stale_timestamp' });
			devnet.turnkey.webhookFaults.badSignatureNext();
			await signNewEvmTransfer(401);
			await devnet.turnkey.webhooksIdle();
			const forged = receiver.received[receiver.received.length - 2];
			expect(
				verifyWebhookEvent({
					headers: forged.headers,
					body: forged.body,
					jwks: keys,
					maxTimestampAgeMs: 60_000,
				}),
			).toEqual({
				ok: false,
				reason: 'invalid_signature',
			});
		} finally {
			devnet.turnkey.unsubscribe(receiver.url);
			await receiver.close();
		}
	});

	it('delivers duplicates and out-of-order events on demand, and retries a non-2xx answer with the same event ID', async () => {
		let failures = 1;
		const receiver = await startReceiver(() => (failures-- > 0 ? 503 : 200));
		const subscribed = await fetch(`${devnet.turnkey.url}/devnet/webhooks`, {
			method: 'POST',
			body: JSON.stringify({ url: receiver.url }),
		});
		expect(subscribed.status).toBe(200);
		try {
			devnet.turnkey.webhookFaults.duplicateNext();
			await signNewEvmTransfer(500);
			await devnet.turnkey.webhooksIdle();
			const ids = receiver.received.map((event) => event.headers['x-turnkey-event-id']);
			// CREATED: refused once (503), retried, then its duplicate; COMPLETED once.
			expect(ids).toHaveLength(4);
			expect(new Set(ids).size).toBe(2);
			expect(ids[0]).toBe(ids[1]);
			expect(ids[1]).toBe(ids[2]);
			const attempts = devnet.turnkey.delivered().filter((delivery) => delivery.eventId === ids[0]);
			expect(
				attempts.map((delivery) => [delivery.attempt, delivery.response, delivery.fault]),
			).toEqual([
				[1, 503, undefined],
				[2, 200, undefined],
				[1, 200, 'duplicate'],
			]);
			receiver.received.length = 0;
			devnet.turnkey.webhookFaults.reorderNext();
			await signNewEvmTransfer(501);
			await devnet.turnkey.webhooksIdle();
			const statuses = receiver.received.map(
				(event) => (JSON.parse(event.body) as { status: string }).status,
			);
			expect(statuses).toEqual(['ACTIVITY_STATUS_COMPLETED', 'ACTIVITY_STATUS_CREATED']);
		} finally {
			devnet.turnkey.unsubscribe(receiver.url);
			await receiver.close();
		}
	});
});
