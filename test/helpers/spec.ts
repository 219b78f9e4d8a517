import { type Endpoint, endpoints } from '../../devnet/api';

/** One row of the spec's endpoint list, as the repository keeps it (devnet/api/endpoints.tsv). */
export type SpecEndpoint = Endpoint;

export function loadSpecEndpoints(): SpecEndpoint[] {
	return endpoints;
}

export function specEndpoint(resource: string, operation: string): SpecEndpoint {
	const found = endpoints.find((row) => row.resource === resource && row.operation === operation);
	if (!found) throw new Error(`${resource}/${operation} is not in the spec`);
	return found;
}
