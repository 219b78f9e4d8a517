import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { itemError } from '../../shared/errors';
import type { EvmAccount, EvmKeyring } from '../families/evm/accounts';
import type { ChainAnswers } from '../families/evm/fees';
import type { NonceTracker } from '../families/evm/transaction';
import type { ExecutionTotals } from '../policy/check';
import type { PayoutLedger } from '../policy/ledger';
import type { SpendingPolicy } from '../policy/policy';

/** What the items of one execution share: the keyring and policy, nonce counters, chain answers and RPC URLs. */
export interface SigningSession {
	keyring: EvmKeyring;
	policy: SpendingPolicy;
	nonces: NonceTracker;
	answers: ChainAnswers;
	rpcUrls: Map<string, Promise<string>>;
	totals: ExecutionTotals;
	/** Undefined when the credential names no ledger folder: payout IDs are then refused. */
	ledger?: PayoutLedger;
}

/** One Signer operation: its entry in the Operation list, its fields, and what it does per item. */
export interface SignerOperation {
	option: INodePropertyOptions;
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number, session: SigningSession): Promise<IDataObject>;
	/** Calls the expand.network API, so the node asks for the API credential with it. */
	usesApi?: boolean;
}

/** Account Index and Expected From, on every operation. */
export const accountProperties: INodeProperties[] = [
	{
		displayName: 'Account Index',
		name: 'accountIndex',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description:
			"Which account of the signing credential signs this item: with a mnemonic, the index in the credential's derivation path (0 is the first MetaMask or Ledger account); a private key has account 0 only",
	},
	{
		displayName: 'Expected From',
		name: 'expectedFrom',
		type: 'string',
		default: '',
		placeholder: '0x...',
		description: 'When set, the item is refused unless the account at Account Index has this address',
	},
];

/** The account that signs an item, checked against Expected From. */
export function accountOf(this: IExecuteFunctions, itemIndex: number, session: SigningSession): EvmAccount {
	const index = Number(this.getNodeParameter('accountIndex', itemIndex, 0));
	const account = session.keyring.account(index);
	const expected = String(this.getNodeParameter('expectedFrom', itemIndex, '') ?? '').trim();
	if (expected && expected.toLowerCase() !== account.address.toLowerCase()) {
		throw itemError(
			this.getNode(),
			itemIndex,
			`Refused by the rule "expectedFrom": account ${index} of the signing credential is ${account.address}, not the expected ${expected}; nothing was signed`,
		);
	}
	return account;
}
