import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	FIREBLOCKS_SIGNATURE_HEADER,
	verifyFireblocksWebhook,
} from '../custody/fireblocks/webhook';
import { TURNKEY_HEADERS, verifyTurnkeyWebhook } from '../custody/turnkey/webhook';
import type { WebKey } from '../custody/webKeys';
import { credentialNameOf, ledgerOfCredential } from './credential';
import {
	type Custodian,
	type CustodianEvent,
	defaultJwksUrl,
	fireblocksEvent,
	turnkeyEvent,
} from './custodians';
import { jwksKey } from './jwks';

/** The request as n8n's webhook server hands it: the body's bytes kept as they came (n8n 1.x and 2.x). */
type RawRequest = ReturnType<IWebhookFunctions['getRequestObject']> & {
	rawBody?: Buffer;
	readRawBody?: () => Promise<void>;
};

/** Answers the custodian without starting an execution. */
function answer(
	context: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	const res = context.getResponseObject();
	res.writeHead(status, { 'Content-Type': 'application/json' });
	res.end(JSON.stringify(body));
	return { noWebhookResponse: true };
}

/** Refuses a delivery: 401, no execution, a warning naming the reason (never the body). */
function refuse(
	context: IWebhookFunctions,
	custodian: Custodian,
	reason: string,
): IWebhookResponseData {
	context.logger.warn(`Expand Signer Trigger refused a ${custodian} webhook: ${reason}`, {
		node: context.getNode().name,
	});
	return answer(context, 401, { error: 'The webhook signature could not be verified' });
}

/**
 * A delivery: its signature checked on the raw body against the custodian's JWKS, its time against
 * the replay window, before anything else is read; a genuine transaction event becomes the one item
 * the node's execute step records in the payout ledger (record.ts).
 */
export async function receiveEvent(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const custodian = this.getNodeParameter('custodian') as Custodian;
	const chainFamily = String(this.getNodeParameter('chainFamily', '') ?? '');
	const credentials = await this.getCredentials(credentialNameOf(custodian, chainFamily));
	const ledger = ledgerOfCredential(custodian, credentials);
	if (typeof ledger === 'string') {
		this.logger.warn(`Expand Signer Trigger cannot take a ${custodian} webhook: ${ledger}`);
		return answer(this, 503, { error: 'The receiver has no payout ledger configured' });
	}
	const jwksUrl =
		String(this.getNodeParameter('jwksUrl', '') ?? '').trim() ||
		defaultJwksUrl(custodian, credentials);
	const windowMs = Number(this.getNodeParameter('replayWindow', 300)) * 1000;

	const req = this.getRequestObject() as RawRequest;
	if (!Buffer.isBuffer(req.rawBody) && typeof req.readRawBody === 'function')
		await req.readRawBody();
	const rawBody = req.rawBody;
	if (!Buffer.isBuffer(rawBody))
		return refuse(
			this,
			custodian,
			"the request's raw body is not available, so its signature cannot be checked",
		);
	const headers = this.getHeaderData() as Record<string, string | string[] | undefined>;
	let jwksFailure: string | undefined;
	const keyOf = async (kid: string) => {
		const found = await jwksKey(this.helpers, jwksUrl, kid);
		if (found && typeof found.failure === 'string') {
			jwksFailure = found.failure;
			return undefined;
		}
		return found as WebKey | undefined;
	};

	let verdict: { ok: true; timestampMs?: number; eventId?: string } | { ok: false; reason: string };
	try {
		if (custodian === 'fireblocks') {
			const header = headers[FIREBLOCKS_SIGNATURE_HEADER];
			verdict = await verifyFireblocksWebhook(
				rawBody,
				Array.isArray(header) ? header.join(',') : header,
				keyOf,
			);
		} else verdict = await verifyTurnkeyWebhook(rawBody, headers, keyOf);
	} catch (error) {
		throw new NodeOperationError(this.getNode(), error as Error);
	}
	if (!verdict.ok) return refuse(this, custodian, jwksFailure ?? verdict.reason);

	let body: IDataObject;
	try {
		body = JSON.parse(rawBody.toString('utf8')) as IDataObject;
		if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error();
	} catch {
		return refuse(this, custodian, 'the signed body is not a JSON object');
	}
	const event: CustodianEvent =
		custodian === 'fireblocks'
			? fireblocksEvent(body)
			: turnkeyEvent(body, verdict.eventId ?? '', String(headers[TURNKEY_HEADERS.eventType] ?? ''));
	if (!event.eventId) return refuse(this, custodian, 'the event has no ID');

	const sentAt = custodian === 'turnkey' ? verdict.timestampMs : event.createdAtMs;
	if (sentAt !== undefined && Math.abs(Date.now() - sentAt) > windowMs)
		return refuse(
			this,
			custodian,
			`event ${event.eventId} is outside the replay window (${Math.round((Date.now() - sentAt) / 1000)} s from now, window ${windowMs / 1000} s)`,
		);

	// Genuine, but about no transaction or activity (a vault or wallet event): acknowledged, nothing runs.
	if (!event.transactionId || !event.status) return answer(this, 200, { received: true });
	return { workflowData: [[{ json: event as unknown as IDataObject }]] };
}
