import type { Icon, INodeProperties } from 'n8n-workflow';

import { ledgerSettingsProperties } from './ledgerSettingsProperties';

/** Every signing key credential's icon: the Signer's. */
export const SIGNING_KEY_ICON: Icon = {
	light: 'file:../icons/expandSigner.svg',
	dark: 'file:../icons/expandSigner.dark.svg',
};

/** A field's example and what it means in the family's words. */
interface Hint {
	placeholder: string;
	description: string;
}

/**
 * What a chain family's signing credential says in its own words; every field around them, their
 * names, types, defaults and order, is the same for every family (the spending policy reads them by
 * name: policy/policy.ts readPolicy).
 */
export interface SigningKeyForm {
	/**
	 * The single-key option (the first, and default, Key Type): `privateKey`, `secretKey`. Left out
	 * for a credential whose keys are held elsewhere (a custodian's): it then has no Key Type, no
	 * mnemonic and no key field, only its `keyFields`.
	 */
	key?: INodeProperties;
	/** What the recovery phrase derives, on which path (with `key`). */
	mnemonic?: string;
	/** Fields of the mnemonic between the phrase and the passphrase (EVM's Derivation Path). */
	mnemonicFields?: INodeProperties[];
	/**
	 * Other recovery phrases the family reads (TON's own 24-word mnemonic), listed first in Key Type, the
	 * first of them its default: each is typed in the Mnemonic field, with its own description and no
	 * BIP-39 passphrase.
	 */
	otherPhrases?: Array<{ name: string; value: string; description: string }>;
	/**
	 * The family's chains can be signed by a Turnkey wallet account (Key Type "Turnkey"): what Sign With
	 * holds in the family's words. Its other fields (organization, API key pair, base URL) are the same
	 * for every family.
	 */
	turnkey?: Hint;
	/** Fields of every key type after the key (TON's Wallet Version). */
	keyFields?: INodeProperties[];
	allowedChainIds: Hint;
	allowedRecipients: Hint;
	allowedContracts: Hint;
	/** What Allow Any Message and Typed Data lets through, in the family's words. */
	allowAnyMessage: string;
	/** The family's own switches beside it (EVM: Allow Contract Deployment before, Allow Safe Management after). */
	allowBefore?: INodeProperties[];
	allowAfter?: INodeProperties[];
	maxPerTransaction: Hint;
	/** A token limit line's left side, for the totals' examples: `0xToken:6@1`. */
	tokenLimit: string;
	/** The fee ceilings, which apply even when left empty. */
	fees: INodeProperties[];
	/** What the Payout Ledger Folder keeps for the family. */
	ledgerFolder: string;
	/** Fields kept in the ledger store beside the payout IDs (EVM: Nonce Lease). */
	ledgerFields?: INodeProperties[];
	/** A chain ID for the RPC URLs example, and what else the family asks only the pinned node. */
	rpcChainId: string;
	rpcPinnedOnly?: string;
}

const options = (show: Record<string, string[]>) => ({ displayOptions: { show } });

function keyProperties(form: SigningKeyForm): INodeProperties[] {
	if (!form.key) return form.keyFields ?? [];
	const withMnemonic = options({ keyType: ['mnemonic'] });
	const otherPhrases = form.otherPhrases ?? [];
	return [
		{
			displayName: 'Key Type',
			name: 'keyType',
			type: 'options',
			options: [
				...otherPhrases.map(({ name, value }) => ({ name, value })),
				{ name: form.key.displayName, value: form.key.name },
				{ name: otherPhrases.length ? 'Mnemonic (BIP-39)' : 'Mnemonic', value: 'mnemonic' },
				...(form.turnkey ? [{ name: 'Turnkey', value: 'turnkey' }] : []),
			],
			default: otherPhrases[0]?.value ?? form.key.name,
		},
		...otherPhrases.map((phrase): INodeProperties => ({
			displayName: 'Mnemonic',
			name: 'mnemonic',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: phrase.description,
			...options({ keyType: [phrase.value] }),
		})),
		{ ...form.key, ...options({ keyType: [form.key.name] }) },
		{
			displayName: 'Mnemonic',
			name: 'mnemonic',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: form.mnemonic ?? 'The BIP-39 recovery phrase',
			...withMnemonic,
		},
		...(form.mnemonicFields ?? []).map((field) => ({ ...field, ...withMnemonic })),
		{
			displayName: 'Passphrase',
			name: 'passphrase',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'Optional BIP-39 passphrase',
			...withMnemonic,
		},
		...(form.turnkey ? turnkeyProperties(form.turnkey) : []),
		...(form.keyFields ?? []),
	];
}

/** Turnkey's production API, the Base URL's default. */
export const TURNKEY_DEFAULT_BASE_URL = 'https://api.turnkey.com';

