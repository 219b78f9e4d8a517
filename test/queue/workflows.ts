/**
 * The workflows of the queue-mode test, built here (not JSON files) so each reads as what it does.
 * Every one reports `$env.EXPAND_QUEUE_INSTANCE` (main, worker-1, worker-2): which process ran it.
 */
import { EXPAND_CREDENTIAL } from '../../playground/prepare';

type Node = {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
};

/** The signing key with its payout ledger in PostgreSQL: no folder, so every process has only its own. */
export const SIGNER_LEDGER_CREDENTIAL = {
	id: 'expandSignerQueue01',
	name: 'Expand Signing Key (devnet mnemonic, PostgreSQL ledger)',
	type: 'expandSignerApi',
};
/** The same key with its payout ledger in the folder every process shares. */
export const SIGNER_FOLDER_CREDENTIAL = {
	id: 'expandSignerQueue02',
	name: 'Expand Signing Key (devnet mnemonic, shared ledger folder)',
	type: 'expandSignerApi',
};
/** The same key, PostgreSQL ledger, and a Max Per Day of 1 ETH on the devnet chain. */
export const SIGNER_BUDGET_CREDENTIAL = {
	id: 'expandSignerQueue03',
	name: 'Expand Signing Key (devnet mnemonic, PostgreSQL ledger, Max Per Day 1 ETH)',
	type: 'expandSignerApi',
};

const signerCredentials = (credential: { id: string; name: string }) => ({
	expandSignerApi: { id: credential.id, name: credential.name },
	...expandApi(),
});
export const PACED_CREDENTIAL = {
	id: 'expandPacedKey01',
	name: 'Expand API (paced)',
	type: 'expandApi',
};

const expandApi = (credential: { id: string; name: string } = EXPAND_CREDENTIAL) => ({
	expandApi: { id: credential.id, name: credential.name },
});

function workflow(id: string, name: string, nodes: Node[]) {
	const connections: Record<
		string,
		{ main: Array<Array<{ node: string; type: 'main'; index: 0 }>> }
	> = {};
	nodes.slice(0, -1).forEach(
		(node, index) =>
			(connections[node.name] = {
				main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]],
			}),
	);
	return {
		id,
		name,
		active: false,
		nodes: nodes.map((node, index) => ({
			id: `${id}-${index}`,
			position: [index * 220, 0],
			...node,
		})),
		connections,
		settings: {
			executionOrder: 'v1',
			saveDataSuccessExecution: 'all',
			saveDataErrorExecution: 'all',
		},
	};
}

/**
 * Webhooks answer at once ("Workflow was started"); the test reads the outcome from Postgres. (With
 * "When Last Node Finishes", n8n 2.8.4's main in queue mode left 2 of 200 requests unanswered although
 * their executions had succeeded on the workers.)
 */
function webhook(path: string, method: 'GET' | 'POST'): Node {
	return {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: path,
		parameters: { httpMethod: method, path, responseMode: 'onReceived', options: {} },
	};
}

/** The last node: a Set node with the given fields (expressions) and who ran the execution, which the test reads from Postgres. */
/** Sends the signed transaction of each item on chain 31337. */
const send: Node = {
	name: 'Send',
	type: 'n8n-nodes-expand-network.expand',
	typeVersion: 1,
	parameters: {
		resource: 'chain',
		operation: 'sendtransaction',
		chainId: '31337',
		rawTransaction: '={{ $json.rawTransaction }}',
	},
	credentials: expandApi(),
};

function report(fields: Record<string, string>): Node {
	const assignments = Object.entries({
		...fields,
		instance: '={{ $env.EXPAND_QUEUE_INSTANCE }}',
		executionId: '={{ $execution.id }}',
	}).map(([name, value], index) => ({
		id: `field-${index}`,
		name,
		value,
		type: 'string',
	}));
	return {
		name: 'Report',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: { assignments: { assignments }, options: {} },
	};
}

function postTo(path: string, body: string): Node {
	return {
		name: 'Post to collector',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: `={{ $env.EXPAND_QUEUE_COLLECTOR }}/${path}`,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: body,
			options: {},
		},
	};
}

