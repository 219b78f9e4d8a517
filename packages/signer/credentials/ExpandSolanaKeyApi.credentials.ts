import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { ledgerSettingsProperties } from './ledgerSettingsProperties';

/**
 * The Solana key that signs in Expand Signer (Chain Family: Solana). It never leaves n8n: no request
 * carries it, and the node's credential test (testedBy) checks it locally and shows the addresses.
 */
export class ExpandSolanaKeyApi implements ICredentialType {
	name = 'expandSolanaKeyApi';

	displayName = 'Expand Solana Signing Key API';

	icon: Icon = {
		light: 'file:../icons/expandSigner.svg',
		dark: 'file:../icons/expandSigner.dark.svg',
	};

	documentationUrl =
		'https://github.com/expand-network/n8n-nodes-expand-network/blob/main/docs/signer.md#solana';

	properties: INodeProperties[] = [
		{
			displayName: 'Key Type',
			name: 'keyType',
			type: 'options',
			options: [
				{ name: 'Secret Key', value: 'secretKey' },
				{ name: 'Mnemonic', value: 'mnemonic' },
			],
			default: 'secretKey',
		},
		{
			displayName: 'Secret Key',
			name: 'secretKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'The 64-byte key pair: base58 as Phantom and Solflare export it, or the JSON array of a solana-keygen key file ([12, 34, …]). It has one account (Account Index 0).',
			displayOptions: { show: { keyType: ['secretKey'] } },
		},
		// eslint-disable-next-line @n8n/community-nodes/credential-unnecessary-password -- the recovery phrase is the key itself
		{
			displayName: 'Mnemonic',
			name: 'mnemonic',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"The BIP-39 recovery phrase. Account N is derived on m/44'/501'/N'/0' (Phantom, Solflare, solana-keygen), N being the node's Account Index.",
			displayOptions: { show: { keyType: ['mnemonic'] } },
		},
		{
			displayName: 'Passphrase',
			name: 'passphrase',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'Optional BIP-39 passphrase',
			displayOptions: { show: { keyType: ['mnemonic'] } },
		},
		{
			displayName:
				'Spending policy: every field below is optional. The fee limit applies even when left empty (its default is shown). Test shows the policy in words.',
			name: 'policyNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Allowed Chain IDs',
			name: 'allowedChainIds',
			type: 'string',
			default: '',
			placeholder: '900',
			description:
				'Chains this key may sign for, comma-separated (900 Solana, 901 Solana Devnet); empty allows both',
		},
		{
			displayName: 'Allowed Recipients',
			name: 'allowedRecipients',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: 'Base58 addresses, comma- or line-separated',
			description:
				'Wallets this key may pay; empty allows any. Applies to SOL transfers, to the owner of the receiving token account of SPL transfers (or the delegate of an approval) and to the owner of a token account whose rent it pays. With a list set, any instruction the Signer cannot read is refused unless its program is on the list.',
		},
		{
			displayName: 'Allowed Contracts and Programs',
			name: 'allowedContracts',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: 'Base58 program addresses, comma- or line-separated',
			description:
				'Programs this key may call with instructions the Signer cannot read as a payment (the Memo program, for invoice references). While an amount limit or the recipient list is set, every such instruction is refused unless its program is here (or on Allowed Recipients).',
		},
		{
			displayName: 'Allow Any Message and Typed Data',
			name: 'allowAnyMessage',
			type: 'boolean',
			default: false,
			description:
				'Whether messages and typed data the Signer cannot read may be signed while any policy field is set. Off: only plain UTF-8 text and off-chain messages are signed; bytes that read as a Solana transaction are refused, as their signature would send it.',
		},
		{
			displayName: 'Require Intent',
			name: 'requireIntent',
			type: 'options',
			options: [
				{
					name: 'When a Spending Rule Is Set',
					value: 'auto',
					description:
						'While an amount limit, the recipient list or Allowed Contracts and Programs is set',
				},
				{
					name: 'Always',
					value: 'always',
					description:
						'Also an intent that names no form item (Expand 0.2.0 and later write one) is refused',
				},
				{
					name: 'Never',
					value: 'never',
					description: 'A transaction that arrives with an intent is still held to it',
				},
			],
			default: 'auto',
			description:
				"Whether Sign Transaction From Input Item refuses a transaction that arrives without the intent an Expand write operation outputs beside it (what the form asked: recipient, token, amount). A transaction with an intent is always held to it, whatever this says; transactions defined on the Signer's form are their own intent.",
		},
		{
			displayName: 'Max Per Transaction',
			name: 'maxPerTransaction',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: 'native = 2\nEPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v:6@900 = 25000',
			description:
				'One limit per line, in whole units: "native = 2" (SOL, any chain), "native@900 = 2" (one chain), "MintAddress:decimals = 1000" (optionally @chainId). The rent of a token account the transaction creates counts as SOL. Assets without a line are not limited.',
		},
		{
			displayName: 'Max Per Execution',
			name: 'maxPerExecution',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v:6@900 = 100000',
			description:
				"Total per asset and chain over one workflow execution (every Expand Signer node of it using this credential), one limit per line as in Max Per Transaction. With a payout ledger (Ledger Store: folder or PostgreSQL) it is counted there, so it holds wherever the execution resumes (after a Wait node, on another worker, after a restart); without it, in this n8n process's memory only.",
		},
		{
			displayName: 'Max Per Day',
			name: 'maxPerDay',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v:6@900 = 250000',
			description:
				'Total per asset and chain per UTC calendar day (from 00:00 UTC), over every execution and every n8n process using the payout ledger (Ledger Store: folder or PostgreSQL), which it needs; one limit per line as in Max Per Transaction',
		},
		{
			displayName: 'Max Per 30 Days',
			name: 'maxPer30Days',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v:6@900 = 2000000',
			description:
				'Total per asset and chain over a rolling window of 30 UTC days (today and the 29 days before), over every execution and every n8n process using the payout ledger (Ledger Store: folder or PostgreSQL), which it needs; one limit per line as in Max Per Transaction',
		},
		{
			displayName: 'Max Total Fee (SOL)',
			name: 'maxTotalFee',
			type: 'string',
			default: '0.01',
			description:
				'Highest fee one transaction may cost (5,000 lamports per signature plus the priority fee), in SOL; empty means 0.01. A plain transfer costs 0.000005.',
		},
		...ledgerSettingsProperties({
			displayName: 'Payout Ledger Folder',
			name: 'payoutLedgerFolder',
			type: 'string',
			default: '',
			placeholder: '/home/node/.n8n-files/payouts',
			description:
				'Absolute path of an existing folder where n8n may write files (by default under ~/.n8n-files; see N8N_RESTRICT_FILE_ACCESS_TO). Each signed payout ID is recorded there before its transaction leaves the node (needed for Payout ID), and what is signed is counted there against Max Per Execution, Max Per Day and Max Per 30 Days.',
		}),
		{
			displayName: 'RPC URLs',
			name: 'rpcUrls',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: '900 = https://your-node.example/key',
			description:
				"The chains' JSON-RPC nodes this key's Signer uses to fill in missing fields and to check whether a payout was already sent, one per line as chainId = URL; each must answer for its chain. A token amount typed in whole units on an Expand form is signed only when a node listed here (or an amount limit line giving the token's decimals) vouches for its decimals. Speed Up Payout asks only the node listed here whether a payout's blockhash has expired. A chain not listed uses the URL the API gives (chain/getpublicrpc), which is refused when it points to a loopback, private or link-local address while the API does not.",
		},
	];
}
