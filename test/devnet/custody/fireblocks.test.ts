/** The devnet's Fireblocks stand-in over real HTTP: authentication as documented, transactions that move funds, lookups and faults. */
import { Interface } from 'ethers';

import type { Devnet } from '../../../devnet';
import { signFireblocksRequest } from '../../../devnet/custody/fireblocks';
import { useDevnet } from '../../helpers/useDevnet';

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const ERC20 = new Interface(['function balanceOf(address) view returns (uint256)']);
const RECIPIENT = '0x00000000000000000000000000000000000F1b01';

interface Sent {
	status: number;
	body: any;
}

/** Sends a request signed as Fireblocks documents; `token` overrides what is signed (for wrong ones). */
async function api(
	method: 'GET' | 'POST',
	uri: string,
	body?: unknown,
	token: Partial<Parameters<typeof signFireblocksRequest>[0]> & { signedBody?: string } = {},
	headers: Record<string, string> = {},
): Promise<Sent> {
	const { fireblocks } = devnet;
	const text = body === undefined ? '' : JSON.stringify(body);
	const jwt = signFireblocksRequest({
		apiKey: fireblocks.apiKey,
		privateKeyPem: fireblocks.privateKeyPem,
		uri,
		body: token.signedBody ?? text,
		...token,
	});
	const response = await fetch(`${fireblocks.url}${uri}`, {
		method,
		headers: {
			'x-api-key': fireblocks.apiKey,
			authorization: `Bearer ${jwt}`,
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
			...headers,
		},
		body: body === undefined ? undefined : text,
	});
	const answer = await response.text();
	return { status: response.status, body: answer ? JSON.parse(answer) : undefined };
}

let counter = 0;
const transfer = (
	assetId: string,
	amount: string,
	externalTxId = `payout-${Date.now()}-${counter++}`,
) => ({
	operation: 'TRANSFER',
	assetId,
	amount,
	source: { type: 'VAULT_ACCOUNT', id: '0' },
	destination: { type: 'ONE_TIME_ADDRESS', oneTimeAddress: { address: RECIPIENT } },
	externalTxId,
	note: 'devnet test',
});