/** GET /webhook/expand-queue-balance?chainId&address&tokenAddress → the token balance through the Expand node. */
export const BALANCE_ID = 'expandQueueBalance';
export const balanceWorkflow = (
	credential = EXPAND_CREDENTIAL,
	id = BALANCE_ID,
	path = 'expand-queue-balance',
) =>
	workflow(id, `Queue test: token balance by webhook (${credential.name})`, [
		webhook(path, 'GET'),
		{
			name: 'Balance',
			type: 'n8n-nodes-expand-network.expand',
			typeVersion: 1,
			parameters: {
				resource: 'chain',
				operation: 'getbalance',
				chainId: '={{ $json.query.chainId }}',
				address: '={{ $json.query.address }}',
				additionalFields: { tokenAddress: '={{ $json.query.tokenAddress }}' },
			},
			credentials: expandApi(credential),
		},
		report({
			balance: '={{ $json.balance }}',
			chainId: "={{ $('Webhook').item.json.query.chainId }}",
			address: "={{ $('Webhook').item.json.query.address }}",
			tokenAddress: "={{ $('Webhook').item.json.query.tokenAddress ?? '' }}",
		}),
	]);

export const PACED_ID = 'expandQueuePaced';
export const pacedWorkflow = () =>
	balanceWorkflow(PACED_CREDENTIAL, PACED_ID, 'expand-queue-paced');

/** Every block of chain 31338, one execution per poll, each block posted to the collector. */
export const BLOCKS_ID = 'expandQueueBlocks';
export const blocksWorkflow = () =>
	workflow(BLOCKS_ID, 'Queue test: every block of chain 31338 to the collector', [
		{
			name: 'New blocks',
			type: 'n8n-nodes-expand-network.expandTrigger',
			typeVersion: 1,
			parameters: {
				event: 'newBlock',
				chainId: '31338',
				pollIntervalSeconds: 1,
				output: 'block',
				options: {},
			},
			credentials: expandApi(),
		},
		postTo(
			'block',
			'={{ JSON.stringify({ number: Number($json.number), hash: $json.hash, parentHash: $json.parentHash, reorg: $json.reorg === true, instance: $env.EXPAND_QUEUE_INSTANCE, executionId: $execution.id }) }}',
		),
	]);

/** Every USDC transfer to or from the watched wallets on chain 31337, posted to the collector. */
export const TRANSFERS_ID = 'expandQueueTransfers';
export const transfersWorkflow = (usdc: string, watched: string[]) =>
	workflow(TRANSFERS_ID, 'Queue test: USDC transfers of watched wallets to the collector', [
		{
			name: 'Token transfers',
			type: 'n8n-nodes-expand-network.expandTrigger',
			typeVersion: 1,
			parameters: {
				event: 'tokenTransfer',
				chainId: '31337',
				pollIntervalSeconds: 1,
				confirmations: 0,
				contracts: usdc,
				watchedAddresses: watched.join(','),
				direction: 'both',
				options: {},
			},
			credentials: expandApi(),
		},
		postTo(
			'transfer',
			'={{ JSON.stringify({ transactionHash: $json.transactionHash, logIndex: $json.logIndex, from: $json.from, to: $json.to, amount: $json.amount, blockNumber: $json.blockNumber, instance: $env.EXPAND_QUEUE_INSTANCE, executionId: $execution.id }) }}',
		),
	]);

/**
 * POST /webhook/expand-queue-payout {accountIndex, to, value, payoutId}: sign with a payout ID
 * (PostgreSQL ledger), wait a moment (so a killed worker holds signed, unsent payouts), send unless the
 * chain already has it.
 */
export const PAYOUT_ID = 'expandQueuePayout';
export const payoutWorkflow = (pauseSeconds: number) =>
	workflow(PAYOUT_ID, 'Queue test: one payout per webhook call, with a payout ID', [
		webhook('expand-queue-payout', 'POST'),
		{
			name: 'Sign',
			type: 'n8n-nodes-expand-network-signer.expandSigner',
			typeVersion: 1,
			parameters: {
				operation: 'signTransaction',
				source: 'fields',
				accountIndex: '={{ $json.body.accountIndex }}',
				payoutId: '={{ $json.body.payoutId }}',
				to: '={{ $json.body.to }}',
				chainId: '31337',
				value: '={{ $json.body.value }}',
			},
			// The API credential gives the chain's JSON-RPC URL (getpublicrpc) for nonce, fees and gas.
			credentials: signerCredentials(SIGNER_LEDGER_CREDENTIAL),
		},
		{
			name: 'Pause',
			type: 'n8n-nodes-base.wait',
			typeVersion: 1.1,
			parameters: { amount: pauseSeconds, unit: 'seconds' },
		},
		{
			name: 'Not sent yet',
			type: 'n8n-nodes-base.filter',
			typeVersion: 2.2,
			parameters: {
				conditions: {
					options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
					conditions: [
						{
							id: 'not-sent',
							leftValue: '={{ $json.alreadySent }}',
							rightValue: '',
							operator: { type: 'boolean', operation: 'false', singleValue: true },
						},
					],
					combinator: 'and',
				},
				options: {},
			},
		},
		send,
		report({
			payoutId: "={{ $('Sign').item.json.payoutId }}",
			transactionHash: "={{ $('Sign').item.json.transactionHash }}",
			nonce: "={{ $('Sign').item.json.nonce }}",
		}),
	]);

