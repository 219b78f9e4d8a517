import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { TON_CHAINS } from '../../families/ton';
import { chainIdProperty, readChainId, tonAccountOf } from './fields';
import type { TonSession } from './session';

export const option: INodePropertyOptions = {
	name: 'Get Address',
	value: 'getAddress',
	description: 'Show the wallet address of an account of the stored key on a TON chain',
	action: 'Get the signing address',
};

export const description: INodeProperties[] = [chainIdProperty('getAddress')];

/** The wallet's address in its three forms (user-friendly bounceable and non-bounceable, raw), never the key. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TonSession,
): Promise<IDataObject> {
	const chainId = readChainId.call(this, itemIndex, session);
	const account = tonAccountOf.call(this, itemIndex, session, chainId);
	const path = session.keyring.shownPath?.(account.index);
	return {
		address: account.nonBounceable,
		bounceable: account.bounceable,
		nonBounceable: account.nonBounceable,
		rawAddress: account.address,
		walletVersion: account.walletVersion,
		testnet: TON_CHAINS[chainId].testnet,
		chainId,
		accountIndex: account.index,
		...(path ? { derivationPath: path } : {}),
	};
}
