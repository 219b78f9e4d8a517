/**
 * Runs real workflows in-process through n8n-core's WorkflowExecute: expressions, credentials
 * (with the credential type's own `authenticate`), pairedItem and continueOnFail are resolved by
 * the engine exactly as in n8n. Used by the tests and by `npm start` (scripts/report.ts).
 *
 * n8n-core writes into a temporary user folder (./userFolder, imported first), never `~/.n8n`.
 * `releaseEngine()` undoes what n8n-core leaves behind in the process.
 */
import { releaseUserFolder } from './userFolder';

import { Container } from '@n8n/di';
import { ExecutionLifecycleHooks, TriggerContext, WorkflowExecute } from 'n8n-core';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IWorkflowExecuteAdditionalData,
	ICredentialsHelper,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { ExpandApi } from '../../credentials/ExpandApi.credentials';
import { ExpandSafeApi } from '../../credentials/ExpandSafeApi.credentials';
import { ExpandSignerApi } from '../../packages/signer/credentials/ExpandSignerApi.credentials';
import { ExpandSolanaKeyApi } from '../../packages/signer/credentials/ExpandSolanaKeyApi.credentials';
import { ExpandStellarKeyApi } from '../../packages/signer/credentials/ExpandStellarKeyApi.credentials';
import { ExpandTonKeyApi } from '../../packages/signer/credentials/ExpandTonKeyApi.credentials';
import { ExpandTronKeyApi } from '../../packages/signer/credentials/ExpandTronKeyApi.credentials';
// The .js suffix keeps tsx from resolving Expand.node to the codex file Expand.node.json.
import { Expand } from '../../nodes/Expand/Expand.node.js';
import { ExpandSigner } from '../../packages/signer/nodes/ExpandSigner/ExpandSigner.node.js';
import { ExpandTrigger } from '../../nodes/ExpandTrigger/ExpandTrigger.node.js';
import { TestItems } from './itemsNode';

/**
 * n8n-core creates its SSH tunnel manager with the first node context: a 60 s cleanup interval that
 * keeps the process alive, and a process 'exit' listener. It is created here before the first run,
 * its interval unref'd (the runner never keeps a process alive) and its listener noted for
 * `releaseEngine()`.
 */
let sshExitListeners: Array<(code: number) => void> | undefined;
export function prepareEngine(): void {
	if (sshExitListeners) return;
	const before = process.listeners('exit');
	const manager = Container.get(SSHClientsManager);
	sshExitListeners = process.listeners('exit').filter((listener) => !before.includes(listener));
	(manager as unknown as { cleanupTimer?: NodeJS.Timeout }).cleanupTimer?.unref();
}

/**
 * Stops n8n-core's SSH cleanup interval, removes its 'exit' listener and the temporary user folder.
 * Call once no more workflows run (the tests do after each file, scripts/report.ts at its end).
 */
export function releaseEngine(): void {
	if (sshExitListeners) {
		Container.get(SSHClientsManager).onShutdown();
		for (const listener of sshExitListeners) process.off('exit', listener);
	}
	releaseUserFolder();
}

export const PACKAGE = 'n8n-nodes-expand-network';
export const SIGNER_PACKAGE = 'n8n-nodes-expand-network-signer';
export const EXPAND = `${PACKAGE}.expand`;
export const SIGNER = `${SIGNER_PACKAGE}.expandSigner`;
export const TRIGGER = `${PACKAGE}.expandTrigger`;
export const ITEMS = 'test.items';

const nodeTypeRegistry: Record<string, INodeType> = {
	[EXPAND]: new Expand(),
	[SIGNER]: new ExpandSigner(),
	[TRIGGER]: new ExpandTrigger(),
	[ITEMS]: new TestItems(),
};
const credentialTypeRegistry: Record<string, ICredentialType> = {
	expandApi: new ExpandApi(),
	expandSafeApi: new ExpandSafeApi(),
	expandSignerApi: new ExpandSignerApi(),
	expandSolanaKeyApi: new ExpandSolanaKeyApi(),
	expandTronKeyApi: new ExpandTronKeyApi(),
	expandTonKeyApi: new ExpandTonKeyApi(),
	expandStellarKeyApi: new ExpandStellarKeyApi(),
};

/** Adds a node or credential type to the runner's registry. */
export function registerNodeType(type: string, nodeType: INodeType): void {
	nodeTypeRegistry[type] = nodeType;
}
export function registerCredentialType(credentialType: ICredentialType): void {
	credentialTypeRegistry[credentialType.name] = credentialType;
}

const nodeTypes: INodeTypes = {
	getByName: (type) => nodeTypeRegistry[type],
	getByNameAndVersion: (type, version) =>
		NodeHelpers.getVersionedNodeType(nodeTypeRegistry[type], version),
	getKnownTypes: () => ({}),
};

