import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	INode,
	Logger,
	RequestHelperFunctions,
} from 'n8n-workflow';

import { EXPAND_API_CREDENTIAL } from '../credentials';
import { ComputeBudget } from './budget';
import { pacerFor, type Pacer } from './pacer';
import { DEFAULT_RETRY, type RetrySettings } from './retry';

/** What the API client needs of a node context: action, trigger and poll contexts all provide it. */
export interface ApiContext {
	getNode(): INode;
	getCredentials<T extends object = ICredentialDataDecryptedObject>(
		type: string,
		itemIndex?: number,
	): Promise<T>;
	helpers: Pick<RequestHelperFunctions, 'httpRequest' | 'httpRequestWithAuthentication'>;
	logger?: Logger;
	getExecutionCancelSignal?(): AbortSignal | undefined;
}

export interface ExpandCredentials {
	apiKey: string;
	baseUrl: string;
	historicalUrl: string;
	/** Empty or 0: no limit. */
	maxRequestsPerSecond?: number | string;
}

/** The credential as read once, with what is derived from it. */
export interface ReadCredential {
	data: ExpandCredentials;
	/** Handed to n8n's request helper so it does not decrypt the credential again per request. */
	decrypted: ICredentialsDecrypted;
	perSecond: number | undefined;
	pacer: Pacer;
}

export interface SessionSettings {
	retry?: Partial<RetrySettings>;
	/** Compute units the session may spend; no limit when undefined. */
	maxComputeUnits?: number;
	/** Per-request timeout in ms; n8n's default when undefined. */
	timeoutMs?: number;
}

/** The requests of one node execution: one credential read, one retry policy, one budget. */
export interface ApiSession {
	credential: Promise<ReadCredential>;
	retry: RetrySettings;
	budget: ComputeBudget;
	timeoutMs?: number;
}

const sessions = new WeakMap<object, ApiSession>();

function perSecondOf(value: unknown): number | undefined {
	const number = Number(value);
	return value !== '' && Number.isFinite(number) && number > 0 ? number : undefined;
}

async function readCredential(context: ApiContext, itemIndex: number): Promise<ReadCredential> {
	const data = await context.getCredentials<ExpandCredentials>(EXPAND_API_CREDENTIAL, itemIndex);
	const reference = context.getNode().credentials?.[EXPAND_API_CREDENTIAL];
	return {
		data,
		decrypted: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: EXPAND_API_CREDENTIAL,
			data: data as unknown as ICredentialDataDecryptedObject,
		},
		perSecond: perSecondOf(data.maxRequestsPerSecond),
		pacer: pacerFor(data.baseUrl, data.apiKey),
	};
}

function createSession(
	context: ApiContext,
	settings: SessionSettings,
	itemIndex: number,
): ApiSession {
	const credential = readCredential(context, itemIndex);
	// Read errors surface at the first request; this keeps an unawaited rejection from being reported twice.
	credential.catch(() => undefined);
	return {
		credential,
		retry: { ...DEFAULT_RETRY, ...settings.retry },
		budget: new ComputeBudget(settings.maxComputeUnits),
		timeoutMs: settings.timeoutMs,
	};
}

/**
 * Opens the session of a node execution: every expandApiRequest made with this context from now
 * on shares its credential read, retry settings and compute-unit budget.
 */
export function openApiSession(context: ApiContext, settings: SessionSettings = {}): ApiSession {
	const session = createSession(context, settings, 0);
	sessions.set(context, session);
	return session;
}

/** The context's session, or a one-request session with the defaults (triggers, the chain client). */
export function sessionOf(context: ApiContext, itemIndex: number): ApiSession {
	return sessions.get(context) ?? createSession(context, {}, itemIndex);
}
