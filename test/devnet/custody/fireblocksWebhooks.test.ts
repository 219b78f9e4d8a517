/** The Fireblocks stand-in's webhooks v2: signed detached JWS checked against its JWKS, retries, and the delivery faults. */
import { type Server, createServer } from 'http';
import type { AddressInfo } from 'net';

import type { Devnet } from '../../../devnet';
import {
	signFireblocksRequest,
	signWebhookBody,
	verifyWebhookSignature,
} from '../../../devnet/custody/fireblocks';
import { readBody } from '../../../devnet/readBody';
import { useDevnet } from '../../helpers/useDevnet';

let devnet: Devnet;
useDevnet((started) => (devnet = started));

interface Received {
	body: string;
	signature: string;
}

let server: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Statuses the receiver answers next (then 200). */
const answers: number[] = [];

beforeAll(async () => {
	server = createServer((request, response) => {
		void readBody(request).then((body) => {
			received.push({ body, signature: String(request.headers['fireblocks-webhook-signature']) });
			response.writeHead(answers.shift() ?? 200);
			response.end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

let counter = 0;
async function createTransfer(): Promise<string> {
	const { fireblocks } = devnet;
	const body = JSON.stringify({
		operation: 'TRANSFER',
		assetId: 'ETH_DEVNET',
		amount: '0.001',
		source: { type: 'VAULT_ACCOUNT', id: '0' },
		destination: {
			type: 'ONE_TIME_ADDRESS',
			oneTimeAddress: { address: '0x00000000000000000000000000000000000f1b02' },
		},
		externalTxId: `hook-${Date.now()}-${counter++}`,
	});
	const response = await fetch(`${fireblocks.url}/v1/transactions`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-api-key': fireblocks.apiKey,
			authorization: `Bearer ${signFireblocksRequest({ apiKey: fireblocks.apiKey, privateKeyPem: fireblocks.privateKeyPem, uri: '/v1/transactions', body })}`,
		},
		body,
	});
	expect(response.status).toBe(200);
	return ((await response.json()) as { id: string }).id;
}

async function heldThenApproved(id: string): Promise<void> {
	const { fireblocks } = devnet;
	for (let attempt = 0; attempt < 100; attempt++) {
		if (fireblocks.transactions().find((tx) => tx.id === id)?.status === 'PENDING_AUTHORIZATION')
			break;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	await fireblocks.approve(id);
	await fireblocks.webhooksIdle();
}

const statusesOf = (events: Received[], id: string) =>
	events
		.map((event) => JSON.parse(event.body))
		.filter((event) => event.resourceId === id)
		.map((event) => event.data.status);

test('every status change is POSTed as a v2 event whose detached JWS verifies against the served JWKS; a tampered body does not', async () => {
	const { fireblocks } = devnet;
	fireblocks.subscribe(receiverUrl);
	received.length = 0;
	const id = await createTransfer();
	await heldThenApproved(id);
	expect(statusesOf(received, id)).toEqual([
		'SUBMITTED',
		'PENDING_AUTHORIZATION',
		'PENDING_SIGNATURE',
		'BROADCASTING',
		'CONFIRMING',
		'COMPLETED',
	]);
	const jwks = (await (await fetch(fireblocks.jwksUrl)).json()) as typeof fireblocks.jwks;
	expect(jwks).toEqual(fireblocks.jwks);
	for (const event of received) {
		expect(event.signature).toMatch(/^[\w-]+\.\.[\w-]+$/);
		expect(verifyWebhookSignature(event.body, event.signature, jwks)).toBe(true);
	}
	const [first, , , , , last] = received;
	expect(JSON.parse(first.body)).toMatchObject({
		id: expect.any(String),
		eventType: 'transaction.created',
		resourceId: id,
		workspaceId: expect.any(String),
		createdAt: expect.any(Number),
		data: { id, status: 'SUBMITTED' },
	});
	expect(JSON.parse(last.body)).toMatchObject({
		eventType: 'transaction.status.updated',
		data: { id, status: 'COMPLETED', txHash: expect.stringMatching(/^0x/) },
	});
	const header = JSON.parse(Buffer.from(last.signature.split('.')[0], 'base64url').toString());
	expect(header).toEqual({ alg: 'RS512', kid: jwks.keys[0].kid });
	const tampered = last.body.replace('"COMPLETED"', '"FAILED"');
	expect(verifyWebhookSignature(tampered, last.signature, jwks)).toBe(false);
	// The pure signer makes what the stand-in sends.
	expect(signWebhookBody(last.body, { privateKeyPem: fireblocks.webhookPrivateKeyPem })).toBe(
		last.signature,
	);
});

test('a non-2xx answer is retried a few times, not forever', async () => {
	const { fireblocks } = devnet;
	received.length = 0;
	answers.push(500, 503, 500, 500, 500, 500);
	const id = await createTransfer();
	await fireblocks.webhooksIdle();
	const created = fireblocks.delivered.filter(
		(delivery) =>
			delivery.eventType === 'transaction.created' && JSON.parse(delivery.body).resourceId === id,
	);
	expect(created.map((delivery) => [delivery.attempt, delivery.status])).toEqual([
		[1, 500],
		[2, 503],
		[3, 500],
		[4, 500],
	]);
	answers.length = 0;
	await heldThenApproved(id);
});

test('faults: a duplicate, a replay of an old event, an event out of order and a bad signature', async () => {
	const { fireblocks } = devnet;
	received.length = 0;
	const oldest = fireblocks.delivered.find((delivery) => delivery.kind === 'event')!;
	fireblocks.webhookFaults.duplicate = 1;
	const id = await createTransfer();
	await fireblocks.webhooksIdle();
	expect(received.map((event) => JSON.parse(event.body).id)).toEqual([
		JSON.parse(received[0].body).id,
		JSON.parse(received[0].body).id,
		expect.any(String),
	]);
	received.length = 0;
	fireblocks.webhookFaults.replay = 1;
	fireblocks.webhookFaults.outOfOrder = 1;
	await fireblocks.approve(id);
	await fireblocks.webhooksIdle();
	const statuses = received.map((event) => JSON.parse(event.body).data.status);
	// PENDING_SIGNATURE held back and sent after BROADCASTING, which is followed by the replay of the oldest event.
	expect(statuses.slice(0, 3)).toEqual([
		'BROADCASTING',
		JSON.parse(oldest.body).data.status,
		'PENDING_SIGNATURE',
	]);
	expect(received[1].body).toBe(oldest.body);
	expect(received[1].signature).toBe(oldest.signature);
	received.length = 0;
	fireblocks.webhookFaults.badSignature = 1;
	await createTransfer();
	await fireblocks.webhooksIdle();
	expect(verifyWebhookSignature(received[0].body, received[0].signature, fireblocks.jwks)).toBe(
		false,
	);
	expect(verifyWebhookSignature(received[1].body, received[1].signature, fireblocks.jwks)).toBe(
		true,
	);
});
