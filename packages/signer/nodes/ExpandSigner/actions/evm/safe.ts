import { getAddress, isAddress } from 'ethers';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	getMultisigTransaction,
	itemError,
	readSafeCredentials,
	SAFE_API_CREDENTIAL,
	type SafeApiCredentials,
	type SafeMultisigTransaction,
} from '../../core';
import type { ConfirmedExecution } from './safeExecution';
import type { EvmSession } from './session';

/** Whether the node has a Safe API credential selected. */
export const hasSafeApi = (context: IExecuteFunctions): boolean =>
	Boolean(context.getNode().credentials?.[SAFE_API_CREDENTIAL]);

/**
 * The Safe API credential, read once per execution. n8n cannot mark it required for some operations
 * only (operations.ts, safeApiDisplay), so an operation that needs it fails here, named by its label.
 */
export async function safeApiOf(
	this: IExecuteFunctions,
	session: EvmSession,
	itemIndex: number,
	operation: string,
): Promise<SafeApiCredentials> {
	if (!hasSafeApi(this))
		throw itemError(
			this.getNode(),
			itemIndex,
			`${operation} needs a Safe API credential (the Safe Transaction Service's URL): select one on the node; nothing was sent to the Safe service`,
		);
	session.safeApi ??= readSafeCredentials(this, itemIndex);
	return await session.safeApi;
}

/** A parameter that must be a 0x address, checksummed (the Safe service wants that form in its paths). */
export function addressParameter(
	this: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): string {
	const value = String(this.getNodeParameter(name, itemIndex, '') ?? '').trim();
	if (!isAddress(value))
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "${label}" must be a 0x address of 20 bytes (checksummed if in mixed case); got "${value}"`,
		);
	return getAddress(value);
}

/** A proposal as the service has it, read by its safeTxHash; an error when the service does not know it. */
export async function storedProposal(
	this: IExecuteFunctions,
	credentials: SafeApiCredentials,
	safeTxHash: string,
	itemIndex: number,
): Promise<SafeMultisigTransaction> {
	const stored = await getMultisigTransaction.call(this, credentials, safeTxHash, itemIndex);
	if (!stored)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The Safe API does not know the proposal ${safeTxHash} (HTTP 404 at ${credentials.data.serviceUrl})`,
		);
	return stored;
}

/** Why an execution the Safe API lists was not believed where the chain was not asked. */
const NOT_ASKED = 'the chain was not asked here: Get Safe Proposal and Check Payouts check it';

/**
 * Where a proposal stands, as Propose to Safe and Get Safe Proposal show it: the service's proposal
 * and confirmations, and an execution only as `execution` (checked on the chain) has it. What the
 * service says of an execution the chain does not confirm goes in `serviceClaims`, with why it was
 * not believed, never in `executed`.
 */
export function proposalStatus(
	stored: SafeMultisigTransaction,
	execution: (ConfirmedExecution & { date: string }) | string = NOT_ASKED,
): IDataObject {
	const confirmed = typeof execution === 'string' ? undefined : execution;
	return {
		safeTxHash: stored.safeTxHash,
		safe: getAddress(stored.safe),
		nonce: stored.nonce,
		confirmations: stored.confirmations.length,
		confirmedBy: stored.confirmations.map((confirmation) => getAddress(confirmation.owner)),
		threshold: stored.confirmationsRequired,
		executed: confirmed !== undefined,
		successful: confirmed?.successful ?? null,
		executionTransactionHash: confirmed?.transactionHash ?? null,
		executionBlock: confirmed ? Number(confirmed.blockNumber) : null,
		executionDate: confirmed?.date ?? null,
		...(stored.isExecuted && !confirmed
			? {
					serviceClaims: {
						executed: true,
						successful: stored.isSuccessful,
						executionTransactionHash: stored.transactionHash,
						executionBlock: stored.blockNumber,
						executionDate: stored.executionDate,
						notBelievedBecause: execution,
					},
				}
			: {}),
	};
}
