import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { SIGNING_KEY_CREDENTIAL } from '../../shared/credentials';
import { asNodeError, errorItem, itemError } from '../../shared/errors';
import { loadSigner, SigningKeyError } from '../helpers/signer';
import { NonceTracker } from '../helpers/transaction';
import type { SigningSession } from './common';
import { operationsByName } from './operations';

/**
 * Errors of the signing library are replaced, not wrapped: their text could quote what they were
 * given. Only its identifiers (error code, argument name, fault) are kept, which quote nothing.
 */
function signingFailure(error: unknown): string {
	if (error instanceof SigningKeyError) return error.message;
	const { code, argument, fault, operation } = (error ?? {}) as Record<string, unknown>;
	const identifier = (value: unknown) => (typeof value === 'string' && /^[A-Za-z_][\w.]{0,40}$/.test(value) ? value : undefined);
	const parts = [
		identifier(code),
		identifier(argument) && `argument "${identifier(argument)}"`,
		identifier(operation) && `operation "${identifier(operation)}"`,
		identifier(fault) && `fault "${identifier(fault)}"`,
	].filter(Boolean);
	return `Signing failed${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];
	let session: SigningSession | undefined;

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			session ??= {
				signer: loadSigner(await this.getCredentials(SIGNING_KEY_CREDENTIAL)),
				nonces: new NonceTracker(),
				rpcUrls: new Map(),
			};
			const name = this.getNodeParameter('operation', itemIndex) as string;
			const operation = operationsByName.get(name);
			if (!operation) throw itemError(this.getNode(), itemIndex, `The operation "${name}" is not supported`);
			const json = await operation.execute.call(this, itemIndex, session);
			returnData.push({ json, pairedItem: { item: itemIndex } });
		} catch (caught) {
			const error = asNodeError(this.getNode(), caught, itemIndex, signingFailure);
			if (this.continueOnFail()) {
				returnData.push(errorItem(error, itemIndex));
				continue;
			}
			throw error;
		}
	}
	return [returnData];
}