function resolveCredentialExpressions(
	value: unknown,
	credentials: ICredentialDataDecryptedObject,
	workflow: Workflow,
	node: INode,
): unknown {
	if (typeof value !== 'string') return value;
	return workflow.expression.getSimpleParameterValue(
		node,
		value,
		'internal',
		{ $credentials: credentials },
		undefined,
		'',
	);
}

class RunnerCredentialsHelper {
	constructor(private readonly store: Record<string, ICredentialDataDecryptedObject>) {}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = credentialTypeRegistry[typeName]?.authenticate;
		if (!authenticate) return requestOptions;
		// As n8n's CredentialsHelper: a function is called, a generic rule's expressions resolved.
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		const properties = authenticate.properties as Record<
			'headers' | 'qs' | 'body',
			IDataObject | undefined
		>;
		for (const target of ['headers', 'qs', 'body'] as const) {
			for (const [key, value] of Object.entries(properties[target] ?? {})) {
				const resolved = resolveCredentialExpressions(value, credentials, workflow, node);
				const existing = (requestOptions[target] ?? {}) as IDataObject;
				(requestOptions as unknown as Record<string, IDataObject>)[target] = {
					...existing,
					[key]: resolved as string,
				};
			}
		}
		return requestOptions;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getDecrypted(_additionalData: unknown, _nodeCredentials: unknown, type: string) {
		const data = this.store[type];
		if (!data) throw new Error(`No credentials of type ${type}`);
		return { ...data };
	}

	async getCredentials() {
		throw new Error('not used by the runner');
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type: string) {
		return credentialTypeRegistry[type]?.properties ?? [];
	}

	isCredentialUsableByNode() {
		return true;
	}
}

let executions = 0;

function createAdditionalData(
	credentials: Record<string, ICredentialDataDecryptedObject>,
	workflowData: object,
	// Given: this run continues that execution, as n8n resumes one after a Wait node or a restart.
	executionId = `test-execution-${++executions}`,
): IWorkflowExecuteAdditionalData {
	// Each run is an execution of its own, as in n8n (the Signer keeps its per-execution totals by this ID).
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData as never);
	return {
		executionId,
		hooks,
		credentialsHelper: new RunnerCredentialsHelper(credentials) as unknown as ICredentialsHelper,
		executeWorkflow: async () => {
			throw new Error('not used by the runner');
		},
		getRunExecutionData: async () => undefined,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		variables: {},
		userId: 'test-user',
		currentNodeExecutionIndex: 0,
		logAiEvent: () => undefined,
		startRunnerTask: async () => {
			throw new Error('not used by the runner');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface NodeSpec {
	name: string;
	type: string;
	parameters?: INodeParameters;
	continueOnFail?: boolean;
	credentials?: INode['credentials'];
	/** The node's version in the workflow; 1 unless given. */
	typeVersion?: number;
}

export interface RunResult {
	run: IRun;
	status: IRun['status'];
	/** The error that stopped the workflow, if any. */
	error?: Error & { description?: string; httpCode?: string };
	/** Output items of a node's first run (main output 0). */
	output(nodeName: string): INodeExecutionData[];
}

/** Expand credentials for the runner; `apiKey`, `baseUrl` and `historicalUrl` as the credential type names them. */
export function expandCredentials(
	data: ICredentialDataDecryptedObject,
): Record<string, ICredentialDataDecryptedObject> {
	return { expandApi: { streamUrl: '', ...data } };
}

/** Runs nodes connected one after another; the first is the start node. */
export async function runPipeline(
	specs: NodeSpec[],
	credentials: Record<string, ICredentialDataDecryptedObject>,
	executionId?: string,
): Promise<RunResult> {
	const nodes: INode[] = specs.map((spec, index) => ({
		id: `node-${index}`,
		name: spec.name,
		type: spec.type,
		typeVersion: spec.typeVersion ?? 1,
		position: [index * 200, 0],
		parameters: spec.parameters ?? {},
		...(spec.continueOnFail
			? { onError: 'continueRegularOutput' as const, continueOnFail: true }
			: {}),
		credentials:
			spec.credentials ??
			Object.fromEntries(Object.keys(credentials).map((type) => [type, { id: type, name: type }])),
	}));
	const connections: IConnections = {};
	for (let index = 0; index < nodes.length - 1; index++) {
		connections[nodes[index].name] = {
			main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]],
		};
	}
	return await runWorkflow(nodes, connections, credentials, executionId);
}

export interface SingleNodeOptions {
	/** The JSON items an Items start node passes to the node; one empty item by default. */
	items?: object[];
	continueOnFail?: boolean;
}

function afterItems(node: NodeSpec, items: object[] = [{}]): NodeSpec[] {
	return [{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } }, node];
}

/**
 * Runs Items → Expand (node "Expand") with the given Expand API credential fields (`apiKey`,
 * `baseUrl`, `historicalUrl`; `streamUrl` empty unless given). `result.output('Expand')` is its output.
 */
