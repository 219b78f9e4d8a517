import type {
	ICredentialDataDecryptedObject,
	IHttpRequestOptions,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class ExpandApi implements ICredentialType {
	name = 'expandApi';

	displayName = 'Expand API';

	icon: Icon = { light: 'file:../icons/expand.svg', dark: 'file:../icons/expand.dark.svg' };

	documentationUrl = 'https://docs.expand.network/';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The key issued on the expand.network account page (or by Blockdaemon for its expand.network service). It is sent in the x-api-key header (X-API-Key: header names are case-insensitive).',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.expand.network',
			description:
				'Main API address. Change it for a self-hosted gateway, the local devnet, or expand.network by Blockdaemon (https://svc.blockdaemon.com/defi/v1). A path is kept: every request goes below it.',
		},
		{
			displayName: 'Historical URL',
			name: 'historicalUrl',
			type: 'string',
			default: 'https://historicallp.api.expand.network',
			description: 'Address that serves the historical operations (getblock, getapprovaldata)',
		},
		{
			displayName: 'Stream URL',
			name: 'streamUrl',
			type: 'string',
			default: 'wss://pricediscovery.expand.network',
			description: 'WebSocket address of the ticker-price stream, used by the Expand Trigger',
		},
		{
			displayName: 'Max Requests per Second',
			name: 'maxRequestsPerSecond',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: 0,
			description:
				"Requests per second this key may send at most, shared by Expand, Expand Trigger and every execution in this n8n process (Expand Signer, a separate package, paces its own few calls). 0 or empty: no ceiling. Either way the pace also follows the API: it is learned from 429 answers and a Retry-After is obeyed. In queue mode each worker paces on its own: divide the plan's rate by the number of workers.",
		},
	];

	// A function rather than a generic {{$credentials.apiKey}} rule: n8n evaluates a rule's expression on
	// every request, which was the largest share of the node's CPU time per item at volume.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		requestOptions.headers = { ...requestOptions.headers, 'x-api-key': String(credentials.apiKey) };
		return requestOptions;
	}

	// The usage report costs no compute units, so it is the cheapest call that proves the key works.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '=/key/usage-details/{{encodeURIComponent($credentials.apiKey)}}',
			method: 'GET',
		},
	};
}
