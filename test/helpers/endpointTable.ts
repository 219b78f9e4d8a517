/**
 * The published endpoint table (devnet/api/endpoints.tsv, a copy of the spec's endpoints.tsv):
 * family, operation, path, method, host, compute-unit cost (empty where none is published), kind
 * and source of each endpoint. Tests check the node and the devnet against it, never the devnet
 * against itself.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

export const ENDPOINT_TABLE = join(__dirname, '..', '..', 'devnet', 'api', 'endpoints.tsv');

export interface Endpoint {
	family: string;
	operation: string;
	path: string;
	method: 'GET' | 'POST';
	host: 'base' | 'historical';
	/** The published compute-unit cost of one call; undefined where the table lists none. */
	computeUnits?: number;
	kind: 'read' | 'write';
	source: string;
}

const COLUMNS = ['family', 'operation', 'path', 'method', 'host', 'cu', 'kind', 'source'];

export function loadEndpointTable(file = ENDPOINT_TABLE): Endpoint[] {
	const [header, ...rows] = readFileSync(file, 'utf8').trim().split('\n');
	if (header !== COLUMNS.join('\t')) throw new Error(`${file}: unexpected columns ${JSON.stringify(header)}`);
	return rows.map((row) => {
		const [family, operation, path, method, host, cu, kind, source] = row.split('\t');
		return {
			family,
			operation,
			path,
			method: method as Endpoint['method'],
			host: host as Endpoint['host'],
			computeUnits: cu === '' ? undefined : Number(cu),
			kind: kind as Endpoint['kind'],
			source,
		};
	});
}

/** The published cost of one call of the endpoint at `path`; throws where the table lists none. */
export function publishedCost(path: string): number {
	const endpoint = loadEndpointTable().find((row) => row.path === path);
	if (endpoint?.computeUnits === undefined) throw new Error(`The endpoint table publishes no cost for ${path}`);
	return endpoint.computeUnits;
}
