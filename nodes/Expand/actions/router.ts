import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { findOperation } from '../catalog';
import type { OperationSpec } from '../catalog/types';
import { addFormattedAmounts, type TokenCache } from '../helpers/amounts';
import { type ItemParameters, readItemParameters } from '../helpers/parameters';
import * as list from './list.operation';
import * as single from './request.operation';

type OperationKind = {
	execute(this: IExecuteFunctions, operation: OperationSpec, parameters: ItemParameters, itemIndex: number): Promise<IDataObject[]>;
};

function kindOf(operation: OperationSpec): OperationKind {
	return operation.pagination ? list : single;
}

function asNodeError(node: INode, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error as Error, { itemIndex });
}

function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	if (error.description) json.description = error.description;
	return { json, pairedItem: { item: itemIndex } };
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
				throw new NodeOperationError(this.getNode(), `The operation "${resource}/${operationName}" is not supported`, {
					itemIndex,
				});
			}
			const parameters = readItemParameters.call(this, operation, itemIndex);
			const records = await kindOf(operation).execute.call(this, operation, parameters, itemIndex);
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
