import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { OperationSpec } from '../../shared/catalog/types';
import { fillEstimates } from '../helpers/gasEstimate';
import type { ItemParameters } from '../helpers/parameters';
import { buildRequest } from '../helpers/request';
import { expandApiRequest } from '../../shared/transport';
import { toRecords } from './records';

/** One call, one payload: every read and write operation without paging. */
export async function execute(
	this: IExecuteFunctions,
	operation: OperationSpec,
	parameters: ItemParameters,
	itemIndex: number,
): Promise<IDataObject[]> {
	await fillEstimates.call(this, operation, parameters, itemIndex);
	const data = await expandApiRequest.call(this, buildRequest(operation, parameters), itemIndex);
	return toRecords(data);
}
