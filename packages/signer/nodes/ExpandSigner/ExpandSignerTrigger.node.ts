import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { credentialNameOf, ledgerOfCredential, turnkeyFamilies } from './trigger/credential';
import { type Custodian, STATUS_RANKS } from './trigger/custodians';
import { credentialTest } from './methods/credentialTest';
import { receiveEvent } from './trigger/receive';
import { recordEvent } from './trigger/record';

const shownFor = (custodian: Custodian) => ({ show: { custodian: [custodian] } });

/** A Turnkey signing credential, shown with Custodian Turnkey and its chain family. */
const turnkeyShown = (credential: string) => ({
	show: {
		custodian: ['turnkey'],
		chainFamily: turnkeyFamilies
			.filter((family) => family.credential === credential)
			.map((family) => family.option.value),
	},
});

const statusOptions = (custodian: Custodian) =>
	Object.keys(STATUS_RANKS[custodian]).map((status) => ({ name: status, value: status }));

const properties: INodeProperties[] = [
	{
		displayName: 'Custodian',
		name: 'custodian',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Fireblocks', value: 'fireblocks' },
			{ name: 'Turnkey', value: 'turnkey' },
		],
		default: 'fireblocks',
		description: 'Whose webhooks this URL receives',
	},
	{
		displayName: 'Chain Family',
		name: 'chainFamily',
		type: 'options',
		noDataExpression: true,
		options: turnkeyFamilies.map((family) => family.option),
		default: String(turnkeyFamilies[0].option.value),
		description:
			'The signing credential whose Key Type is Turnkey: its payout ledger records the events',
		displayOptions: shownFor('turnkey'),
	},
	{
		displayName: 'JWKS URL',
		name: 'jwksUrl',
		type: 'string',
		default: '',
		placeholder: 'https://keys.fireblocks.io/.well-known/jwks.json',
		description:
			"Where the custodian publishes its webhook signing keys. Empty: the custodian's published JWKS for the credential's environment (Fireblocks: the JWKS of the Base URL's region, or on a custom Base URL its well-known JWKS path; Turnkey: the Base URL's webhook key discovery path).",
	},
	{
		displayName: 'Replay Window (Seconds)',
		name: 'replayWindow',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 5400,
		description:
			"How far an event's creation time (its createdAt) may be from now; older or later deliveries are refused. Fireblocks retries a delivery for about 85 minutes.",
		displayOptions: shownFor('fireblocks'),
	},
	{
		displayName: 'Replay Window (Seconds)',
		name: 'replayWindow',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 300,
		description:
			'How far the signed X-Turnkey-Timestamp may be from now; older or later deliveries are refused',
		displayOptions: shownFor('turnkey'),
	},
	{
		displayName: 'Statuses to Emit',
		name: 'statuses',
		type: 'multiOptions',
		options: statusOptions('fireblocks'),
		default: [],
		description:
			'The statuses that start the workflow; none chosen: every new status. Every new status is journalled either way.',
		displayOptions: shownFor('fireblocks'),
	},
	{
		displayName: 'Statuses to Emit',
		name: 'statuses',
		type: 'multiOptions',
		options: statusOptions('turnkey'),
		default: [],
		description:
			'The statuses that start the workflow; none chosen: every new status. Every new status is journalled either way.',
		displayOptions: shownFor('turnkey'),
	},
];

// Not an AI tool: it only receives the custodians' signed events.
export class ExpandSignerTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Expand Signer Trigger',
		name: 'expandSignerTrigger',
		icon: {
			light: 'file:../../icons/expandSigner.svg',
			dark: 'file:../../icons/expandSigner.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["custodian"]}}',
		description:
			"Starts the workflow on a custodian's verified transaction status (Fireblocks, Turnkey): each new status once, in order, journalled",
		defaults: { name: 'Expand Signer Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			// Written out for n8n's linter, which reads the credentials and their testedBy as written; each is
			// tested as the Signer tests it (its Test checks the key, the policy and the ledger locally).
			{
				name: 'expandFireblocksApi',
				required: true,
				testedBy: 'expandFireblocksTest',
				displayOptions: shownFor('fireblocks'),
			},
			{
				name: 'expandSignerApi',
				required: true,
				testedBy: 'expandSignerKeyTest',
				displayOptions: turnkeyShown('expandSignerApi'),
			},
			{
				name: 'expandSolanaKeyApi',
				required: true,
				testedBy: 'expandSolanaKeyTest',
				displayOptions: turnkeyShown('expandSolanaKeyApi'),
			},
			{
				name: 'expandTronKeyApi',
				required: true,
				testedBy: 'expandTronKeyTest',
				displayOptions: turnkeyShown('expandTronKeyApi'),
			},
		],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'custodian' },
		],
		properties,
	};

	methods = { credentialTest };

	webhookMethods = {
		default: {
			// The URL is registered at the custodian by hand; activation only checks the credential's ledger.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const custodian = this.getNodeParameter('custodian') as Custodian;
				const chainFamily = String(this.getNodeParameter('chainFamily', '') ?? '');
				const credentials = await this.getCredentials(credentialNameOf(custodian, chainFamily));
				const ledger = ledgerOfCredential(custodian, credentials);
				if (typeof ledger === 'string') throw new NodeOperationError(this.getNode(), ledger);
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveEvent.call(this);
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await recordEvent.call(this);
	}
}
