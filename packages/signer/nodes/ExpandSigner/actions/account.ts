import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { SpendingPolicy } from '../policy/policy';
import { Refusal, refusedItem } from '../policy/refusal';
import type { SigningAccount } from '../policy/vocabulary';

/** Account Index and Expected From, on every operation. */
export const accountProperties: INodeProperties[] = [
	{
		displayName: 'Account Index',
		name: 'accountIndex',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description:
			'Which account of the signing credential signs this item: with a mnemonic, the index in the derivation path (0 is the first MetaMask, Ledger or Phantom account); a single private or secret key has account 0 only',
	},
	{
		displayName: 'Expected From',
		name: 'expectedFrom',
		type: 'string',
		default: '',
		placeholder: 'e.g. 0x..., a Solana or a Tron address',
		description:
			'When set, the item is refused unless the account at Account Index has this address',
	},
];

/** The account that signs an item, checked against Expected From. */
export function accountOf<A extends SigningAccount>(
	context: IExecuteFunctions,
	itemIndex: number,
	session: { keyring: { account(index: number): A }; policy: SpendingPolicy },
): A {
	const index = Number(context.getNodeParameter('accountIndex', itemIndex, 0));
	const account = session.keyring.account(index);
	const expected = String(context.getNodeParameter('expectedFrom', itemIndex, '') ?? '').trim();
	// Compared as the family compares addresses: EVM ignores letter case (a checksum), Solana does not, Tron as base58 (its hex form too).
	if (
		expected &&
		session.policy.format.key(expected) !== session.policy.format.key(account.address)
	) {
		throw refusedItem(
			context.getNode(),
			itemIndex,
			new Refusal(
				'expectedFrom',
				`account ${index} of the signing credential is ${account.address}, not the expected ${expected}`,
			),
		);
	}
	return account;
}