/** The fields of Key Type "Turnkey": the organization, its API key pair, the base URL, the signing wallet account. */
function turnkeyProperties(signWith: Hint): INodeProperties[] {
	const withTurnkey = options({ keyType: ['turnkey'] });
	return [
		{
			displayName:
				'Turnkey signs each transaction after the Signer has checked it against the policy below; n8n holds only an API key that stamps the requests. Sign Message, Sign Typed Data and Propose to Safe are refused with this key type.',
			name: 'turnkeyNotice',
			type: 'notice',
			default: '',
			...withTurnkey,
		},
		{
			displayName: 'Organization ID',
			name: 'organizationId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 5b0f3c1e-…',
			description: 'The ID of the Turnkey organization (or sub-organization) that holds the wallet',
			...withTurnkey,
		},
		{
			displayName: 'API Public Key',
			name: 'apiPublicKey',
			type: 'string',
			default: '',
			placeholder: '02…',
			description:
				"The API key's public key as Turnkey shows it: a compressed P-256 key, 66 hex characters",
			...withTurnkey,
		},
		{
			displayName: 'API Private Key',
			name: 'apiPrivateKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"The API key's P-256 private key, 64 hex characters; it stamps each request (X-Stamp) and never leaves n8n",
			...withTurnkey,
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: TURNKEY_DEFAULT_BASE_URL,
			description: "Turnkey's API; change it only for a test server",
			...withTurnkey,
		},
		{
			displayName: 'Sign With',
			name: 'signWith',
			type: 'string',
			default: '',
			...signWith,
			...withTurnkey,
		},
	];
}

/** A total's limit lines: as Max Per Transaction's, with one example line. */
function total(
	displayName: string,
	name: string,
	example: string,
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: example,
		description,
	};
}

const LEDGER_NEEDED =
	'over every execution and every n8n process using the payout ledger (Ledger Store: folder or PostgreSQL), which it needs; one limit per line as in Max Per Transaction';

function policyProperties(form: SigningKeyForm): INodeProperties[] {
	const oneFee = form.fees.length === 1;
	const feeWords = !form.fees.length
		? ''
		: oneFee
			? ' The fee limit applies even when left empty (its default is shown).'
			: ' The fee limits apply even when left empty (their defaults are shown).';
	const list = (hint: Hint) => ({ typeOptions: { rows: 3 }, default: '', ...hint });
	return [
		{
			displayName: `Spending policy: every field below is optional.${feeWords} Test shows the policy in words.`,
			name: 'policyNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Allowed Chain IDs',
			name: 'allowedChainIds',
			type: 'string',
			default: '',
			...form.allowedChainIds,
		},
		{
			displayName: 'Allowed Recipients',
			name: 'allowedRecipients',
			type: 'string',
			...list(form.allowedRecipients),
		},
		{
			displayName: 'Allowed Contracts and Programs',
			name: 'allowedContracts',
			type: 'string',
			...list(form.allowedContracts),
		},
		...(form.allowBefore ?? []),
		{
			displayName: 'Allow Any Message and Typed Data',
			name: 'allowAnyMessage',
			type: 'boolean',
			default: false,
			description: form.allowAnyMessage,
		},
		...(form.allowAfter ?? []),
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
			...list(form.maxPerTransaction),
		},
		total(
			'Max Per Execution',
			'maxPerExecution',
			`${form.tokenLimit} = 100000`,
			"Total per asset and chain over one workflow execution (every Expand Signer node of it using this credential), one limit per line as in Max Per Transaction. With a payout ledger (Ledger Store: folder or PostgreSQL) it is counted there, so it holds wherever the execution resumes (after a Wait node, on another worker, after a restart); without it, in this n8n process's memory only.",
		),
		total(
			'Max Per Day',
			'maxPerDay',
			`${form.tokenLimit} = 250000`,
			`Total per asset and chain per UTC calendar day (from 00:00 UTC), ${LEDGER_NEEDED}`,
		),
		total(
			'Max Per 30 Days',
			'maxPer30Days',
			`${form.tokenLimit} = 2000000`,
			`Total per asset and chain over a rolling window of 30 UTC days (today and the 29 days before), ${LEDGER_NEEDED}`,
		),
		...form.fees,
	];
}

function storeProperties(form: SigningKeyForm): INodeProperties[] {
	return [
		...ledgerSettingsProperties({
			displayName: 'Payout Ledger Folder',
			name: 'payoutLedgerFolder',
			type: 'string',
			default: '',
			placeholder: '/home/node/.n8n-files/payouts',
			description: form.ledgerFolder,
		}),
		...(form.ledgerFields ?? []),
		{
			displayName: 'RPC URLs',
			name: 'rpcUrls',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: `${form.rpcChainId} = https://your-node.example/key`,
			description: `The chains' JSON-RPC nodes this key's Signer uses to fill in missing fields and to check whether a payout was already sent, one per line as chainId = URL; each must answer for its chain. A token amount typed in whole units on an Expand form is signed only when a node listed here (or an amount limit line giving the token's decimals) vouches for its decimals. ${form.rpcPinnedOnly ? `${form.rpcPinnedOnly} ` : ''}A chain not listed uses the URL the API gives (chain/getpublicrpc), which is refused when it points to a loopback, private or link-local address while the API does not.`,
		},
	];
}

/**
 * The fields of a chain family's signing credential: its key, the spending policy, the ledger store
 * and the pinned RPC nodes. The family gives its key field and its words (examples, what a rule
 * covers on its chains); the names, order and shared words are the same for every family.
 */
export function signingKeyProperties(form: SigningKeyForm): INodeProperties[] {
	return [...keyProperties(form), ...policyProperties(form), ...storeProperties(form)];
}
