/** A bare HTTP client for the devnet gateway, so its tests do not depend on the n8n node. */
export interface Reply {
	status: number;
	body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function call(
	url: string,
	apiKey: string | undefined,
	init: { method?: string; body?: unknown } = {},
): Promise<Reply> {
	const response = await fetch(url, {
		method: init.method ?? 'GET',
		headers: {
			...(apiKey === undefined ? {} : { 'x-api-key': apiKey }),
			'content-type': 'application/json',
		},
		body: init.body === undefined ? undefined : JSON.stringify(init.body),
	});
	return { status: response.status, body: await response.json() };
}

export function query(base: string, path: string, params: Record<string, string>): string {
	return `${base}${path}?${new URLSearchParams(params)}`;
}
