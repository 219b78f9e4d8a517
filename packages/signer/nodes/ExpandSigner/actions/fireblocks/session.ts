import { getAddress, isAddress } from 'ethers';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { itemError } from '../../core';
import { nativeAssetIdOf } from '../../custody/fireblocks/assets';
import type { FireblocksClient } from '../../custody/fireblocks/client';
import type { FireblocksCredentials } from '../../custody/fireblocks/credentials';
import { Refusal, refusedItem } from '../../policy/refusal';
import { type Keyring, SigningKeyError, type SigningAccount } from '../../policy/vocabulary';
import type { FamilySession } from '../session';

/** Fireblocks holds the keys: the family has no account index, its vault is the sender. */
export const noKeyring: Keyring = {
	account(): SigningAccount {
		throw new SigningKeyError(
			'Fireblocks (Custodian) has no key in n8n: the vault account of the credential is the sender (Get Vault Address shows its address)',
		);
	},
};

/** The Fireblocks family's session: the credential's Fireblocks fields, its client, the vault's addresses. */
export interface FireblocksSession extends FamilySession {
	fireblocks: FireblocksCredentials;
	client: FireblocksClient;
	/** The vault account's address per chain, read from Fireblocks once per execution (at its first use). */
	vaultAddresses: Map<string, Promise<string>>;
}

/**
 * The vault account's address on the chain: its native asset's deposit address at Fireblocks
 * (GET /v1/vault/accounts/{id}/{assetId}/addresses_paginated), read once per execution and chain.
 */
export async function vaultAddressOf(
	this: IExecuteFunctions,
	session: FireblocksSession,
	chainId: string,
	itemIndex: number,
): Promise<{ address: string; assetId: string }> {
	const assetId = nativeAssetIdOf(session.fireblocks.assets, chainId);
	if (assetId instanceof Refusal) throw refusedItem(this.getNode(), itemIndex, assetId);
	const { vaultAccountId } = session.fireblocks;
	if (!session.vaultAddresses.has(chainId)) {
		const path = `/v1/vault/accounts/${encodeURIComponent(vaultAccountId)}/${encodeURIComponent(assetId)}/addresses_paginated`;
		const read = (async () => {
			const answer = (await session.client.get(path, itemIndex)) as IDataObject;
			const addresses = Array.isArray(answer.addresses) ? (answer.addresses as IDataObject[]) : [];
			const address = String(addresses[0]?.address ?? '');
			if (!isAddress(address))
				throw itemError(
					this.getNode(),
					itemIndex,
					`Fireblocks answered no EVM address for vault account ${vaultAccountId} and asset ${assetId} (chain ${chainId}); got ${JSON.stringify(address).slice(0, 60)}`,
				);
			return getAddress(address);
		})();
		// A failed read is not kept: the next item asks again.
		read.catch(() => session.vaultAddresses.delete(chainId));
		session.vaultAddresses.set(chainId, read);
	}
	return { address: await (session.vaultAddresses.get(chainId) as Promise<string>), assetId };
}

/** A chain ID parameter: a decimal above 0. */
export function chainIdParameter(
	this: IExecuteFunctions,
	itemIndex: number,
	name = 'chainId',
): string {
	const chainId = String(this.getNodeParameter(name, itemIndex, '') ?? '').trim();
	if (!/^[1-9]\d{0,19}$/.test(chainId))
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "Chain ID" must be a chain ID such as 1 or 8453; got "${chainId.slice(0, 40)}"`,
		);
	return chainId;
}

/** The Payout ID parameter: required, it is the transaction's externalTxId at Fireblocks. */
export function payoutIdParameter(
	this: IExecuteFunctions,
	itemIndex: number,
	operation: string,
): string {
	const payoutId = String(this.getNodeParameter('payoutId', itemIndex, '') ?? '').trim();
	if (!payoutId)
		throw itemError(
			this.getNode(),
			itemIndex,
			`${operation} needs a Payout ID: it is the transaction's externalTxId at Fireblocks, which makes it exactly once`,
		);
	if (payoutId.length > 255)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The Payout ID is ${payoutId.length} characters long; Fireblocks' externalTxId takes at most 255`,
		);
	return payoutId;
}

/** The Payout ID field of a Fireblocks operation: required. */
export function payoutIdField(operation: string, description: string) {
	return {
		displayName: 'Payout ID',
		name: 'payoutId',
		type: 'string' as const,
		default: '',
		required: true,
		placeholder: 'e.g. {{ $json.invoiceId }}',
		description,
		displayOptions: { show: { operation: [operation] } },
	};
}
