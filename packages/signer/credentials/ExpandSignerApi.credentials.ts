import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { SIGNING_KEY_ICON, signingKeyProperties } from './signingKeyProperties';

/**
 * The key that signs transactions in Expand Signer. It never leaves n8n: no request carries it,
 * and it is checked locally by the node's credential test (testedBy), which shows the address.
 */
export class ExpandSignerApi implements ICredentialType {
	name = 'expandSignerApi';

	displayName = 'Expand Signing Key API';

	icon: Icon = SIGNING_KEY_ICON;

	documentationUrl =
		'https://github.com/expand-network/n8n-nodes-expand-network/blob/main/docs/signer.md';

	properties: INodeProperties[] = signingKeyProperties({
		key: {
			displayName: 'Private Key',
			name: 'privateKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: '0x...',
			description: 'The 32-byte private key, hex-encoded',
		},
		mnemonic: 'The BIP-39 recovery phrase',
		mnemonicFields: [
			{
				displayName: 'Derivation Path',
				name: 'derivationPath',
				type: 'string',
				default: "m/44'/60'/0'/0/{index}",
				description:
					"BIP-32 path of the accounts; {index} is replaced by the node's Account Index. MetaMask and BIP-44: m/44'/60'/0'/0/{index}. Ledger Live: m/44'/60'/{index}'/0/0. A path without {index} has one account.",
			},
		],
		turnkey: {
			placeholder: '0x...',
			description:
				"The address of the Turnkey wallet account that signs (its only account, Account Index 0); Turnkey's policies must let the API key sign with it",
		},
		allowedChainIds: {
			placeholder: '1, 137, 8453',
			description: 'Chains this key may sign for, comma-separated; empty allows any chain',
		},
		allowedRecipients: {
			placeholder: '0x..., 0x...',
			description:
				'Addresses this key may pay, comma- or line-separated; empty allows any. Applies to the native recipient and to the recipient (or spender) of ERC-20 transfer, transferFrom and approve calls; with a list set, any other contract call is refused unless the contract is on the list.',
		},
		allowedContracts: {
			placeholder: '0x..., 0x...',
			description:
				'Contracts this key may call when the Signer cannot read the call as a payment (a DEX router, a vault), comma- or line-separated. While an amount limit or the recipient list is set, a call it cannot read is refused unless its contract is here (or on Allowed Recipients), and with a recipient list set, a token transfer is signed only on a token that has a limit line or is listed here.',
		},
		allowBefore: [
			{
				displayName: 'Allow Contract Deployment',
				name: 'allowContractDeployment',
				type: 'boolean',
				default: false,
				description:
					'Whether Deploy Contract may sign while an amount limit or the recipient list is set; without those rules deployments are signed as before',
			},
		],
		allowAnyMessage:
			'Whether messages and typed data the Signer cannot read may be signed while any policy field is set. Off: only plain text, SIGN-IN messages of allowed chains and known approvals (EIP-2612, DAI and Permit2 permits, checked like approve) are signed; a 32-byte hash, unknown typed data and bytes that read as a transaction are refused.',
		allowAfter: [
			{
				displayName: 'Allow Safe Management',
				name: 'allowSafeManagement',
				type: 'boolean',
				default: false,
				description:
					"Whether Propose to Safe may propose a call to the Safe itself or one that changes a Safe's owners, threshold, modules, guard or fallback handler (addOwnerWithThreshold, changeThreshold, enableModule, setGuard, …), or one that has another Safe run or approve a transaction (execTransaction, approveHash, execTransactionFromModule), or a call to one of the Safe's modules, its guard or fallback handler. Off: refused whatever the other fields say, as owners who confirm such a proposal hand the Safe over; no payout needs it.",
			},
		],
		maxPerTransaction: {
			placeholder: 'native = 0.5\n0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48:6@1 = 25000',
			description:
				'One limit per line, in whole units: "native = 0.5" (any chain), "native@137 = 200" (one chain), "0xTokenAddress:decimals = 1000" (optionally @chainId). Assets without a line are not limited.',
		},
		tokenLimit: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48:6@1',
		fees: [
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
		],
		ledgerFolder:
			'Absolute path of an existing folder where n8n may write files (by default under ~/.n8n-files; see N8N_RESTRICT_FILE_ACCESS_TO). Each signed payout ID is recorded there before its transaction leaves the node (needed for Payout ID), and each automatic nonce is claimed there before it is signed, so two executions never sign one nonce. What is signed is counted there against Max Per Execution, Max Per Day and Max Per 30 Days. In queue mode it must be a folder every worker sees (a shared volume); the node cannot tell whether it is: on several machines, use the PostgreSQL store.',
		ledgerFields: [
			{
				displayName: 'Nonce Lease (Seconds)',
				name: 'nonceLeaseSeconds',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 300,
				description:
					'How long a claimed nonce stays reserved for the execution that signed with it, while its transaction is not on the chain; must exceed the time from signing to sending. After it, a nonce whose transaction never reached the chain is taken by the next execution.',
			},
		],
		rpcChainId: '1',
	});
}
