/** The n8n REST calls the playground and the tests need: owner setup, login, types, credential test. */

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
		const setCookie = response.headers.getSetCookie().find((value) => value.startsWith('n8n-auth='));
		if (setCookie) this.cookie = setCookie.split(';')[0];
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
		let json: { data?: T } = {};
		try {
			if (text) json = JSON.parse(text) as { data?: T };
		} catch {
			throw new Error(`${method} ${path}: ${response.status} answered with ${response.headers.get('content-type') ?? 'no content type'}, not JSON: ${text.slice(0, 300)}`);
		}
		return (json && typeof json === 'object' && 'data' in json ? json.data : json) as T;
	}

	/** Creates the owner account of a fresh instance (skipped when an owner exists), then logs in. */
	async setupOwnerAndLogin(): Promise<void> {
		const settings = await this.request<{ userManagement: { showSetupOnFirstLoad?: boolean } }>('GET', '/rest/settings');
		if (settings.userManagement.showSetupOnFirstLoad !== false) await this.request('POST', '/rest/owner/setup', OWNER);
		await this.login();
	}

	async login(): Promise<void> {
		await this.request('POST', '/rest/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
	}

	nodeTypes(): Promise<Array<{ name: string; displayName: string; version: number | number[] }>> {
		return this.request('GET', '/types/nodes.json');
	}

	credentialTypes(): Promise<Array<{ name: string; displayName: string }>> {
		return this.request('GET', '/types/credentials.json');
	}

	/** The editor's credential "Test" button: POST /rest/credentials/test (the id of a saved credential, the form's data). */
	testCredential(credential: { id: string; name: string; type: string; data: Record<string, unknown> }): Promise<CredentialTestResult> {
		return this.request('POST', '/rest/credentials/test', { credentials: credential });
	}

	/** A workflow as the editor loads it (its draft: nodes, connections, versionId, activeVersionId). */
	workflow(id: string): Promise<WorkflowData> {
		return this.request('GET', `/rest/workflows/${id}`);
	}

	/** The editor's Save: a new draft version when the nodes change (static data is left as it is). */
	updateWorkflow(id: string, changes: Partial<Pick<WorkflowData, 'nodes' | 'connections'>>): Promise<WorkflowData> {
		return this.request('PATCH', `/rest/workflows/${id}`, changes);
	}

	/** The editor's Publish: activates a version of the workflow, replacing the active one. */
	activateWorkflow(id: string, versionId: string): Promise<WorkflowData> {
		return this.request('POST', `/rest/workflows/${id}/activate`, { versionId });
	}

	/** The editor's Unpublish: the workflow's triggers are closed. */
	deactivateWorkflow(id: string): Promise<WorkflowData> {
		return this.request('POST', `/rest/workflows/${id}/deactivate`, {});
	}

	/** Why an active workflow's triggers failed to activate (null when they did not). */
	activationError(workflowId: string): Promise<string | null> {
		return this.request('GET', `/rest/active-workflows/error/${workflowId}`);
	}

	/** The newest 100 executions of a workflow (n8n 2.41 refuses a larger limit). */
	executions(workflowId: string): Promise<{ results: Array<{ id: string; status: string; mode: string }>; count: number }> {
		return this.request('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=100`);
	}
}
