import { readFileSync } from 'fs';
import { join } from 'path';

/** One row of the spec's endpoint list (a copy of shared/spec/endpoints.tsv kept in test/fixtures). */
export interface SpecEndpoint {
	family: string;
	operation: string;
	path: string;
	method: 'GET' | 'POST';
	host: 'base' | 'historical';
	computeUnits?: number;
	kind: 'read' | 'write';
	source: string;
}

export function loadSpecEndpoints(): SpecEndpoint[] {
	const [, ...rows] = readFileSync(join(__dirname, '..', 'fixtures', 'spec-endpoints.tsv'), 'utf8').trim().split('\n');
	return rows.map((row) => {
		const [family, operation, path, method, host, cu, kind, source] = row.split('\t');
		return {
			family,
			operation,
			path,
			method: method as SpecEndpoint['method'],
			host: host as SpecEndpoint['host'],
			computeUnits: cu === '' ? undefined : Number(cu),
			kind: kind as SpecEndpoint['kind'],
			source,
		};
	});
}

export function specEndpoint(family: string, operation: string): SpecEndpoint {
	const found = loadSpecEndpoints().find((row) => row.family === family && row.operation === operation);
	if (!found) throw new Error(`${family}/${operation} is not in the spec`);
	return found;
}
