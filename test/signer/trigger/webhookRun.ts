/**
 * A custodian's side and n8n's side of a webhook, on 127.0.0.1: a JWKS server with keys made here,
 * events signed as Fireblocks and Turnkey sign them, and a receiver that hands each real HTTP request
 * (its raw body kept, as n8n's webhook server keeps it) to Expand Signer Trigger through n8n-core's
 * WebhookContext, then runs the execution n8n would start through WorkflowExecute.
 */
import { prepareEngine } from '../../helpers/n8n';

import { generateKeyPairSync, type KeyObject, randomUUID, sign } from 'node:crypto';
import {
	createServer,
	type IncomingMessage,
	request,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

import { Container } from '@n8n/di';
import { ExecutionLifecycleHooks, WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeTypes,
	IRunExecutionData,
	IWebhookData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { createRunExecutionData, NodeHelpers, Workflow } from 'n8n-workflow';

import { ExpandSignerTrigger } from '../../../packages/signer/nodes/ExpandSigner/ExpandSignerTrigger.node.js';

void Container;

export const TRIGGER_TYPE = 'n8n-nodes-expand-network-signer.expandSignerTrigger';
const trigger = new ExpandSignerTrigger();
const nodeTypes: INodeTypes = {
	getByName: () => trigger,
	getByNameAndVersion: () => NodeHelpers.getVersionedNodeType(trigger, 1),
	getKnownTypes: () => ({}),
};

async function listen(server: Server): Promise<string> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The custodian's published keys: RSA (Fireblocks) and Ed25519 (Turnkey), rotated at will. */
export class JwksServer {
	private server?: Server;
	url = '';
	keys: Array<{ kid: string; jwk: IDataObject }> = [];
	fetches = 0;

	async start(): Promise<this> {
		this.server = createServer((_req, res) => {
			this.fetches++;
			res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'max-age=3600' });
			res.end(JSON.stringify({ keys: this.keys.map(({ jwk }) => jwk) }));
		});
		this.url = `${await listen(this.server)}/.well-known/jwks.json`;
		return this;
	}

	publish(kid: string, publicKey: KeyObject, extra: IDataObject): void {
		this.keys.push({
			kid,
			jwk: { ...(publicKey.export({ format: 'jwk' }) as IDataObject), kid, use: 'sig', ...extra },
		});
	}

	async stop(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise((resolve) => this.server?.close(resolve));
	}
}

export function rsaKeys() {
	return generateKeyPairSync('rsa', { modulusLength: 2048 });
}
export function edKeys() {
	return generateKeyPairSync('ed25519');
}

/** A Fireblocks v2 delivery: the body and its detached JWS (RS512, kid), as Fireblocks signs it. */
export function fireblocksDelivery(
	body: IDataObject,
	kid: string,
	privateKey: KeyObject,
): { body: string; headers: Record<string, string> } {
	const text = JSON.stringify(body);
	const header = Buffer.from(JSON.stringify({ alg: 'RS512', kid, typ: 'JWT' })).toString(
		'base64url',
	);
	const input = `${header}.${Buffer.from(text).toString('base64url')}`;
	const signature = sign('sha512', Buffer.from(input), privateKey).toString('base64url');
	return { body: text, headers: { 'Fireblocks-Webhook-Signature': `${header}..${signature}` } };
}

export function fireblocksEventBody(
	transactionId: string,
	status: string,
	options: { eventId?: string; createdAt?: number; externalTxId?: string } = {},
): IDataObject {
	return {
		id: options.eventId ?? randomUUID(),
		resourceId: transactionId,
		workspaceId: 'workspace-1',
		eventType: status === 'SUBMITTED' ? 'transaction.created' : 'transaction.status.updated',
		createdAt: options.createdAt ?? Date.now(),
		data: {
			id: transactionId,
			externalTxId: options.externalTxId ?? `payout-${transactionId}`,
			status,
			subStatus: '',
			txHash: status === 'COMPLETED' || status === 'CONFIRMING' ? `0x${'ab'.repeat(32)}` : '',
			assetId: 'ETH_DEVNET',
			amount: 12.5,
			amountInfo: { amount: '12.5', requestedAmount: '12.5' },
			destinationAddress: '0x000000000000000000000000000000000000dEaD',
		},
	};
}

/** A Turnkey delivery: Ed25519 over v1.ed25519.<kid>.<timestamp ms>.<event id>.<raw body>, signature in hex. */
export function turnkeyDelivery(
	body: IDataObject,
	kid: string,
	privateKey: KeyObject,
	options: { eventId?: string; timestampMs?: number } = {},
): { body: string; headers: Record<string, string> } {
	const text = JSON.stringify(body);
	const eventId = options.eventId ?? randomUUID();
	const timestamp = String(options.timestampMs ?? Date.now());
	const signature = sign(
		null,
		Buffer.from(`v1.ed25519.${kid}.${timestamp}.${eventId}.${text}`),
		privateKey,
	);
	return {
		body: text,
		headers: {
			'X-Turnkey-Signature': signature.toString('hex'),
			'X-Turnkey-Signature-Key-Id': kid,
			'X-Turnkey-Signature-Algorithm': 'ed25519',
			'X-Turnkey-Signature-Version': 'v1',
			'X-Turnkey-Timestamp': timestamp,
			'X-Turnkey-Event-Id': eventId,
			'X-Turnkey-Event-Type': 'ACTIVITY_UPDATES',
			'X-Turnkey-Organization-Id': 'org-1',
		},
	};
}

