import { getAddress } from 'ethers';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { ChainClient, itemError, type SafeMultisigTransaction } from '../../core';
import { safeTxHash as hashOf } from '../../families/evm/safeTx';
import { chainIdProperty } from './fields';
import { proposalStatus, safeApiOf, storedProposal } from './safe';
import { type ConfirmedExecution, confirmedExecution, safeNonce } from './safeExecution';
import type { EvmSession } from './session';
import { outputsOnTimeout, timeoutProperties, waitUntil } from '../waitForItem';

export const option: INodePropertyOptions = {
	name: 'Get Safe Proposal',
	value: 'getSafeProposal',
	description:
		'Where a Safe proposal stands: confirmations, threshold, and its execution as the chain confirms it (transaction, block, date)',
	action: 'Get a Safe proposal',
};

export const usesSafeApi = true;
/** An execution is believed from the chain's JSON-RPC node: the credential's pinned one, else the one the API names. */
export const usesApi = true;

const show = { operation: ['getSafeProposal'] };

/** Between two reads while waiting: the service indexes an execution within about half a minute. */
const POLL_SECONDS = 5;

export const description: INodeProperties[] = [
	{
		displayName: 'Safe Transaction Hash',
		name: 'safeTxHash',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. {{ $json.safeTxHash }}',
		description: 'The safeTxHash of the proposal (Propose to Safe outputs it)',
		displayOptions: { show },
	},
	chainIdProperty(
		show,
		"The Safe's chain (Propose to Safe outputs it): an execution is believed only when this chain's node confirms it",
		'e.g. {{ $json.chainId }}',
	),
	{
		displayName: 'Wait for Execution',
		name: 'waitForExecution',
		type: 'boolean',
		default: false,
		description:
			"Whether to keep reading the proposal until the chain confirms the Safe executed it (owners confirm and execute it in Safe{Wallet}), the Safe's nonce passes it without an execution the chain confirms (executed or replaced: the item fails, or goes on with On Timeout's output), or the timeout passes",
		displayOptions: { show },
	},
	...timeoutProperties(show, 'waitForExecution', {
		timeout:
			'How long to wait at most. For waits of hours or days, use the Expand Trigger\'s "Safe transaction executed" event instead: a waiting execution holds its worker.',
		fail: 'The item fails with an error naming the proposal and its confirmations',
		output: {
			name: 'Output the Proposal',
			description: 'The item goes on with executed false and timedOut true',
		},
	}),
];

