import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { SIGNING_KEY_ICON, signingKeyProperties } from './signingKeyProperties';

/**
 * The Solana key that signs in Expand Signer (Chain Family: Solana). It never leaves n8n: no request
 * carries it, and the node's credential test (testedBy) checks it locally and shows the addresses.
 */
export class ExpandSolanaKeyApi implements ICredentialType {
	name = 'expandSolanaKeyApi';

	displayName = 'Expand Solana Signing Key API';

	icon: Icon = SIGNING_KEY_ICON;

	documentationUrl =
		'https://github.com/expand-network/n8n-nodes-expand-network/blob/main/docs/signer.md#solana';

	properties: INodeProperties[] = signingKeyProperties({
		key: {
			displayName: 'Secret Key',
			name: 'secretKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'The 64-byte key pair: base58 as Phantom and Solflare export it, or the JSON array of a solana-keygen key file ([12, 34, …]). It has one account (Account Index 0).',
		},
		mnemonic:
			"The BIP-39 recovery phrase. Account N is derived on m/44'/501'/N'/0' (Phantom, Solflare, solana-keygen), N being the node's Account Index.",
		turnkey: {
			placeholder: 'Base58 address',
			description:
				"The address of the Turnkey wallet account (Solana) that signs (its only account, Account Index 0); Turnkey's policies must let the API key sign with it",
		},
		allowedChainIds: {
			placeholder: '900',
			description:
				'Chains this key may sign for, comma-separated (900 Solana, 901 Solana Devnet); empty allows both',
		},
		allowedRecipients: {
			placeholder: 'Base58 addresses, comma- or line-separated',
			description:
				'Wallets this key may pay; empty allows any. Applies to SOL transfers, to the owner of the receiving token account of SPL transfers (or the delegate of an approval) and to the owner of a token account whose rent it pays. With a list set, any instruction the Signer cannot read is refused unless its program is on the list.',
		},
		allowedContracts: {
			placeholder: 'Base58 program addresses, comma- or line-separated',
			description:
				'Programs this key may call with instructions the Signer cannot read as a payment (the Memo program, for invoice references). While an amount limit or the recipient list is set, every such instruction is refused unless its program is here (or on Allowed Recipients).',
		},
		allowAnyMessage:
			'Whether messages and typed data the Signer cannot read may be signed while any policy field is set. Off: only plain UTF-8 text and off-chain messages are signed; bytes that read as a Solana transaction are refused, as their signature would send it.',
		maxPerTransaction: {
			placeholder: 'native = 2\nEPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v:6@900 = 25000',
			description:
				'One limit per line, in whole units: "native = 2" (SOL, any chain), "native@900 = 2" (one chain), "MintAddress:decimals = 1000" (optionally @chainId). The rent of a token account the transaction creates counts as SOL. Assets without a line are not limited.',
		},
		tokenLimit: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v:6@900',
		fees: [
			{
				displayName: 'Max Total Fee (SOL)',
				name: 'maxTotalFee',
				type: 'string',
				default: '0.01',
				description:
					'Highest fee one transaction may cost (5,000 lamports per signature plus the priority fee), in SOL; empty means 0.01. A plain transfer costs 0.000005.',
			},
		],
		ledgerFolder:
			'Absolute path of an existing folder where n8n may write files (by default under ~/.n8n-files; see N8N_RESTRICT_FILE_ACCESS_TO). Each signed payout ID is recorded there before its transaction leaves the node (needed for Payout ID), and what is signed is counted there against Max Per Execution, Max Per Day and Max Per 30 Days.',
		rpcChainId: '900',
		rpcPinnedOnly:
			"Speed Up Payout asks only the node listed here whether a payout's blockhash has expired.",
	});
}