export function turnkeyEventBody(activityId: string, status: string): IDataObject {
	return {
		type: 'ACTIVITY_UPDATES',
		data: {
			activity: {
				id: activityId,
				organizationId: 'org-1',
				status,
				type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
				fingerprint: 'sha256:0001',
			},
		},
	};
}

/** What one receiver (one n8n process) saw: the HTTP answers, emitted items, warnings. */
export interface Receiver {
	url: string;
	emitted: INodeExecutionData[][];
	executions: number;
	warnings: string[];
	stop(): Promise<void>;
}

class Credentials {
	constructor(private readonly store: Record<string, ICredentialDataDecryptedObject>) {}
	async getDecrypted(_a: unknown, _n: unknown, type: string) {
		const data = this.store[type];
		if (!data) throw new Error(`No credentials of type ${type}`);
		return { ...data };
	}
	getParentTypes() {
		return [];
	}
	getCredentialsProperties() {
		return [];
	}
	async authenticate(_c: unknown, _t: string, options: unknown) {
		return options;
	}
	async preAuthentication() {
		return undefined;
	}
	isCredentialUsableByNode() {
		return true;
	}
}

let executions = 0;

/** An n8n process's webhook receiver for an active workflow of one Expand Signer Trigger. */
export async function startReceiver(
	parameters: IDataObject,
	credentials: Record<string, ICredentialDataDecryptedObject>,
): Promise<Receiver> {
	const node: INode = {
		id: 'trigger-node',
		name: 'Custodian Events',
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
		credentials: Object.fromEntries(
			Object.keys(credentials).map((type) => [type, { id: type, name: type }]),
		),
	};
	const workflowData = {
		id: 'custody-workflow',
		name: 'custody',
		nodes: [node],
		connections: {},
		active: true,
		settings: { executionOrder: 'v1' as const },
	};
	const receiver: Receiver = {
		url: '',
		emitted: [],
		executions: 0,
		warnings: [],
		stop: async () => undefined,
	};
	const additional = (
		req?: IncomingMessage,
		res?: ServerResponse,
	): IWorkflowExecuteAdditionalData => {
		const executionId = `webhook-execution-${++executions}`;
		return {
			executionId,
			hooks: new ExecutionLifecycleHooks('webhook', executionId, workflowData as never),
			credentialsHelper: new Credentials(credentials),
			httpRequest: req,
			httpResponse: res,
			variables: {},
			restApiUrl: 'http://127.0.0.1:5678/rest',
			instanceBaseUrl: 'http://127.0.0.1:5678/',
			webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
			webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
			webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
			currentNodeExecutionIndex: 0,
		} as unknown as IWorkflowExecuteAdditionalData;
	};
	const handle = async (
		req: IncomingMessage & { rawBody?: Buffer; body?: unknown },
		res: ServerResponse,
	) => {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		req.rawBody = Buffer.concat(chunks);
		try {
			req.body = JSON.parse(req.rawBody.toString('utf8'));
		} catch {
			req.body = {};
		}
		const workflow = new Workflow({ ...workflowData, nodeTypes });
		const webhookData = {
			httpMethod: 'POST',
			node: node.name,
			path: 'custodian',
			webhookDescription: trigger.description.webhooks![0],
			workflowId: workflow.id,
		} as unknown as IWebhookData;
		const context = new WebhookContext(
			workflow,
			node,
			additional(req, res),
			'webhook',
			webhookData,
			[],
			null,
		);
		const log = () => undefined;
		Object.defineProperty(context, 'logger', {
			value: {
				warn: (message: string) => receiver.warnings.push(message),
				info: log,
				debug: log,
				error: log,
			},
		});
		const result = await trigger.webhook.call(context);
		if (result.workflowData) {
			receiver.executions++;
			const runExecutionData: IRunExecutionData = createRunExecutionData({
				executionData: {
					nodeExecutionStack: [{ node, data: { main: result.workflowData }, source: null }],
				},
			});
			prepareEngine();
			const run = await new WorkflowExecute(
				additional(),
				'webhook',
				runExecutionData,
			).processRunExecutionData(workflow);
			const output = run.data.resultData.runData[node.name]?.[0];
			if (run.data.resultData.error) throw run.data.resultData.error;
			const items = output?.data?.main?.[0] ?? [];
			if (items.length) receiver.emitted.push(items);
			// n8n answers "onReceived" at once; here after the execution, so a test sees what it did.
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ message: 'Workflow was started' }));
		} else if (!res.writableEnded) {
			res.writeHead(200);
			res.end();
		}
	};
	const server = createServer((req, res) => {
		handle(req, res).catch((error: Error) => {
			receiver.warnings.push(`receiver error: ${error.message}`);
			if (!res.headersSent) res.writeHead(500);
			res.end();
		});
	});
	receiver.url = await listen(server);
	receiver.stop = async () => {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	};
	return receiver;
}

/** Posts a delivery; the HTTP status and body once n8n's side has finished with it. */
export async function deliver(
	url: string,
	delivery: { body: string; headers: Record<string, string> },
): Promise<{ status: number; body: string }> {
	return await new Promise((resolve, reject) => {
		const req = request(
			`${url}/webhook/custodian`,
			{ method: 'POST', headers: { 'Content-Type': 'application/json', ...delivery.headers } },
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () =>
					resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
				);
			},
		);
		req.on('error', reject);
		req.end(delivery.body);
	});
}
