import type {
	IAllExecuteFunctions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	RequestHelperFunctions,
} from 'n8n-workflow';

import type { ApiRequest } from './request';
import { EXPAND_API_CREDENTIAL } from '../credentials';
import { connectionError, notJsonError, responseError } from './errors';

/** What the API client needs of a node context: action, trigger and poll contexts all provide it. */
export interface ApiContext {
	getNode(): INode;
	getCredentials<T extends object = ICredentialDataDecryptedObject>(type: string, itemIndex?: number): Promise<T>;
	helpers: Pick<RequestHelperFunctions, 'httpRequest' | 'httpRequestWithAuthentication'>;
}

interface ExpandCredentials {
	apiKey: string;
	baseUrl: string;
	historicalUrl: string;
}

function trimSlash(url: string): string {
	return url.replace(/\/+$/, '');
}

/**
 * Sends one API request with the credential's key and returns the payload: `data` of the
 * {status, msg, data} envelope, or the whole body for unwrapped operations. Every failure
 * becomes a NodeApiError carrying the API's message and status, with the key redacted.
 */
export async function expandApiRequest(
	this: ApiContext,
	request: ApiRequest,
	itemIndex: number,
	unwrapped = false,
): Promise<unknown> {
	const credentials = (await this.getCredentials(EXPAND_API_CREDENTIAL, itemIndex)) as unknown as ExpandCredentials;
	const secret = credentials.apiKey;
	const root = trimSlash(request.host === 'historical' ? credentials.historicalUrl : credentials.baseUrl);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: root + request.path.replace('{apiKey}', encodeURIComponent(secret)),
		qs: request.qs,
		body: request.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};

	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequestWithAuthentication.call(
			this as unknown as IAllExecuteFunctions,
			EXPAND_API_CREDENTIAL,
			options,
		)) as IN8nHttpFullResponse;
	} catch (error) {
		throw connectionError(this.getNode(), error, secret, itemIndex);
	}

	const failed = { statusCode: response.statusCode, body: response.body };
	if (typeof response.body !== 'object' || response.body === null) {
		if (response.statusCode >= 400) throw responseError(this.getNode(), failed, secret, itemIndex);
		throw notJsonError(this.getNode(), failed, secret, itemIndex);
	}
	if (response.statusCode >= 400) throw responseError(this.getNode(), failed, secret, itemIndex);
	if (unwrapped) return response.body;

	const envelope = response.body as IDataObject;
	if (envelope.status !== 200 || !('data' in envelope)) {
		throw responseError(this.getNode(), failed, secret, itemIndex);
	}
	return envelope.data;
}
