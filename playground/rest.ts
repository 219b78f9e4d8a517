/** The n8n REST calls the playground and the tests need: owner setup, login, types, credential test. */
import { parse } from 'flatted';

export const OWNER = {
	email: 'owner@playground.local',
	password: 'Playground-2026',
	firstName: 'Playground',
	lastName: 'Owner',
};

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

export interface WorkflowData {
	id: string;
	versionId: string;
	activeVersionId: string | null;
	active: boolean;
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
	connections: Record<string, unknown>;
}

/**
 * Where n8n stands with a workflow's publication (GET /rest/workflows/:id/publication-status, n8n's
 * workflow publication service: on by default in n8n 2.41, N8N_USE_WORKFLOW_PUBLICATION_SERVICE).
 */
export interface PublicationStatus {
	status: 'not_published' | 'in_progress' | 'published' | 'partial' | 'failed';
	/** The version whose triggers run. */
	liveVersionId: string | null;
	/** The version being published or unpublished. */
	pendingVersionId: string | null;
	triggers: Array<{ nodeId: string; status: string; errorMessage: string | null }>;
}

/** How long a publish or unpublish may take to reach the triggers, and how often its status is asked. */
const PUBLICATION_TIMEOUT_MS = 60_000;
const PUBLICATION_POLL_MS = 200;

/** What an execution's data holds that the checks read: the node that ran last, the error that stopped it, each node's runs. */
export interface StoredExecutionData {
	resultData: {
		lastNodeExecuted?: string;
		error?: { message?: string };
		runData: Record<string, unknown[]>;
	};
}

export class N8nRest {
	private cookie = '';

	// n8n binds the session cookie to this header's value.
	private readonly browserId = 'expand-playground';

	constructor(readonly baseUrl: string) {}