async function usdcBalance(owner: string): Promise<bigint> {
	const usdc = devnet.chains[0].tokens.USDC.address;
	return BigInt(
		await devnet.rpc<string>('31337', 'eth_call', [
			{ to: usdc, data: ERC20.encodeFunctionData('balanceOf', [owner]) },
			'latest',
		]),
	);
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
	for (let attempt = 0; attempt < 200; attempt++) {
		const value = await read();
		if (done(value)) return value;
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
	throw new Error('timed out');
}

test('the vault address is served per asset, and the vault holds its funding on chain 31337', async () => {
	const { fireblocks } = devnet;
	expect(Object.keys(fireblocks.assets)).toEqual(
		expect.arrayContaining(['ETH_DEVNET', 'USDC_DEVNET', 'DAI_DEVNET', 'LINK_DEVNET']),
	);
	const answer = await api('GET', '/v1/vault/accounts/0/USDC_DEVNET/addresses_paginated');
	expect(answer.status).toBe(200);
	expect(answer.body.addresses[0]).toMatchObject({
		assetId: 'USDC_DEVNET',
		address: fireblocks.addresses['31337'],
	});
	expect(await usdcBalance(fireblocks.addresses['31337'])).toBe(1_000_000_000_000n);
	const account = await api('GET', '/v1/vault/accounts/0');
	expect(account.body.assets).toEqual(
		expect.arrayContaining([expect.objectContaining({ id: 'USDC_DEVNET', total: '1000000' })]),
	);
	expect((await api('GET', '/v1/vault/accounts/7')).body).toEqual({
		message: 'Vault account Id was not found',
		code: 1004,
	});
});

test('a signed create holds at PENDING_AUTHORIZATION, and moves the exact amount on chain once approved', async () => {
	const { fireblocks } = devnet;
	const before = await usdcBalance(RECIPIENT);
	const request = transfer('USDC_DEVNET', '12.345678');
	const created = await api('POST', '/v1/transactions', request);
	expect(created.status).toBe(200);
	expect(created.body).toEqual({ id: expect.any(String), status: 'SUBMITTED' });
	const held = await until(
		() => api('GET', `/v1/transactions/${created.body.id}`),
		(answer) => answer.body.status === 'PENDING_AUTHORIZATION',
	);
	expect(held.body).toMatchObject({
		externalTxId: request.externalTxId,
		assetId: 'USDC_DEVNET',
		operation: 'TRANSFER',
		amountInfo: { amount: '12.345678', requestedAmount: '12.345678' },
		sourceAddress: fireblocks.addresses['31337'],
		destinationAddress: RECIPIENT,
		txHash: '',
	});
	expect(await usdcBalance(RECIPIENT)).toBe(before);
	const done = await fireblocks.approve(created.body.id);
	expect(done).toMatchObject({ status: 'COMPLETED', subStatus: 'CONFIRMED' });
	expect(done.txHash).toMatch(/^0x[0-9a-f]{64}$/);
	expect(Number(done.networkFee)).toBeGreaterThan(0);
	expect(await usdcBalance(RECIPIENT)).toBe(before + 12_345_678n);
	const receipt = await devnet.rpc<{ from: string }>('31337', 'eth_getTransactionReceipt', [
		done.txHash,
	]);
	expect(receipt.from.toLowerCase()).toBe(fireblocks.addresses['31337'].toLowerCase());
	const byExternal = await api('GET', `/v1/transactions/external_tx_id/${request.externalTxId}`);
	expect(byExternal.body).toMatchObject({
		id: created.body.id,
		status: 'COMPLETED',
		txHash: done.txHash,
	});
});

test('a native transfer and a rejection', async () => {
	const { fireblocks } = devnet;
	const balance = async () =>
		BigInt(await devnet.rpc<string>('31337', 'eth_getBalance', [RECIPIENT, 'latest']));
	const before = await balance();
	const native = await api(
		'POST',
		'/v1/transactions',
		transfer('ETH_DEVNET', '0.000000000000000123'),
	);
	await until(
		async () => fireblocks.transactions().find((tx) => tx.id === native.body.id)?.status,
		(s) => s === 'PENDING_AUTHORIZATION',
	);
	const approved = await fetch(`${fireblocks.url}/devnet/transactions/${native.body.id}/approve`, {
		method: 'POST',
	});
	expect(approved.status).toBe(200);
	expect(await balance()).toBe(before + 123n);
	const other = await api('POST', '/v1/transactions', transfer('ETH_DEVNET', '1'));
	await until(
		async () => fireblocks.transactions().find((tx) => tx.id === other.body.id)?.status,
		(s) => s === 'PENDING_AUTHORIZATION',
	);
	expect(fireblocks.reject(other.body.id, 'not today')).toMatchObject({
		status: 'REJECTED',
		subStatus: 'REJECTED_BY_USER',
	});
	expect(await balance()).toBe(before + 123n);
});

test('amounts are exact: more decimals than the asset has, or a non-decimal, are refused', async () => {
	for (const amount of ['1.0000001', '1e3', '-1', ''])
		expect(await api('POST', '/v1/transactions', transfer('USDC_DEVNET', amount))).toMatchObject({
			status: 400,
		});
	expect(await api('POST', '/v1/transactions', transfer('NOPE_DEVNET', '1'))).toEqual({
		status: 400,
		body: { message: "Asset doesn't exist", code: 1006 },
	});
});

test('a second create with the same externalTxId is refused as Fireblocks refuses it; externalTxId is required', async () => {
	const { fireblocks } = devnet;
	const request = transfer('USDC_DEVNET', '1');
	expect((await api('POST', '/v1/transactions', request)).status).toBe(200);
	const created = fireblocks.created;
	expect(await api('POST', '/v1/transactions', request)).toEqual({
		status: 400,
		body: {
			message: 'The external tx id that was provided in the request, already exists',
			code: 1438,
		},
	});
	const { externalTxId: _, ...without } = request;
	expect((await api('POST', '/v1/transactions', without)).status).toBe(400);
	expect(fireblocks.created).toBe(created);
	expect((await api('GET', '/v1/transactions/external_tx_id/none-such')).status).toBe(404);
});

test('the same Idempotency-Key answers the first answer and creates nothing more', async () => {
	const { fireblocks } = devnet;
	const key = `key-${Date.now()}`;
	const first = await api(
		'POST',
		'/v1/transactions',
		transfer('USDC_DEVNET', '2'),
		{},
		{ 'idempotency-key': key },
	);
	const created = fireblocks.created;
	const again = await api(
		'POST',
		'/v1/transactions',
		transfer('USDC_DEVNET', '2'),
		{},
		{ 'idempotency-key': key },
	);
	expect(again).toEqual(first);
	// As documented: the key stands for the first answer for 24 h, whatever is sent with it again.
	const other = await api(
		'POST',
		'/v1/transactions',
		transfer('USDC_DEVNET', '3'),
		{},
		{ 'idempotency-key': key },
	);
	expect(other).toEqual(first);
	expect(fireblocks.created).toBe(created);
	expect(
		(
			await api(
				'POST',
				'/v1/transactions',
				transfer('USDC_DEVNET', '2'),
				{},
				{ 'idempotency-key': 'k'.repeat(41) },
			)
		).status,
	).toBe(400);
});

describe('authentication, each failure with Fireblocks’ own answer', () => {
	const uri = '/v1/vault/accounts/0/ETH_DEVNET/addresses_paginated';

	test('a correct token passes', async () => {
		expect((await api('GET', uri)).status).toBe(200);
	});

	test('a body hash of another body', async () => {
		expect(
			await api('POST', '/v1/transactions', transfer('USDC_DEVNET', '1'), { signedBody: '{}' }),
		).toEqual({
			status: 401,
			body: { message: 'Unauthorized: Token was not accepted.', code: -7 },
		});
	});

	test('a reused nonce', async () => {
		expect((await api('GET', uri, undefined, { nonce: 'once-only' })).status).toBe(200);
		expect(await api('GET', uri, undefined, { nonce: 'once-only' })).toEqual({
			status: 401,
			body: { message: 'Unauthorized: Token was not accepted.', code: -7 },
		});
	});

	test('an expired token, a future one and one living longer than 30 s', async () => {
		const now = Math.floor(Date.now() / 1000);
		expect(await api('GET', uri, undefined, { iat: now - 60 })).toEqual({
			status: 401,
			body: { message: 'The request has expired.', code: -10 },
		});
		expect((await api('GET', uri, undefined, { iat: now + 120 })).body.code).toBe(-12);
		expect((await api('GET', uri, undefined, { lifeSeconds: 60 })).body.code).toBe(-5);
	});

	test('a token for another uri, or without the query', async () => {
		expect(await api('GET', uri, undefined, { uri: '/v1/transactions' })).toEqual({
			status: 401,
			body: { message: 'Wrong URL in the JWT', code: -4 },
		});
		expect((await api('GET', `${uri}?limit=1`)).status).toBe(200);
		expect((await api('GET', `${uri}?limit=1`, undefined, { uri })).body).toEqual({
			message: 'Wrong URL in the JWT',
			code: -4,
		});
	});

	test('a token signed with another key, for another user, or none at all', async () => {
		const { generateKeyPairSync } = await import('crypto');
		const other = generateKeyPairSync('rsa', { modulusLength: 2048 })
			.privateKey.export({ type: 'pkcs8', format: 'pem' })
			.toString();
		expect(await api('GET', uri, undefined, { privateKeyPem: other })).toEqual({
			status: 401,
			body: { message: 'invalid signature', code: -1 },
		});
		expect((await api('GET', uri, undefined, { claims: { sub: 'someone-else' } })).body.code).toBe(
			-6,
		);
		const bare = await fetch(`${devnet.fireblocks.url}${uri}`, {
			headers: { 'x-api-key': devnet.fireblocks.apiKey },
		});
		expect(bare.status).toBe(401);
		expect(await bare.json()).toEqual({ message: 'The entire JWT is missing', code: -3 });
	});
});

test('a dropped create answer leaves exactly one transaction, found by its external ID', async () => {
	const { fireblocks } = devnet;
	const request = transfer('USDC_DEVNET', '3');
	const created = fireblocks.created;
	fireblocks.faults.dropCreateAnswers = 1;
	await expect(api('POST', '/v1/transactions', request)).rejects.toThrow();
	expect(fireblocks.created).toBe(created + 1);
	const found = await api('GET', `/v1/transactions/external_tx_id/${request.externalTxId}`);
	expect(found.status).toBe(200);
	expect(found.body.externalTxId).toBe(request.externalTxId);
	expect((await api('POST', '/v1/transactions', request)).body.code).toBe(1438);
	expect(fireblocks.created).toBe(created + 1);
	expect(fireblocks.requests).toContainEqual({
		method: 'POST',
		path: '/v1/transactions',
		status: 0,
	});
});

test('429 with Retry-After and 5xx faults answer before anything is created', async () => {
	const { fireblocks } = devnet;
	const created = fireblocks.created;
	fireblocks.faults.tooManyRequests = 1;
	fireblocks.faults.retryAfterSeconds = 2;
	const limited = await fetch(`${fireblocks.url}/v1/transactions`, { method: 'POST', body: '{}' });
	expect(limited.status).toBe(429);
	expect(limited.headers.get('retry-after')).toBe('2');
	fireblocks.faults.serverErrors = 1;
	fireblocks.faults.serverErrorStatus = 503;
	expect((await api('POST', '/v1/transactions', transfer('USDC_DEVNET', '1'))).status).toBe(503);
	expect(fireblocks.created).toBe(created);
});

test('a CONTRACT_CALL sends the call data with the amount as value, from the vault', async () => {
	const { fireblocks } = devnet;
	const weth = devnet.chains[0].tokens.WETH.address;
	const vault = fireblocks.addresses['31337'];
	const balance = async () =>
		BigInt(
			await devnet.rpc<string>('31337', 'eth_call', [
				{ to: weth, data: ERC20.encodeFunctionData('balanceOf', [vault]) },
				'latest',
			]),
		);
	const before = await balance();
	const created = await api('POST', '/v1/transactions', {
		operation: 'CONTRACT_CALL',
		assetId: 'ETH_DEVNET',
		amount: '0.5',
		source: { type: 'VAULT_ACCOUNT', id: '0' },
		destination: { type: 'ONE_TIME_ADDRESS', oneTimeAddress: { address: weth } },
		extraParameters: {
			contractCallData: new Interface(['function deposit()']).encodeFunctionData('deposit'),
		},
		externalTxId: `call-${Date.now()}`,
	});
	expect(created.status).toBe(200);
	await until(
		async () => fireblocks.transactions().find((tx) => tx.id === created.body.id)?.status,
		(s) => s === 'PENDING_AUTHORIZATION',
	);
	expect(await fireblocks.approve(created.body.id)).toMatchObject({
		status: 'COMPLETED',
		operation: 'CONTRACT_CALL',
	});
	expect(await balance()).toBe(before + 500_000_000_000_000_000n);
});

test('a transfer the chain refuses ends FAILED with no transaction hash', async () => {
	const { fireblocks } = devnet;
	const created = await api('POST', '/v1/transactions', transfer('USDC_DEVNET', '5000000'));
	await until(
		async () => fireblocks.transactions().find((tx) => tx.id === created.body.id)?.status,
		(s) => s === 'PENDING_AUTHORIZATION',
	);
	expect(await fireblocks.approve(created.body.id)).toMatchObject({ status: 'FAILED', txHash: '' });
});

test('the authorization rule: transactions at or below an amount go through without approval', async () => {
	const { fireblocks } = devnet;
	fireblocks.authorization = { hold: 'above', above: { USDC_DEVNET: 5_000_000n } };
	try {
		const small = await api('POST', '/v1/transactions', transfer('USDC_DEVNET', '5'));
		const large = await api('POST', '/v1/transactions', transfer('USDC_DEVNET', '5.000001'));
		const statusOf = (id: string) => async () =>
			fireblocks.transactions().find((tx) => tx.id === id)?.status;
		expect(await until(statusOf(small.body.id), (s) => s === 'COMPLETED')).toBe('COMPLETED');
		expect(await until(statusOf(large.body.id), (s) => s === 'PENDING_AUTHORIZATION')).toBe(
			'PENDING_AUTHORIZATION',
		);
		fireblocks.reject(large.body.id);
		fireblocks.autoApprove = true;
		const any = await api('POST', '/v1/transactions', transfer('USDC_DEVNET', '100'));
		expect(await until(statusOf(any.body.id), (s) => s === 'COMPLETED')).toBe('COMPLETED');
	} finally {
		fireblocks.autoApprove = false;
	}
	expect(fireblocks.authorization).toEqual({ hold: 'all' });
});
