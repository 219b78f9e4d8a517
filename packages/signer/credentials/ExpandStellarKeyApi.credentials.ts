import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { SIGNING_KEY_ICON, signingKeyProperties } from './signingKeyProperties';

/**
 * The Stellar key that signs in Expand Signer (Chain Family: Stellar). It never leaves n8n: no request
 * carries it, and the node's credential test (testedBy) checks it locally and shows the accounts.
 */
export class ExpandStellarKeyApi implements ICredentialType {
	name = 'expandStellarKeyApi';

	displayName = 'Expand Stellar Signing Key API';

	icon: Icon = SIGNING_KEY_ICON;

	documentationUrl =
		'https://github.com/expand-network/n8n-nodes-expand-network/blob/main/docs/signer.md#stellar';

	properties: INodeProperties[] = signingKeyProperties({
		key: {
			displayName: 'Secret Seed',
			name: 'privateKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"The account's secret seed, as wallets export it (S…, 56 characters). It has one account (Account Index 0).",
		},
		mnemonic:
			"The BIP-39 recovery phrase, as Lobstr, Freighter and Ledger use it for Stellar (SEP-0005). Account N is derived on m/44'/148'/N' (SLIP-10), N being the node's Account Index.",
		allowedChainIds: {
			placeholder: '1500',
			description:
				'Chains this key may sign for, comma-separated (1500 Stellar, 1501 Stellar testnet); empty allows both',
		},
		allowedRecipients: {
			placeholder: 'G… or M… accounts, comma- or line-separated',
			description:
				'Accounts this key may pay; empty allows any. Applies to every payment, path payment, account creation and claimable balance. A G… entry does not admit a muxed M… account of it (an exchange credits that to another of its customers); an M… entry admits exactly that account and ID.',
		},
		allowedContracts: {
			placeholder: 'Asset issuers (G…), comma- or line-separated',
			description:
				'Issuers whose assets this key may handle in operations the Signer does not read as a payment (trustlines, offers). While an amount limit or the recipient list is set, every such operation is refused unless its account is here (or on Allowed Recipients).',
		},
		allowAnyMessage:
			'Whether transactions with operations the Signer cannot read may be signed while any policy field is set.',
		allowAfter: [
			{
				displayName: 'Allow Account Management',
				name: 'allowAccountManagement',
				type: 'boolean',
				default: false,
				description:
					"Whether an account merge, or set options changing the account's signers, thresholds, master weight or flags, may be signed. Off: refused whatever the other fields say, as each hands the account (or its whole balance) over; no payout needs it.",
			},
		],
		maxPerTransaction: {
			placeholder:
				'native = 1000\nUSDC:GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPR5MZ3CQAKOFU@1500 = 25000',
			description:
				'One limit per line, in whole units: "native = 1000" (XLM, any chain), "native@1500 = 1000" (one chain), "CODE:ISSUER = 25000" for an issued asset (optionally @chainId). Every Stellar asset has 7 decimals. Assets without a line are not limited.',
		},
		tokenLimit: 'USDC:GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPR5MZ3CQAKOFU@1500',
		fees: [
			{
				displayName: 'Max Total Fee (XLM)',
				name: 'maxTotalFee',
				type: 'string',
				default: '1',
				description:
					'The most one transaction (or its fee bump) may charge, in XLM; empty means 1. A transaction of 100 stroops per operation costs 0.00001 XLM each.',
			},
		],
		ledgerFolder:
			'Absolute path of an existing folder where n8n may write files (by default under ~/.n8n-files; see N8N_RESTRICT_FILE_ACCESS_TO). Each signed payout ID is recorded there before its transaction leaves the node (needed for Payout ID), and what is signed is counted there against Max Per Execution, Max Per Day and Max Per 30 Days.',
		rpcChainId: '1500',
		rpcPinnedOnly:
			"Each URL is a Horizon API (e.g. https://horizon.stellar.org), which must answer with its network's passphrase. Speed Up Payout signs a payout again only on the word of a pinned Horizon.",
	});
}
