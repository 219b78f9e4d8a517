import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { SIGNING_KEY_ICON, signingKeyProperties } from './signingKeyProperties';

/**
 * The TON key that signs in Expand Signer (Chain Family: TON). It never leaves n8n: no request carries
 * it, and the node's credential test (testedBy) checks it locally and shows the wallet addresses.
 */
export class ExpandTonKeyApi implements ICredentialType {
	name = 'expandTonKeyApi';

	displayName = 'Expand TON Signing Key API';

	icon: Icon = SIGNING_KEY_ICON;

	documentationUrl =
		'https://github.com/expand-network/n8n-nodes-expand-network/blob/main/docs/signer.md#ton';

	properties: INodeProperties[] = signingKeyProperties({
		otherPhrases: [
			{
				name: 'TON Mnemonic (24 Words)',
				value: 'tonMnemonic',
				description:
					"The 24 words Tonkeeper, MyTonWallet or Tonhub show (TON's own mnemonic, not BIP-39). It has one account (Account Index 0).",
			},
		],
		key: {
			displayName: 'Secret Key',
			name: 'privateKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'The Ed25519 secret key in hexadecimal: the 32-byte seed (64 digits) or the 64-byte secret key (128 digits), with or without 0x. It has one account (Account Index 0).',
		},
		mnemonic:
			"The BIP-39 recovery phrase, as Ledger and Trust Wallet use it for TON. Account N is derived on m/44'/607'/N' (SLIP-10), N being the node's Account Index.",
		keyFields: [
			{
				displayName: 'Wallet Version',
				name: 'walletVersion',
				type: 'options',
				options: [
					{ name: 'W5 (V5R1)', value: 'W5' },
					{ name: 'V4R2', value: 'v4R2' },
				],
				default: 'W5',
				description:
					"The wallet contract the key controls, as the wallet app shows it: the address depends on it (and a W5 wallet's on the network too)",
			},
		],
		allowedChainIds: {
			placeholder: '1100',
			description:
				'Chains this key may sign for, comma-separated (1100 TON, 1101 TON testnet); empty allows both. A v4R2 wallet signs only while both are allowed: its message names no network, so one signed for either chain is valid on the other',
		},
		allowedRecipients: {
			placeholder: 'TON addresses in any form (EQ…, UQ…, 0:…), comma- or line-separated',
			description:
				"Wallets this key may pay; empty allows any. Applies to every out-message's destination and to a jetton transfer's recipient (its destination owner). With a list set, a message whose body the Signer cannot read is refused unless its destination is on the list.",
		},
		allowedContracts: {
			placeholder: 'TON addresses in any form, comma- or line-separated',
			description:
				'Contracts this key may send messages to with a body the Signer cannot read as a payment. While an amount limit or the recipient list is set, every such message is refused unless its destination is here (or on Allowed Recipients).',
		},
		allowAnyMessage:
			'Whether messages the Signer cannot read may be signed while any policy field is set.',
		maxPerTransaction: {
			placeholder: 'native = 100\nEQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs:6@1100 = 25000',
			description:
				'One limit per line, in whole units: "native = 100" (TON, any chain), "native@1100 = 100" (one chain), "JettonMaster:decimals = 1000" for a jetton named by its master, in any address form (optionally @chainId). Assets without a line are not limited. Its decimals also convert a jetton amount typed in tokens: a jetton\'s decimals are in its metadata, which the Signer does not trust.',
		},
		tokenLimit: 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs:6@1100',
		fees: [
			{
				displayName: 'Max Total Fee (TON)',
				name: 'maxTotalFee',
				type: 'string',
				default: '0.5',
				description:
					'The most TON one transaction may spend on carrying its messages, in TON; empty means 0.5. Bounds the TON a jetton transfer attaches to the jetton wallet (fees and the Forward TON Amount).',
			},
		],
		ledgerFolder:
			'Absolute path of an existing folder where n8n may write files (by default under ~/.n8n-files; see N8N_RESTRICT_FILE_ACCESS_TO). Each signed payout ID is recorded there before its message leaves the node (needed for Payout ID), and what is signed is counted there against Max Per Execution, Max Per Day and Max Per 30 Days.',
		rpcChainId: '1100',
		rpcPinnedOnly:
			"Each URL is a toncenter v2 compatible API (e.g. https://toncenter.com/api/v2), which must show its network's zero state. The sending jetton wallet is the one the jetton master's get_wallet_address answers there.",
	});
}
