import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { ledgerSettingsProperties } from './ledgerSettingsProperties';

/**
 * The key that signs transactions in Expand Signer. It never leaves n8n: no request carries it,
 * and it is checked locally by the node's credential test (testedBy), which shows the address.
 */
export class ExpandSignerApi implements ICredentialType {
	name = 'expandSignerApi';

	displayName = 'Expand Signing Key API';

	icon: Icon = {
		light: 'file:../icons/expandSigner.svg',
		dark: 'file:../icons/expandSigner.dark.svg',
	};

	documentationUrl =
		'https://github.com/expand-network/n8n-nodes-expand-network/blob/main/docs/signer.md';

	properties: INodeProperties[] = [
		{
			displayName: 'Key Type',
			name: 'keyType',
			type: 'options',
			options: [
				{ name: 'Private Key', value: 'privateKey' },
				{ name: 'Mnemonic', value: 'mnemonic' },
			],
			default: 'privateKey',
		},
		{
			displayName: 'Private Key',
			name: 'privateKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: '0x...',
			description: 'The 32-byte private key, hex-encoded',
			displayOptions: { show: { keyType: ['privateKey'] } },
		},
		// eslint-disable-next-line @n8n/community-nodes/credential-unnecessary-password -- the recovery phrase is the key itself
		{
			displayName: 'Mnemonic',
			name: 'mnemonic',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'The BIP-39 recovery phrase',
			displayOptions: { show: { keyType: ['mnemonic'] } },
		},
		{
			displayName: 'Derivation Path',
			name: 'derivationPath',
			type: 'string',
			default: "m/44'/60'/0'/0/{index}",
			description:
				"BIP-32 path of the accounts; {index} is replaced by the node's Account Index. MetaMask and BIP-44: m/44'/60'/0'/0/{index}. Ledger Live: m/44'/60'/{index}'/0/0. A path without {index} has one account.",
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
				'Spending policy: every field below is optional. The fee limits apply even when left empty (their defaults are shown). Test shows the policy in words.',
			name: 'policyNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Allowed Chain IDs',
			name: 'allowedChainIds',
			type: 'string',
			default: '',
			placeholder: '1, 137, 8453',
			description: 'Chains this key may sign for, comma-separated; empty allows any chain',
		},
		{
			displayName: 'Allowed Recipients',
			name: 'allowedRecipients',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: '0x..., 0x...',
			description:
				'Addresses this key may pay, comma- or line-separated; empty allows any. Applies to the native recipient and to the recipient (or spender) of ERC-20 transfer, transferFrom and approve calls; with a list set, any other contract call is refused unless the contract is on the list.',
		},
		{
			displayName: 'Allowed Contracts and Programs',
			name: 'allowedContracts',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: '0x..., 0x...',
			description:
				'Contracts this key may call when the Signer cannot read the call as a payment (a DEX router, a vault), comma- or line-separated. While an amount limit or the recipient list is set, a call it cannot read is refused unless its contract is here (or on Allowed Recipients), and with a recipient list set, a token transfer is signed only on a token that has a limit line or is listed here.',
		},
		{
			displayName: 'Allow Contract Deployment',
			name: 'allowContractDeployment',
			type: 'boolean',
			default: false,
			description:
				'Whether Deploy Contract may sign while an amount limit or the recipient list is set; without those rules deployments are signed as before',
		},
		{
			displayName: 'Allow Any Message and Typed Data',
			name: 'allowAnyMessage',
			type: 'boolean',
			default: false,
			description:
				'Whether messages and typed data the Signer cannot read may be signed while any policy field is set. Off: only plain text, SIGN-IN messages of allowed chains and known approvals (EIP-2612, DAI and Permit2 permits, checked like approve) are signed; a 32-byte hash, unknown typed data and bytes that read as a transaction are refused.',
		},
		{
			displayName: 'Allow Safe Management',
			name: 'allowSafeManagement',
			type: 'boolean',
			default: false,
			description:
				"Whether Propose to Safe may propose a call to the Safe itself or one that changes a Safe's owners, threshold, modules, guard or fallback handler (addOwnerWithThreshold, changeThreshold, enableModule, setGuard, …), or one that has another Safe run or approve a transaction (execTransaction, approveHash, execTransactionFromModule), or a call to one of the Safe's modules, its guard or fallback handler. Off: refused whatever the other fields say, as owners who confirm such a proposal hand the Safe over; no payout needs it.",
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
			placeholder: 'native = 0.5\n0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48:6@1 = 25000',
			description:
				'One limit per line, in whole units: "native = 0.5" (any chain), "native@137 = 200" (one chain), "0xTokenAddress:decimals = 1000" (optionally @chainId). Assets without a line are not limited.',
		},
		{
			displayName: 'Max Per Execution',
			name: 'maxPerExecution',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48:6@1 = 100000',
			description:
				"Total per asset and chain over one workflow execution (every Expand Signer node of it using this credential), one limit per line as in Max Per Transaction. With a payout ledger (Ledger Store: folder or PostgreSQL) it is counted there, so it holds wherever the execution resumes (after a Wait node, on another worker, after a restart); without it, in this n8n process's memory only.",
		},
		{
			displayName: 'Max Per Day',
			name: 'maxPerDay',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48:6@1 = 250000',
			description:
				'Total per asset and chain per UTC calendar day (from 00:00 UTC), over every execution and every n8n process using the payout ledger (Ledger Store: folder or PostgreSQL), which it needs; one limit per line as in Max Per Transaction',
		},
		{
			displayName: 'Max Per 30 Days',
			name: 'maxPer30Days',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48:6@1 = 2000000',
			description:
				'Total per asset and chain over a rolling window of 30 UTC days (today and the 29 days before), over every execution and every n8n process using the payout ledger (Ledger Store: folder or PostgreSQL), which it needs; one limit per line as in Max Per Transaction',
		},
		{
			displayName: 'Max Fee Per Gas (Gwei)',
			name: 'maxFeePerGasGwei',
			type: 'string',
			default: '10000',
			description:
				'Highest fee per gas (EIP-1559 fee cap or gas price) ever signed; empty means 10000 gwei',
		},
		{
			displayName: 'Max Gas Limit',
			name: 'maxGasLimit',
			type: 'string',
			default: '15000000',
			description: 'Highest gas limit ever signed; empty means 15,000,000',
		},
		{
			displayName: 'Max Total Fee (Native Units)',
			name: 'maxTotalFee',
			type: 'string',
			default: '1',
			description:
				'Highest fee one transaction may cost (gas limit × fee per gas), in whole native units (ETH, POL, …); empty means 1',
		},
		...ledgerSettingsProperties({
			displayName: 'Payout Ledger Folder',
			name: 'payoutLedgerFolder',
			type: 'string',
			default: '',
			placeholder: '/home/node/.n8n-files/payouts',
			description:
				'Absolute path of an existing folder where n8n may write files (by default under ~/.n8n-files; see N8N_RESTRICT_FILE_ACCESS_TO). Each signed payout ID is recorded there before its transaction leaves the node (needed for Payout ID), and each automatic nonce is claimed there before it is signed, so two executions never sign one nonce. What is signed is counted there against Max Per Execution, Max Per Day and Max Per 30 Days. In queue mode it must be a folder every worker sees (a shared volume); the node cannot tell whether it is: on several machines, use the PostgreSQL store.',
		}),
		{
			displayName: 'Nonce Lease (Seconds)',
			name: 'nonceLeaseSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 300,
			description:
				'How long a claimed nonce stays reserved for the execution that signed with it, while its transaction is not on the chain; must exceed the time from signing to sending. After it, a nonce whose transaction never reached the chain is taken by the next execution.',
		},
		{
			displayName: 'RPC URLs',
			name: 'rpcUrls',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: '1 = https://your-node.example/key',
			description:
				"The chains' JSON-RPC nodes this key's Signer uses to fill in missing fields and to check whether a payout was already sent, one per line as chainId = URL; each must answer for its chain. A token amount typed in whole units on an Expand form is signed only when a node listed here (or an amount limit line giving the token's decimals) vouches for its decimals. A chain not listed uses the URL the API gives (chain/getpublicrpc), which is refused when it points to a loopback, private or link-local address while the API does not.",
		},
	];
}
