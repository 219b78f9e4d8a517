import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { findOperation } from '../../shared/catalog';
import { asNodeError, errorItem, itemError } from '../../shared/errors';
import type { OperationSpec } from '../../shared/catalog/types';
import { addFormattedAmounts, type TokenCache } from '../helpers/amounts';
import { type ItemParameters, readItemParameters } from '../helpers/parameters';
import { confirm } from './confirmation';
import * as list from './list.operation';
import * as single from './request.operation';

type OperationKind = {
	execute(this: IExecuteFunctions, operation: OperationSpec, parameters: ItemParameters, itemIndex: number): Promise<IDataObject[]>;
};

function kindOf(operation: OperationSpec): OperationKind {
	return operation.pagination ? list : single;
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];
	const tokenCache: TokenCache = new Map();

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const resource = this.getNodeParameter('resource', itemIndex) as string;
			const operationName = this.getNodeParameter('operation', itemIndex) as string;
			const operation = findOperation(resource, operationName);
			if (!operation) {
				throw itemError(this.getNode(), itemIndex, `The operation "${resource}/${operationName}" is not supported`);
			}
			const parameters = readItemParameters.call(this, operation, itemIndex);
			const records = await confirm.call(this, operation, parameters, await kindOf(operation).execute.call(this, operation, parameters, itemIndex), itemIndex);
			if (operation.amounts && this.getNodeParameter('formatAmounts', itemIndex, false)) {
				await addFormattedAmounts.call(this, operation, parameters, records, tokenCache, itemIndex);
			}
			returnData.push(
				...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(records), {
					itemData: { item: itemIndex },
				}),
			);
		} catch (caught) {
			const error = asNodeError(this.getNode(), caught, itemIndex);
			if (this.continueOnFail()) {
				returnData.push(errorItem(error, itemIndex));
				continue;
			}
			throw error;
		}
	}
	return [returnData];
}