export function runExpand(
	parameters: INodeParameters,
	options: SingleNodeOptions & {
		credentials: ICredentialDataDecryptedObject;
		typeVersion?: number;
	},
): Promise<RunResult> {
	return runPipeline(
		afterItems(
			{
				name: 'Expand',
				type: EXPAND,
				parameters,
				continueOnFail: options.continueOnFail,
				typeVersion: options.typeVersion,
			},
			options.items,
		),
		expandCredentials(options.credentials),
	);
}

/**
 * Runs Items → Expand Signer (node "Signer") with the signing key credential fields and the Expand
 * API credential fields it uses to fill in missing transaction fields. The key is the EVM credential's,
 * or with `chainFamily: 'solana'` in the parameters the Solana key credential's.
 */
export function runSigner(
	parameters: INodeParameters,
	options: SingleNodeOptions & {
		credentials: ICredentialDataDecryptedObject;
		signingKey: ICredentialDataDecryptedObject;
	},
): Promise<RunResult> {
	const keyCredential =
		parameters.chainFamily === 'solana' ? 'expandSolanaKeyApi' : 'expandSignerApi';
	return runPipeline(
		afterItems(
			{ name: 'Signer', type: SIGNER, parameters, continueOnFail: options.continueOnFail },
			options.items,
		),
		{ ...expandCredentials(options.credentials), [keyCredential]: options.signingKey },
	);
}

export async function runWorkflow(
	nodes: INode[],
	connections: IConnections,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	executionId?: string,
): Promise<RunResult> {
	prepareEngine();
	const workflowData = {
		id: 'test-workflow',
		name: 'test',
		nodes,
		connections,
		active: false,
		settings: { executionOrder: 'v1' as const },
	};
	const workflow = new Workflow({ ...workflowData, nodeTypes });
	const additionalData = createAdditionalData(credentials, workflowData, executionId);

	const run = await new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: workflow.getNode(nodes[0].name) ?? undefined,
	});
	const runData = run.data.resultData.runData;
	return {
		run,
		status: run.status,
		error: run.data.resultData.error as RunResult['error'],
		output: (nodeName) => runData[nodeName]?.[0]?.data?.main?.[0] ?? [],
	};
}

export interface ActiveTrigger {
	/** Everything the trigger emitted: one entry per emit, the items of its main output. */
	emitted: INodeExecutionData[][];
	errors: Error[];
	/** Errors the trigger saved as failed executions (saveFailedExecution), the workflow staying active. */
	failedExecutions: Error[];
	/** What the trigger logged as warnings (this.logger.warn), kept here rather than printed by n8n's logger. */
	warnings: string[];
	/** Expressions of the crons the trigger registered. */
	crons: string[];
	/** Runs the cron callback the trigger registered, as n8n's scheduler would on its next tick. */
	tick(): void;
	manual(): Promise<void>;
	close(): Promise<void>;
	staticData: IDataObject;
}

/**
 * Activates a trigger node with n8n-core's real TriggerContext (credentials, expressions, HTTP
 * helpers, static data). The seconds cron it registers is captured so tests decide when it ticks.
 */
export async function activateTrigger(
	parameters: INodeParameters,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	mode: 'trigger' | 'manual' = 'trigger',
	staticData: IDataObject = {},
	typeVersion = 2,
): Promise<ActiveTrigger> {
	prepareEngine();
	const node: INode = {
		id: 'trigger-node',
		name: 'Trigger',
		type: TRIGGER,
		typeVersion,
		position: [0, 0],
		parameters,
		credentials: Object.fromEntries(
			Object.keys(credentials).map((type) => [type, { id: type, name: type }]),
		),
	};
	const workflowData = {
		id: 'trigger-workflow',
		name: 'trigger',
		nodes: [node],
		connections: {},
		active: true,
		settings: { executionOrder: 'v1' as const },
		staticData,
	};
	const workflow = new Workflow({ ...workflowData, nodeTypes });
	const emitted: INodeExecutionData[][] = [];
	const errors: Error[] = [];
	const failedExecutions: Error[] = [];
	const crons: string[] = [];
	const context = new TriggerContext(
		workflow,
		node,
		createAdditionalData(credentials, workflowData),
		mode,
		'activate',
		(data) => emitted.push(data[0]),
		(error) => errors.push(error),
		(error) => failedExecutions.push(error),
	);
	const warnings: string[] = [];
	const log = () => undefined;
	Object.defineProperty(context, 'logger', {
		value: { warn: (message: string) => warnings.push(message), error: log, info: log, debug: log },
	});
	let onTick: () => void = () => undefined;
	context.helpers.registerCron = (cron, callback) => {
		crons.push(cron.expression);
		onTick = callback;
	};
	const response = await nodeTypeRegistry[TRIGGER].trigger!.call(context);
	return {
		emitted,
		errors,
		failedExecutions,
		warnings,
		crons,
		tick: () => onTick(),
		manual: async () => {
			await response?.manualTriggerFunction?.();
		},
		close: async () => {
			await response?.closeFunction?.();
		},
		staticData: workflow.staticData as IDataObject,
	};
}

/** Waits until the condition holds, polling every 20 ms, at most `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 10000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}
