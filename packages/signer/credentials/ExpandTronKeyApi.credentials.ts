import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { SIGNING_KEY_ICON, signingKeyProperties } from './signingKeyProperties';

/**
 * The Tron key that signs in Expand Signer (Chain Family: Tron). It never leaves n8n: no request
 * carries it, and the node's credential test (testedBy) checks it locally and shows the addresses.
 */
export class ExpandTronKeyApi implements ICredentialType {
	name = 'expandTronKeyApi';

	displayName = 'Expand Tron Signing Key API';

	icon: Icon = SIGNING_KEY_ICON;

	documentationUrl =
		'https://github.com/expand-network/n8n-nodes-expand-network/blob/main/docs/signer.md#tron';

	properties: INodeProperties[] = signingKeyProperties({
		key: {
			displayName: 'Private Key',
			name: 'privateKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'The 64 hexadecimal digits TronLink exports (Export Private Key), with or without 0x. It has one account (Account Index 0).',
		},
		mnemonic:
			"The BIP-39 recovery phrase. Account N is derived on m/44'/195'/0'/0/N (TronLink, Ledger's Tron app), N being the node's Account Index.",
		turnkey: {
			placeholder: 'Base58 address (T…)',
			description:
				"The address of the Turnkey wallet account (Tron) that signs (its only account, Account Index 0); Turnkey's policies must let the API key sign with it",
		},
		allowedChainIds: {
			placeholder: '1000',
			description:
				'Chains this key may sign for, comma-separated (1000 Tron, 1001 Tron Nile testnet); empty allows both',
		},
		allowedRecipients: {
			placeholder: 'Base58 (T…) or hex (41…) addresses, comma- or line-separated',
			description:
				'Wallets this key may pay; empty allows any. Applies to TRX and TRC-10 transfers, to the recipient of TRC-20 transfers and transferFrom, and to the spender of TRC-20 approvals. With a list set, any contract call the Signer cannot read is refused unless its contract is on the list; other contract types (freezing, voting, permissions) are always refused.',
		},
		allowedContracts: {
			placeholder: 'Base58 (T…) or hex (41…) contract addresses, comma- or line-separated',
			description:
				'Contracts this key may call with data the Signer cannot read as a payment. While an amount limit or the recipient list is set, every such call is refused unless its contract is here (or on Allowed Recipients), and so is a TRC-10 transfer unless its recipient (or the contract called) is: no amount limit can name a TRC-10 token.',
		},
		allowAnyMessage:
			'Whether messages the Signer cannot read may be signed while any policy field is set. Off: only plain UTF-8 text is signed (TIP-191, as TronLink signMessageV2).',
		maxPerTransaction: {
			placeholder: 'native = 100\nTR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t:6@1000 = 25000',
			description:
				'One limit per line, in whole units: "native = 100" (TRX, any chain), "native@1000 = 100" (one chain), "TokenAddress:decimals = 1000" for a TRC-20 token, base58 or hex (optionally @chainId). Assets without a line are not limited. A TRC-10 token has no line: under a limit its transfers are refused unless their recipient is on Allowed Contracts or Allowed Recipients. Its decimals also convert a TRC-20 amount typed in tokens.',
		},
		tokenLimit: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t:6@1000',
		fees: [
			{
				displayName: 'Max Total Fee (TRX)',
				name: 'maxTotalFee',
				type: 'string',
				default: '30',
				description:
					'Highest fee limit one transaction may set (fee_limit: the most its contract call may burn in energy), in TRX; empty means 30. A TRX transfer sets none; what a TRC-20 transfer burns depends on the energy the account has staked and on whether its recipient ever held the token.',
			},
		],
		ledgerFolder:
			'Absolute path of an existing folder where n8n may write files (by default under ~/.n8n-files; see N8N_RESTRICT_FILE_ACCESS_TO). Each signed payout ID is recorded there before its transaction leaves the node (needed for Payout ID), and what is signed is counted there against Max Per Execution, Max Per Day and Max Per 30 Days.',
		rpcChainId: '1000',
	});
}