/** A nonce race: its workflow, webhook path and wallet, with the ledger of its credential. */
export interface NonceRaceTarget {
	id: string;
	path: string;
	account: number;
	credential: { id: string; name: string };
	/** The ledger in words, for the check's summary. */
	ledger: string;
}

export const NONCE_RACES: NonceRaceTarget[] = [
	{
		id: 'expandQueueNonce',
		path: 'expand-queue-nonce',
		account: 150,
		credential: SIGNER_LEDGER_CREDENTIAL,
		ledger: 'PostgreSQL ledger',
	},
	{
		id: 'expandQueueNonceFolder',
		path: 'expand-queue-nonce-folder',
		account: 151,
		credential: SIGNER_FOLDER_CREDENTIAL,
		ledger: 'shared ledger folder',
	},
];

/**
 * POST /webhook/<path> {to, value}: sign from the target's wallet with an automatic nonce (no
 * payout ID), wait a moment (so two executions started together have both signed, or been refused,
 * before either sends), send. Two calls at once race for the wallet's nonce, on one worker or two.
 */
export const nonceWorkflow = (target: NonceRaceTarget, pauseSeconds: number) =>
	workflow(
		target.id,
		`Queue test: payments from one wallet racing for its nonce (${target.ledger})`,
		[
			webhook(target.path, 'POST'),
			{
				name: 'Sign',
				type: 'n8n-nodes-expand-network-signer.expandSigner',
				typeVersion: 1,
				parameters: {
					operation: 'signTransaction',
					source: 'fields',
					accountIndex: target.account,
					to: '={{ $json.body.to }}',
					chainId: '31337',
					value: '={{ $json.body.value }}',
				},
				credentials: signerCredentials(target.credential),
			},
			{
				name: 'Pause',
				type: 'n8n-nodes-base.wait',
				typeVersion: 1.1,
				parameters: { amount: pauseSeconds, unit: 'seconds' },
			},
			send,
			report({
				transactionHash: "={{ $('Sign').item.json.transactionHash }}",
				nonce: "={{ $('Sign').item.json.nonce }}",
				to: "={{ $('Sign').item.json.to }}",
			}),
		],
	);

/**
 * POST /webhook/expand-queue-budget {accountIndex, to, value}: sign under the credential's Max Per
 * Day (PostgreSQL ledger), wait a moment (so executions started together overlap), send.
 */
export const BUDGET_ID = 'expandQueueBudget';
export const budgetWorkflow = (pauseSeconds: number) =>
	workflow(BUDGET_ID, 'Queue test: payments under Max Per Day from many executions at once', [
		webhook('expand-queue-budget', 'POST'),
		{
			name: 'Sign',
			type: 'n8n-nodes-expand-network-signer.expandSigner',
			typeVersion: 1,
			parameters: {
				operation: 'signTransaction',
				source: 'fields',
				accountIndex: '={{ $json.body.accountIndex }}',
				to: '={{ $json.body.to }}',
				chainId: '31337',
				value: '={{ $json.body.value }}',
			},
			credentials: signerCredentials(SIGNER_BUDGET_CREDENTIAL),
		},
		{
			name: 'Pause',
			type: 'n8n-nodes-base.wait',
			typeVersion: 1.1,
			parameters: { amount: pauseSeconds, unit: 'seconds' },
		},
		send,
		report({
			transactionHash: "={{ $('Sign').item.json.transactionHash }}",
			to: "={{ $('Sign').item.json.to }}",
		}),
	]);
