import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Signer } from '../helpers/signer';
import type { NonceTracker } from '../helpers/transaction';

/** What the items of one execution share: the loaded key, the nonce counters and the RPC URLs. */
export interface SigningSession {
	signer: Signer;
	nonces: NonceTracker;
	rpcUrls: Map<string, Promise<string>>;
}

/** One Signer operation: its entry in the Operation list, its fields, and what it does per item. */
export interface SignerOperation {
	option: INodePropertyOptions;
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number, session: SigningSession): Promise<IDataObject>;
	/** Calls the expand.network API, so the node asks for the API credential with it. */
	usesApi?: boolean;
}
