import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The key that signs transactions in Expand Signer. It never leaves n8n: no request carries it,
 * and it is checked locally by the node's credential test (testedBy), which shows the address.
 */
export class ExpandSignerApi implements ICredentialType {
	name = 'expandSignerApi';

	displayName = 'Expand Signing Key API';

	icon: Icon = { light: 'file:../icons/expandSigner.svg', dark: 'file:../icons/expandSigner.dark.svg' };

	documentationUrl = 'https://github.com/expand-network/n8n-nodes-expand-network/blob/main/docs/signer.md';

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
			default: "m/44'/60'/0'/0/0",
			description: 'BIP-32 path of the account to sign with',
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
	];
}
