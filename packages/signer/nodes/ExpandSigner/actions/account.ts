import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { itemError } from '../../shared/errors';
import type { EvmKeyring } from '../families/evm/accounts';
import type { Keyring, SigningAccount } from '../policy/vocabulary';
import type { ChainAnswers } from '../families/evm/fees';
import type { NonceTracker } from '../families/evm/transaction';
import type { ExecutionTotals } from '../policy/check';
import type { PayoutLedger } from '../ledger/payoutLedger';
import type { NonceClaims } from '../nonces/claims';
import type { SpendingPolicy } from '../policy/policy';

/** What the items of one execution share in every chain family: the accounts, the policy and its totals, the payout ledger. */
export interface FamilySession<K extends Keyring = Keyring> {
	keyring: K;
	policy: SpendingPolicy;
	totals: ExecutionTotals;
	/** RPC URLs by chain, one lookup per chain per execution. */
	rpcUrls: Map<string, Promise<string>>;
	/** Undefined when the credential names no ledger folder: payout IDs are then refused. */
	ledger?: PayoutLedger;
}

/** The EVM family's session: also nonce counters and chain answers. */
export interface EvmSession extends FamilySession<EvmKeyring> {
	nonces: NonceTracker;
	answers: ChainAnswers;
	/** Automatic nonces claimed in the credential's folder, so other executions and processes never sign the same one. */
	claims?: NonceClaims;
}

/** One Signer operation: its entry in the Operation list, its fields, and what it does per item. */
export interface SignerOperation<Session = EvmSession> {
	option: INodePropertyOptions;
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number, session: Session): Promise<IDataObject>;
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
			"Which account of the signing credential signs this item: with a mnemonic, the index in the derivation path (0 is the first MetaMask, Ledger or Phantom account); a single private or secret key has account 0 only",
	},
	{
		displayName: 'Expected From',
		name: 'expectedFrom',
		type: 'string',
		default: '',
		placeholder: 'e.g. 0x... or a Solana address',
		description: 'When set, the item is refused unless the account at Account Index has this address',
	},
];

/** The account that signs an item, checked against Expected From. */
export function accountOf<A extends SigningAccount>(context: IExecuteFunctions, itemIndex: number, session: { keyring: { account(index: number): A }; policy: SpendingPolicy }): A {
	const index = Number(context.getNodeParameter('accountIndex', itemIndex, 0));
	const account = session.keyring.account(index);
	const expected = String(context.getNodeParameter('expectedFrom', itemIndex, '') ?? '').trim();
	// Compared as the family compares addresses: EVM ignores letter case (a checksum), Solana does not.
	if (expected && session.policy.format.key(expected) !== session.policy.format.key(account.address)) {
		throw itemError(
			context.getNode(),
			itemIndex,
			`Refused by the rule "expectedFrom": account ${index} of the signing credential is ${account.address}, not the expected ${expected}; nothing was signed`,
		);
	}
	return account;
}
