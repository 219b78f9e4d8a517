import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { findOperation, returnsUnsignedTransaction } from '../../shared/catalog';
import { asNodeError, errorItem, itemError, type NodeError } from '../../shared/errors';
import type { OperationSpec } from '../../shared/catalog/types';
import { INTENT_KEY } from '../../shared/intent';
import { type ApiSession, openApiSession } from '../../shared/transport';
import { toSmallestUnits } from '../helpers/amountInputs';
import { addFormattedAmounts, type TokenCache } from '../helpers/amounts';
import { queryOf } from '../helpers/echo';
import { boundIntent } from '../helpers/formItem';
import { intentOf } from '../helpers/intent';
import { itemParameter, nodeOf } from '../helpers/itemParameter';
import { type ItemParameters, readItemParameters } from '../helpers/parameters';
import { refuseTransactionCount } from '../helpers/transactionCount';
import { confirm } from './confirmation';
import { type ExecutionOptions, readExecutionOptions } from './executionOptions';
import * as list from './list.operation';
import * as single from './request.operation';

type OperationKind = {
	execute(
		this: IExecuteFunctions,
		operation: OperationSpec,
		parameters: ItemParameters,
		itemIndex: number,
	): Promise<IDataObject[]>;
};

function kindOf(operation: OperationSpec): OperationKind {
	return operation.pagination ? list : single;
}

interface Failure {
	itemIndex: number;
	error: NodeError;
}

interface Execution {
	operation: OperationSpec;
	options: ExecutionOptions;
	session: ApiSession;
	tokenCache: TokenCache;
}

async function runItem(
	this: IExecuteFunctions,
	execution: Execution,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { operation, options, session } = execution;
	const parameters = readItemParameters.call(this, operation, itemIndex);
	await toSmallestUnits.call(this, operation, parameters, execution.tokenCache, itemIndex);
	const records = await confirm.call(
		this,
		operation,
		parameters,
		await kindOf(operation).execute.call(this, operation, parameters, itemIndex),
		itemIndex,
	);
	// Every version: one form item, one transaction; an answer of none or several is refused (an attack, never a legitimate answer).
	if (returnsUnsignedTransaction(operation))
		refuseTransactionCount(this.getNode(), operation, records, itemIndex);
	if (operation.amounts && itemParameter.call(this, 'formatAmounts', itemIndex, false)) {
		await addFormattedAmounts.call(
			this,
			operation,
			parameters,
			records,
			execution.tokenCache,
			itemIndex,
		);
	}
	// Version 2 reads say what they answer; version 1 outputs stay as they were.
	if (operation.kind === 'read' && nodeOf(this).typeVersion >= 2) {
		const query = queryOf(operation, parameters);
		for (const record of records) record.query = { ...query };
	}
	// Every version: an added field, which lets Expand Signer hold the transaction to what was asked
	// and to the form item it was asked by.
	if (returnsUnsignedTransaction(operation)) {
		const intent = intentOf(operation, parameters);
		for (const [index, record] of records.entries())
			record[INTENT_KEY] = boundIntent.call(this, intent, itemIndex, index, records.length);
	}
	if (options.addComputeUnits) {
		const units = session.budget.spentBy(itemIndex);
		for (const record of records) record.computeUnits = units;
	}
	return this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(records), {
		itemData: { item: itemIndex },
	});
}

/**
 * Runs the items with up to "Requests in Parallel" in flight and returns their outputs in input
 * order, each paired with its item. Without Continue On Fail, no new item starts after a failure,
 * and the error of the first failing item (in input order) is thrown once the others in flight end.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = findOperation(resource, operationName);
	if (!operation)
		throw itemError(
			this.getNode(),
			0,
			`The operation "${resource}/${operationName}" is not supported`,
		);
	const options = readExecutionOptions.call(this);
	const session = openApiSession(this, options.session);
	const execution: Execution = { operation, options, session, tokenCache: new Map() };
	const continueOnFail = this.continueOnFail();

	const outputs: INodeExecutionData[][] = new Array(items.length);
	// The first failure in input order; kept in an object, as workers set it while the loop runs.
	const stop: { failure?: Failure } = {};
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < items.length && !stop.failure) {
			const itemIndex = next++;
			try {
				outputs[itemIndex] = await runItem.call(this, execution, itemIndex);
			} catch (caught) {
				const error = asNodeError(nodeOf(this), caught, itemIndex);
				if (continueOnFail) {
					const item = errorItem(error, itemIndex);
					if (options.addComputeUnits) item.json.computeUnits = session.budget.spentBy(itemIndex);
					outputs[itemIndex] = [item];
				} else {
					// Another worker may have recorded one meanwhile (the loop condition's narrowing is stale here).
					const earlier = stop.failure as Failure | undefined;
					if (!earlier || itemIndex < earlier.itemIndex) stop.failure = { itemIndex, error };
				}
			}
		}
	};
	const parallel = operation.inOrder ? 1 : options.parallelRequests;
	await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
	if (stop.failure) throw stop.failure.error;
	return [outputs.flat()];
}
