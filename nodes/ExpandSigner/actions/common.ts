import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { NonceTracker } from '../helpers/transaction';
import type { Signer } from '../helpers/signer';

/** What the items of one execution share: the loaded key, the nonce counters and the RPC URLs. */
export interface SigningSession {
	signer: Signer;
	nonces: NonceTracker;
	rpcUrls: Map<string, Promise<string>>;
}

export type SignerOperation = (this: IExecuteFunctions, itemIndex: number, session: SigningSession) => Promise<IDataObject>;
