/** Executions as queue-mode n8n stores them in PostgreSQL, read back for the checks. */
import { parse } from 'flatted';

import type { RunningServices } from '../../playground/queue/services';

export interface Execution {
	id: string;
	status: string;
	/** The first item of the last node that ran. */
	output: unknown;
	/** The message of the error that stopped the execution. */
	error?: string;
}

interface StoredData {
	resultData: {
		lastNodeExecuted?: string;
		runData: Record<string, Array<{ data?: { main: Array<Array<{ json: unknown }>> } }>>;
		error?: { message?: string };
	};
}

/** An execution's data as n8n stores it (flatted JSON), from the base64 the query returns. */
function stored(base64: string | undefined): StoredData | undefined {
	return base64 ? (parse(Buffer.from(base64, 'base64').toString('utf8')) as StoredData) : undefined;
}

function lastOutput(data: StoredData | undefined): unknown {
	const node = data?.resultData.lastNodeExecuted;
	const runs = node ? data?.resultData.runData[node] : undefined;
	return runs?.[runs.length - 1]?.data?.main[0]?.[0]?.json;
}

/** A workflow's executions in PostgreSQL, oldest first. */
export async function executionsOf(
	services: RunningServices,
	database: string,
	workflowId: string,
): Promise<Execution[]> {
	const rows = await services.sql(
		database,
		`SELECT e.id, e.status, replace(encode(convert_to(d.data, 'UTF8'), 'base64'), E'\n', '') FROM execution_entity e LEFT JOIN execution_data d ON d."executionId" = e.id WHERE e."workflowId" = '${workflowId}' ORDER BY e.id::int`,
	);
	return rows.map(([id, status, base64]) => {
		const data = stored(base64);
		return { id, status, output: lastOutput(data), error: data?.resultData.error?.message };
	});
}

/** `work` on every item, at most `limit` at a time; results in item order. */
export async function inParallel<T, R>(
	items: T[],
	limit: number,
	work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results: R[] = new Array(items.length);
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, items.length) }, async () => {
			while (next < items.length) {
				const index = next++;
				results[index] = await work(items[index], index);
			}
		}),
	);
	return results;
}
