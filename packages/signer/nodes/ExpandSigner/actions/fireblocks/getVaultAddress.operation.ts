import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { chainIdProperty } from '../evm/fields';
import { chainIdParameter, type FireblocksSession, vaultAddressOf } from './session';

export const option: INodePropertyOptions = {
	name: 'Get Vault Address',
	value: 'getVaultAddress',
	description:
		"The vault account's address on a chain, as Fireblocks gives it: the sender of its transactions",
	action: 'Get the vault address',
};

export const description: INodeProperties[] = [
	chainIdProperty(
		{ operation: ['getVaultAddress'] },
		"The chain whose address to read (its native asset's ID comes from the credential's Asset IDs)",
	),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: FireblocksSession,
): Promise<IDataObject> {
	const chainId = chainIdParameter.call(this, itemIndex);
	const { address, assetId } = await vaultAddressOf.call(this, session, chainId, itemIndex);
	return { address, chainId, assetId, vaultAccountId: session.fireblocks.vaultAccountId };
}
