import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

export class ExpandSafeApi implements ICredentialType {
	name = 'expandSafeApi';

	displayName = 'Safe API';

	icon: Icon = { light: 'file:../icons/expand.svg', dark: 'file:../icons/expand.dark.svg' };

	documentationUrl = 'https://docs.safe.global/core-api/transaction-service-overview';

	properties: INodeProperties[] = [
		{
			displayName: 'Service URL',
			name: 'serviceUrl',
			type: 'string',
			default: 'https://api.safe.global/tx-service/eth',
			required: true,
			placeholder: 'https://api.safe.global/tx-service/eth',
			description:
				"Base URL of the Safe Transaction Service of the Safe's chain, without /api: Safe's hosted service (https://api.safe.global/tx-service/ followed by the chain's short name: eth, base, arb1, oeth, pol, ...) or a self-hosted one. The nodes append /api/v1/... paths. The Safe Queue Service is not supported yet (docs/signer.md, \"Payouts through a Safe\").",
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"Key from Safe's developer dashboard, sent as Authorization: Bearer. Safe's hosted service requires one; leave empty for a self-hosted service without keys.",
		},
		{
			displayName: 'Max Requests per Second',
			name: 'maxRequestsPerSecond',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: 5,
			description:
				"Requests per second this key may send at most, shared by every node and execution in this n8n process that loads the same package. Safe's free tier answers 429 above 5 per second. 0: no ceiling. Either way the pace also follows the service: it is learned from 429 answers and a Retry-After is obeyed.",
		},
		{
			displayName: 'RPC URL',
			name: 'rpcUrl',
			type: 'string',
			default: '',
			placeholder: 'https://your-node.example/key',
			description:
				"JSON-RPC node of the Safe's chain that the Expand Trigger (Safe Transaction Executed) reads the Safe's nonce, execution receipts and transaction hashes from. It must answer the trigger's chain ID. Empty: the node the Expand API names. Expand Signer's Safe operations use the signing credential's RPC URLs instead.",
		},
	];

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const apiKey = String(credentials.apiKey ?? '');
		if (apiKey)
			requestOptions.headers = { ...requestOptions.headers, Authorization: `Bearer ${apiKey}` };
		return requestOptions;
	}

	// The service's own description: no Safe needed, and it proves the URL and the key.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.serviceUrl.replace(/\\/+$/, "")}}',
			url: '/api/v1/about/',
			method: 'GET',
		},
	};
}