/** The date of the block that holds the execution, from the chain's node; the block must be the receipt's own. */
async function blockDate(
	this: IExecuteFunctions,
	itemIndex: number,
	client: ChainClient,
	execution: ConfirmedExecution,
): Promise<string> {
	const block = await client.rpc<{ hash?: unknown; timestamp?: unknown } | null>(
		'eth_getBlockByHash',
		[execution.blockHash, false],
	);
	const { hash, timestamp } = block ?? {};
	if (
		String(hash).toLowerCase() !== execution.blockHash.toLowerCase() ||
		typeof timestamp !== 'string' ||
		!/^0x[0-9a-fA-F]{1,12}$/.test(timestamp)
	)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The chain's JSON-RPC node answered block ${execution.blockHash} of the execution ${execution.transactionHash} without its own hash and a valid timestamp`,
		);
	return new Date(Number(BigInt(timestamp)) * 1000).toISOString();
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
): Promise<IDataObject> {
	const credentials = await safeApiOf.call(this, session, itemIndex, option.name);
	const node = this.getNode();
	const safeTxHash = String(this.getNodeParameter('safeTxHash', itemIndex, '') ?? '').trim();
	if (!/^0x[0-9a-fA-F]{64}$/.test(safeTxHash))
		throw itemError(
			node,
			itemIndex,
			`The parameter "Safe Transaction Hash" must be a 0x hash of 32 bytes; got "${safeTxHash}"`,
		);
	const chainId = String(this.getNodeParameter('chainId', itemIndex, '') ?? '').trim();
	if (!/^\d{1,20}$/.test(chainId))
		throw itemError(
			node,
			itemIndex,
			`The parameter "Chain ID" must be a chain ID such as 1 or 8453; got "${chainId.slice(0, 40)}"`,
		);
	const client = new ChainClient(this, chainId, itemIndex, session.rpcUrls);
	/**
	 * Where a proposal the chain does not show executed stands: once the service's fields are known to
	 * be the proposal's (they hash to it), the Safe's nonce says whether it is still `proposed` or was
	 * passed (`executedOrReplaced`, whatever the service shows: nothing more can happen to wait for).
	 * Fields that do not hash to it say nothing of it (`unverified`).
	 */
	const standing = async (
		stored: SafeMultisigTransaction,
		own: string,
	): Promise<{ chainStatus: string; statusMessage: string }> => {
		if (own.toLowerCase() !== safeTxHash.toLowerCase())
			return {
				chainStatus: 'unverified',
				statusMessage: `The Safe API's fields of the proposal hash to ${own} for Safe ${stored.safe} on chain ${chainId}, not to ${safeTxHash}: nothing it says of this proposal can be checked on the chain`,
			};
		const onChain = await safeNonce.call(this, itemIndex, client, chainId, stored.safe);
		return onChain > BigInt(stored.nonce)
			? {
					chainStatus: 'executedOrReplaced',
					statusMessage: `The Safe's nonce on chain ${chainId} is ${onChain}, past this proposal's ${stored.nonce}: it was executed, or another transaction of its nonce was, and the Safe API shows no execution the chain confirms; check the Safe's history before paying it again`,
				}
			: { chainStatus: 'proposed', statusMessage: '' };
	};
	/** The proposal as the service has it, and its execution only as the chain confirms it. */
	const read = async (): Promise<{
		stored: SafeMultisigTransaction;
		status: IDataObject;
		executed: boolean;
		passed: boolean;
	}> => {
		const stored: SafeMultisigTransaction = await storedProposal.call(
			this,
			credentials,
			safeTxHash,
			itemIndex,
		);
		const own = hashOf(chainId, stored.safe, { ...stored, data: stored.data ?? '0x' });
		// What the proposal does, shown only when the service's fields are the proposal's (they hash to
		// it), so a workflow can hold an execution to the payout it expects.
		const authentic = own.toLowerCase() === safeTxHash.toLowerCase();
		const does = {
			to: authentic ? getAddress(stored.to) : null,
			value: authentic ? stored.value : null,
			data: authentic ? stored.data : null,
		};
		const unconfirmed = async (why?: string) => {
			const stands = await standing(stored, own);
			return {
				stored,
				status: { ...proposalStatus(stored, why), ...does, ...stands },
				executed: false,
				passed: stands.chainStatus === 'executedOrReplaced',
			};
		};
		if (!stored.isExecuted) return await unconfirmed();
		const asked = { chainId, safe: stored.safe, safeTxHash };
		const execution = await confirmedExecution.call(this, itemIndex, client, asked, stored);
		if (typeof execution === 'string') return await unconfirmed(execution);
		const date = await blockDate.call(this, itemIndex, client, execution);
		return {
			stored,
			status: {
				...proposalStatus(stored, { ...execution, date }),
				...does,
				chainStatus: 'executed',
				statusMessage: '',
			},
			executed: true,
			passed: true,
		};
	};
	const first = await read();
	if (!this.getNodeParameter('waitForExecution', itemIndex, false)) return first.status;
	// A service that says executed while the chain does not confirm it is waited on like one that says
	// not yet; once the Safe's nonce has passed the proposal, nothing more can happen to wait for.
	const { current, timeoutSeconds } = await waitUntil(
		this,
		itemIndex,
		first,
		(proposal) => proposal.passed,
		read,
		POLL_SECONDS * 1000,
	);
	const { stored, status } = current;
	if (current.executed) return { ...status, timedOut: false };
	if (current.passed) {
		if (outputsOnTimeout.call(this, itemIndex)) return { ...status, timedOut: false };
		throw itemError(
			node,
			itemIndex,
			`The Safe proposal ${safeTxHash}: ${String(status.statusMessage)}`,
		);
	}
	if (outputsOnTimeout.call(this, itemIndex)) return { ...status, timedOut: true };
	const claim = status.serviceClaims as IDataObject | undefined;
	throw itemError(
		node,
		itemIndex,
		`The Safe proposal ${safeTxHash} was not executed within ${timeoutSeconds} s (${stored.confirmations.length} of ${stored.confirmationsRequired ?? '?'} confirmations)${claim ? `; the Safe API says it was, but the chain does not confirm it: ${String(claim.notBelievedBecause)}` : ''}`,
	);
}