	async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers: {
				'content-type': 'application/json',
				'browser-id': this.browserId,
				...(this.cookie ? { cookie: this.cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = response.headers
			.getSetCookie()
			.find((value) => value.startsWith('n8n-auth='));
		if (setCookie) this.cookie = setCookie.split(';')[0];
		const text = await response.text();
		if (!response.ok)
			throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
		let json: { data?: T } = {};
		try {
			if (text) json = JSON.parse(text) as { data?: T };
		} catch {
			throw new Error(
				`${method} ${path}: ${response.status} answered with ${response.headers.get('content-type') ?? 'no content type'}, not JSON: ${text.slice(0, 300)}`,
			);
		}
		return (json && typeof json === 'object' && 'data' in json ? json.data : json) as T;
	}

	/** Creates the owner account of a fresh instance (skipped when an owner exists), then logs in. */
	async setupOwnerAndLogin(): Promise<void> {
		const settings = await this.request<{ userManagement: { showSetupOnFirstLoad?: boolean } }>(
			'GET',
			'/rest/settings',
		);
		if (settings.userManagement.showSetupOnFirstLoad !== false)
			await this.request('POST', '/rest/owner/setup', OWNER);
		await this.login();
	}

	async login(): Promise<void> {
		await this.request('POST', '/rest/login', {
			emailOrLdapLoginId: OWNER.email,
			password: OWNER.password,
		});
	}

	nodeTypes(): Promise<Array<{ name: string; displayName: string; version: number | number[] }>> {
		return this.request('GET', '/types/nodes.json');
	}

	credentialTypes(): Promise<Array<{ name: string; displayName: string }>> {
		return this.request('GET', '/types/credentials.json');
	}

	/** The editor's credential "Test" button: POST /rest/credentials/test (the id of a saved credential, the form's data). */
	testCredential(credential: {
		id: string;
		name: string;
		type: string;
		data: Record<string, unknown>;
	}): Promise<CredentialTestResult> {
		return this.request('POST', '/rest/credentials/test', { credentials: credential });
	}

	/** A workflow as the editor loads it (its draft: nodes, connections, versionId, activeVersionId). */
	workflow(id: string): Promise<WorkflowData> {
		return this.request('GET', `/rest/workflows/${id}`);
	}

	/**
	 * The editor's Execute workflow button on a workflow with one start: POST /rest/workflows/:id/run with
	 * the saved workflow and the trigger to start from, as a manual execution. Returns its execution ID.
	 */
	async runManually(id: string, trigger: string): Promise<string> {
		const workflowData = await this.workflow(id);
		const started = await this.request<{ executionId?: string; waitingForWebhook?: boolean }>(
			'POST',
			`/rest/workflows/${id}/run`,
			{
				workflowData,
				triggerToStartFrom: { name: trigger },
			},
		);
		if (!started.executionId)
			throw new Error(
				`Execute workflow of ${id} from "${trigger}" started no execution: ${JSON.stringify(started)}`,
			);
		return started.executionId;
	}

	/** The editor's Save: a new draft version when the nodes change (static data is left as it is). */
	updateWorkflow(
		id: string,
		changes: Partial<Pick<WorkflowData, 'nodes' | 'connections'>>,
	): Promise<WorkflowData> {
		return this.request('PATCH', `/rest/workflows/${id}`, changes);
	}

	/**
	 * The editor's Publish: activates a version of the workflow, replacing the active one. Resolves
	 * once that version's triggers run (n8n 2.41 answers the request first and applies it after).
	 */
	async activateWorkflow(id: string, versionId: string): Promise<WorkflowData> {
		const workflow = await this.request<WorkflowData>('POST', `/rest/workflows/${id}/activate`, {
			versionId,
		});
		await this.untilApplied(id, versionId);
		return workflow;
	}

	/** The editor's Unpublish. Resolves once the workflow's triggers are closed. */
	async deactivateWorkflow(id: string): Promise<WorkflowData> {
		const workflow = await this.request<WorkflowData>(
			'POST',
			`/rest/workflows/${id}/deactivate`,
			{},
		);
		await this.untilApplied(id, null);
		return workflow;
	}

	/**
	 * The workflow's publication status, or undefined where n8n has no publication service (n8n
	 * before it, or N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false: a 404): there the activate and
	 * deactivate requests change the triggers before they answer.
	 */
	async publicationStatus(id: string): Promise<PublicationStatus | undefined> {
		try {
			return await this.request<PublicationStatus>(
				'GET',
				`/rest/workflows/${id}/publication-status`,
			);
		} catch (error) {
			if (
				error instanceof Error &&
				error.message.startsWith(`GET /rest/workflows/${id}/publication-status: 404`)
			)
				return undefined;
			throw error;
		}
	}

	/**
	 * Waits until n8n's publication service has applied the last publish (`versionId`: that
	 * version's triggers run) or unpublish (null: no trigger runs). A publication that failed is
	 * an error naming the triggers' messages.
	 */
	private async untilApplied(id: string, versionId: string | null): Promise<void> {
		const deadline = Date.now() + PUBLICATION_TIMEOUT_MS;
		for (;;) {
			const publication = await this.publicationStatus(id);
			if (!publication) return;
			if (publication.status !== 'in_progress') {
				if (versionId === null && publication.status === 'not_published') return;
				if (
					versionId !== null &&
					publication.status === 'published' &&
					publication.liveVersionId === versionId
				)
					return;
				if (publication.status === 'failed' || publication.status === 'partial') {
					const errors = publication.triggers
						.filter((trigger) => trigger.errorMessage)
						.map((trigger) => `${trigger.nodeId}: ${trigger.errorMessage}`);
					throw new Error(
						`Publishing workflow ${id} ${publication.status === 'failed' ? 'failed' : 'partly failed'}: ${errors.join('; ') || 'no trigger message'}`,
					);
				}
			}
			if (Date.now() > deadline) {
				throw new Error(
					`Workflow ${id}: n8n did not ${versionId ? `publish version ${versionId}` : 'unpublish it'} within ${PUBLICATION_TIMEOUT_MS / 1000} s (${JSON.stringify(publication)})`,
				);
			}
			await new Promise((resolve) => setTimeout(resolve, PUBLICATION_POLL_MS));
		}
	}

	/** Why an active workflow's triggers failed to activate (null when they did not). */
	activationError(workflowId: string): Promise<string | null> {
		return this.request('GET', `/rest/active-workflows/error/${workflowId}`);
	}

	/** An execution as the editor loads it: its status and its data (which n8n keeps flatted), parsed. */
	async execution(id: string): Promise<{ status: string; data?: StoredExecutionData }> {
		const stored = await this.request<{ status: string; data?: string }>(
			'GET',
			`/rest/executions/${id}`,
		);
		return {
			status: stored.status,
			data: stored.data ? (parse(stored.data) as StoredExecutionData) : undefined,
		};
	}

	/** The newest 100 executions of a workflow (n8n 2.41 refuses a larger limit). */
	executions(
		workflowId: string,
	): Promise<{ results: Array<{ id: string; status: string; mode: string }>; count: number }> {
		return this.request(
			'GET',
			`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=100`,
		);
	}
}
