import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { loadSigner, SigningKeyError } from '../helpers/signer';
import { NonceTracker } from '../helpers/transaction';
import type { SignerOperation, SigningSession } from './common';
import * as getAddress from './getAddress.operation';
import * as signMessage from './signMessage.operation';
import * as signTransaction from './signTransaction.operation';
import * as signTypedData from './signTypedData.operation';

const operations: Record<string, SignerOperation> = {
	getAddress: getAddress.execute,
	signMessage: signMessage.execute,
	signTransaction: signTransaction.execute,
	signTypedData: signTypedData.execute,
};

export const SIGNER_CREDENTIAL = 'expandSignerApi';

/** Errors n8n itself raised (a missing credential, a failed request); checked by name, as n8n may load its own copy of the classes. */
function isNodeError(error: unknown): error is NodeApiError | NodeOperationError {
	return error instanceof NodeApiError || error instanceof NodeOperationError || ['NodeApiError', 'NodeOperationError'].includes((error as Error)?.name);
}

function asNodeError(node: INode, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (isNodeError(error)) return new NodeOperationError(node, error, { itemIndex });
	// Errors of the signing library are replaced, not wrapped: their text could quote what they were
	// given. Only its identifiers (error code, argument name, fault) are kept, which quote nothing.
	const message = error instanceof SigningKeyError ? error.message : `Signing failed${libraryDetail(error)}`;
	return new NodeOperationError(node, `${message} (item ${itemIndex})`, { itemIndex });
}

function libraryDetail(error: unknown): string {
	const { code, argument, fault, operation } = (error ?? {}) as Record<string, unknown>;
	const identifier = (value: unknown) => (typeof value === 'string' && /^[A-Za-z_][\w.]{0,40}$/.test(value) ? value : undefined);
	const parts = [
		identifier(code),
		identifier(argument) && `argument "${identifier(argument)}"`,
		identifier(operation) && `operation "${identifier(operation)}"`,
		identifier(fault) && `fault "${identifier(fault)}"`,
	].filter(Boolean);
	return parts.length ? `: ${parts.join(', ')}` : '';
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];
	let session: SigningSession | undefined;

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			session ??= {
				signer: loadSigner(await this.getCredentials(SIGNER_CREDENTIAL)),
				nonces: new NonceTracker(),
				rpcUrls: new Map(),
			};
			const operation = this.getNodeParameter('operation', itemIndex) as string;
			const json: IDataObject = await operations[operation].call(this, itemIndex, session);
			returnData.push({ json, pairedItem: { item: itemIndex } });
		} catch (caught) {
			const error = asNodeError(this.getNode(), caught, itemIndex);
			if (this.continueOnFail()) {
				returnData.push({ json: { error: error.message }, pairedItem: { item: itemIndex } });
				continue;
			}
			throw error;
		}
	}
	return [returnData];
}
