import type { IDataObject } from 'n8n-workflow';

import type { OperationSpec } from '../../shared/catalog/types';
import type { ApiRequest } from '../../shared/transport/request';
import type { ItemParameters } from './parameters';

function queryValue(value: unknown): string {
	if (Array.isArray(value)) return value.join(',');
	if (typeof value === 'object' && value !== null) return JSON.stringify(value);
	return String(value);
}

/** The parts of a request that come from its catalog entry. */
function endpointBase(endpoint: OperationSpec): ApiRequest {
	return {
		method: endpoint.method,
		host: endpoint.host,
		path: endpoint.path,
		computeUnits: endpoint.computeUnits,
		...(endpoint.resendable ? { resendable: true } : {}),
		...(endpoint.unwrapped ? { unwrapped: true } : {}),
	};
}

/**
 * The HTTP request of one item: GET sends query parameters (lists comma-joined), POST a JSON
 * body (lists as arrays, switches as booleans). Named values win over the raw JSON body.
 */
export function buildRequest(operation: OperationSpec, parameters: ItemParameters): ApiRequest {
	const request: ApiRequest = endpointBase(operation);
	if (operation.method === 'GET') {
		const qs: IDataObject = { ...parameters.extra };
		for (const [name, value] of parameters.values) qs[name] = queryValue(value);
		if (Object.keys(qs).length) request.qs = qs;
	} else {
		request.body = {
			...parameters.rawBody,
			...parameters.extra,
			...Object.fromEntries(parameters.values),
		} as IDataObject;
	}
	return request;
}
