import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asNodeError, errorItem, itemError, type NodeError } from '../core';
import type { JournalDraft } from '../ledger/journalDraft';
import { refusalOf } from '../policy/refusal';
import { journalDraftOf } from './session';
import type { SignerFamily } from './signerFamily';
import { chainFamilyProperty, familiesByName, operationOf } from './operations';

/**
 * Errors of the signing libraries are replaced, not wrapped: their text could quote what they were
 * given. The family's own errors keep their messages (which never quote key material); of any other,
 * only its identifiers (error code, argument name, fault) are kept, which quote nothing.
 */
function signingFailure(family: SignerFamily | undefined, error: unknown): string {
	const described = family?.describeError(error);
	if (described !== undefined) return described;
	const { code, argument, fault, operation } = (error ?? {}) as Record<string, unknown>;
	const identifier = (value: unknown) =>
		typeof value === 'string' && /^[A-Za-z_][\w.]{0,40}$/.test(value) ? value : undefined;
	const parts = [
		identifier(code),
		identifier(argument) && `argument "${identifier(argument)}"`,
		identifier(operation) && `operation "${identifier(operation)}"`,
		identifier(fault) && `fault "${identifier(fault)}"`,
	].filter(Boolean);
	return `Signing failed${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

/**
 * A refused transaction is journaled with its rule and message. A journal that cannot be written
 * leaves the refusal as it is, and says so in its description.
 */
async function journalRefusal(
	draft: JournalDraft | undefined,
	caught: unknown,
	error: NodeError,
): Promise<void> {
	const refusal = refusalOf(caught);
	const note = refusal && (await draft?.refused(refusal));
	if (note && 'journalError' in note)
		error.description = [error.description, `Not journaled: ${note.journalError}`]
			.filter(Boolean)
			.join('\n');
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];
	const familyName = this.getNodeParameter('chainFamily', 0, chainFamilyProperty.default) as string;
	const family = familiesByName.get(familyName);
	let session: unknown;

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		let draft: JournalDraft | undefined;
		try {
			if (!family)
				throw itemError(
					this.getNode(),
					itemIndex,
					`The chain family "${familyName}" is not supported`,
				);
			session ??= await family.openSession.call(this);
			const name = this.getNodeParameter('operation', itemIndex) as string;
			const operation = operationOf(family, name);
			if (!operation)
				throw itemError(
					this.getNode(),
					itemIndex,
					`The operation "${name}" is not supported for the chain family "${familyName}"`,
				);
			draft = journalDraftOf(session, itemIndex, name, operation.journals);
			const result = await operation.execute.call(this, itemIndex, session, draft);
			for (const json of Array.isArray(result) ? result : [result])
				returnData.push({ json, pairedItem: { item: itemIndex } });
		} catch (caught) {
			const error = asNodeError(this.getNode(), caught, itemIndex, (failure) =>
				signingFailure(family, failure),
			);
			await journalRefusal(draft, caught, error);
			if (this.continueOnFail()) {
				returnData.push(errorItem(error, itemIndex));
				continue;
			}
			throw error;
		}
	}
	return [returnData];
}
