import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { SIGNING_KEY_CREDENTIAL } from '../../shared/credentials';
import { asNodeError, errorItem, itemError } from '../../shared/errors';
import { evmKeyring, SigningKeyError } from '../families/evm/accounts';
import { ChainAnswers } from '../families/evm/fees';
import { NonceTracker } from '../families/evm/transaction';
import { executionTotals } from '../policy/check';
import { PayoutLedger } from '../policy/ledger';
import { PolicyError, readPolicy } from '../policy/policy';
import type { SigningSession } from './common';
import { operationsByName } from './operations';

/**
 * Errors of the signing library are replaced, not wrapped: their text could quote what they were
 * given. Only its identifiers (error code, argument name, fault) are kept, which quote nothing.
 */
function signingFailure(error: unknown): string {
	if (error instanceof SigningKeyError || error instanceof PolicyError) return error.message;
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

async function openSession(this: IExecuteFunctions): Promise<SigningSession> {
	const credentials = await this.getCredentials(SIGNING_KEY_CREDENTIAL);
	const folder = String(credentials.payoutLedgerFolder ?? '').trim();
	const credentialId = this.getNode().credentials?.[SIGNING_KEY_CREDENTIAL]?.id ?? '';
	return {
		keyring: evmKeyring(credentials),
		policy: readPolicy(credentials),
		nonces: new NonceTracker(),
		answers: new ChainAnswers(),
		rpcUrls: new Map(),
		totals: executionTotals(`${this.getExecutionId()}:${this.getNode().name}:${credentialId}`),
		ledger: folder ? new PayoutLedger(this.getNode(), this.helpers, folder) : undefined,
	};
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];
	let session: SigningSession | undefined;

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			session ??= await openSession.call(this);
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
