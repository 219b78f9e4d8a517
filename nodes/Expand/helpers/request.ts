import type { IDataObject } from 'n8n-workflow';

import type { OperationSpec } from '../../shared/catalog/types';
import { type ApiRequest, endpointRequest } from '../../shared/transport/request';
import type { ItemParameters } from './parameters';

/**
 * The HTTP request of one item: its operation's endpoint with the item's values (lists comma-joined
 * in a query, arrays in a body). Named values win over the extra parameters and the raw JSON body
 * of undocumented operations (a POST's only).
 */
export function buildRequest(operation: OperationSpec, parameters: ItemParameters): ApiRequest {
	return endpointRequest(operation, {
		...parameters.rawBody,
		...parameters.extra,
		...Object.fromEntries(parameters.values),
	} as IDataObject);
}
