import { type Endpoint, endpoints } from '../../devnet/api';

/** One row of the spec's endpoint list, as the repository keeps it (devnet/api/endpoints.tsv). */
export type SpecEndpoint = Endpoint;

export function loadSpecEndpoints(): SpecEndpoint[] {
	return endpoints;
}

export function specEndpoint(family: string, operation: string): SpecEndpoint {
	const found = endpoints.find((row) => row.family === family && row.operation === operation);
	if (!found) throw new Error(`${family}/${operation} is not in the spec`);
	return found;
}
