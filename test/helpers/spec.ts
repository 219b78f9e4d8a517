import { type Endpoint, loadEndpointTable } from './endpointTable';

/** One row of the spec's endpoint list (devnet/api/endpoints.tsv, see ./endpointTable). */
export type SpecEndpoint = Endpoint;

export function loadSpecEndpoints(): SpecEndpoint[] {
	return loadEndpointTable();
}

export function specEndpoint(family: string, operation: string): SpecEndpoint {
	const found = loadSpecEndpoints().find((row) => row.family === family && row.operation === operation);
	if (!found) throw new Error(`${family}/${operation} is not in the spec`);
	return found;
}
