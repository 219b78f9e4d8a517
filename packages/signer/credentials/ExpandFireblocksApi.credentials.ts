import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { SIGNING_KEY_ICON, signingKeyProperties } from './signingKeyProperties';

/**
 * A Fireblocks API user and vault account for Expand Signer (Chain Family: Fireblocks (Custodian)).
 * The keys that move funds stay at Fireblocks; n8n holds the API user's RSA key, which signs each
 * request (a JWT) and never leaves n8n. The spending policy and the payout ledger are the EVM signing
 * credential's, checked in n8n before any request to Fireblocks. Tested locally by the node's
 * credential test (testedBy): nothing is sent to Fireblocks.
 */
export class ExpandFireblocksApi implements ICredentialType {
	name = 'expandFireblocksApi';

	displayName = 'Expand Fireblocks API';

	icon: Icon = SIGNING_KEY_ICON;

	documentationUrl =
		'https://github.com/expand-network/n8n-nodes-expand-network/blob/main/docs/signer.md#fireblocks';

	properties: INodeProperties[] = signingKeyProperties({
		keyFields: [
			{
				displayName: 'API Key',
				name: 'apiKey',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				required: true,
				description: "The Fireblocks API user's key (Settings, API Users), sent as X-API-Key",
			},
			{
				displayName: 'API Secret Key',
				name: 'secretKey',
				type: 'string',
				typeOptions: { password: true, rows: 5 },
				default: '',
				required: true,
				placeholder: '-----BEGIN PRIVATE KEY-----',
				description:
					"The API user's RSA private key (PEM, the fireblocks_secret.key made with its CSR). It signs every request (JWT, RS256) in n8n and is never sent.",
			},
			{
				displayName: 'Base URL',
				name: 'environment',
				type: 'options',
				options: [
					{ name: 'Sandbox', value: 'sandbox', description: 'https://sandbox-api.fireblocks.io' },
					{ name: 'Production', value: 'production', description: 'https://api.fireblocks.io' },
					{ name: 'Custom', value: 'custom', description: 'Another URL, such as a local stand-in' },
				],
				default: 'sandbox',
			},
			{
				displayName: 'Custom Base URL',
				name: 'baseUrl',
				type: 'string',
				default: '',
				placeholder: 'http://127.0.0.1:8080',
				description: 'The API root; paths /v1/… are appended',
				displayOptions: { show: { environment: ['custom'] } },
			},
			{
				displayName: 'Vault Account ID',
				name: 'vaultAccountId',
				type: 'string',
				default: '0',
				required: true,
				description:
					"The vault account that pays: every transaction's source, and its address on each chain is the sender the policy checks",
			},
			{
				displayName: 'Max Requests per Second',
				name: 'maxRequestsPerSecond',
				type: 'number',
				typeOptions: { minValue: 0.1, numberPrecision: 1 },
				default: 5,
				description:
					"Ceiling on requests to Fireblocks with this API user from this n8n process. Fireblocks' limits are per API user and not published (it answers 429 when they are passed; 429s are retried as Retry-After asks). A payout takes about three requests.",
			},
			{
				displayName: 'Asset IDs',
				name: 'assetIds',
				type: 'string',
				typeOptions: { rows: 4 },
				default: '',
				placeholder:
					'11155111:native = ETH_TEST5\n1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48 = USDC',
				description:
					"Fireblocks' asset ID of each asset paid, one per line: chainId:native = ID or chainId:0xTokenAddress = ID. Built in: the native assets of Ethereum (ETH), OP Mainnet (ETH-OPT), BNB Chain (BNB_BSC), Polygon (MATIC_POLYGON), Base (BASECHAIN_ETH), Arbitrum (ETH-AETH) and Avalanche (AVAX); a line overrides them. An asset without an ID is refused, never sent under another one; no token or testnet has a default.",
			},
		],
		allowedChainIds: {
			placeholder: '1, 137, 8453',
			description:
				'Chains the vault may pay on through this credential, comma-separated; empty allows any chain',
		},
		allowedRecipients: {
			placeholder: '0x..., 0x...',
			description:
				'Addresses the vault may pay, comma- or line-separated; empty allows any. Applies to the native recipient and to the recipient (or spender) of ERC-20 transfer, transferFrom and approve calls; with a list set, any other contract call is refused unless the contract is on the list.',
		},
		allowedContracts: {
			placeholder: '0x..., 0x...',
			description:
				'Contracts the vault may call when the Signer cannot read the call as a payment (a DEX router, a vault), comma- or line-separated. While an amount limit or the recipient list is set, a call it cannot read is refused unless its contract is here (or on Allowed Recipients), and with a recipient list set, a token transfer is sent only on a token that has a limit line or is listed here.',
		},
		allowAnyMessage:
			'Not used by Fireblocks (Custodian): the Signer creates transactions there, never signs messages',
		maxPerTransaction: {
			placeholder: 'native = 0.5\n0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48:6@1 = 25000',
			description:
				'One limit per line, in whole units: "native = 0.5" (any chain), "native@137 = 200" (one chain), "0xTokenAddress:decimals = 1000" (optionally @chainId). Assets without a line are not limited.',
		},
		tokenLimit: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48:6@1',
		// Fireblocks sets the gas of the transactions it signs: no fee ceiling of the Signer applies.
		fees: [],
		ledgerFolder:
			'Absolute path of an existing folder where n8n may write files (by default under ~/.n8n-files; see N8N_RESTRICT_FILE_ACCESS_TO). Each payout ID is recorded there with the exact create request before it is sent to Fireblocks (Payout ID is required), so a rerun sends the same request and Fireblocks never gets a second one; what is sent is counted there against Max Per Execution, Max Per Day and Max Per 30 Days. In queue mode it must be a folder every worker sees (a shared volume); on several machines, use the PostgreSQL store.',
		rpcChainId: '1',
		rpcPinnedOnly:
			"Check Payouts believes a transaction Fireblocks calls COMPLETED only as this node shows it (from the vault, paying the recipient the amount), and a token's decimals are read there.",
	});
}
