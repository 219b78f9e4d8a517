// n8n's community-node lint setup, as wired by @n8n/node-cli 0.48.3 (dist/configs/eslint.js).
// @n8n/node-cli itself is not installed: its AI SDK dependency pulls a native module that does
// not build on Node 20. The rules, plugins and file globs below are the same.
import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { globalIgnores } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importPlugin from 'eslint-plugin-import-x';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const communityNodesRecommended = n8nCommunityNodesPlugin.configs.recommended;

// The seam between the packages: the Signer reaches the core's shared code through one door,
// packages/signer/nodes/ExpandSigner/core.ts, and nowhere else (CONTRIBUTING.md, "The seam between the packages").
const THROUGH_THE_DOOR = {
	regex: '(^|/)nodes/shared(/|$)',
	message: "The Signer imports the core's shared code only through nodes/ExpandSigner/core.ts.",
};

export default tseslint.config(
	// Only the shipped package (nodes, credentials, package.json) is held to the community rules;
	// tests, the devnet and benchmarks are development tools that never reach n8n.
	globalIgnores([
		'**/dist',
		'node_modules',
		'test',
		'devnet',
		'bench',
		'scripts',
		'examples',
		'playground',
		'.cache',
	]),
	{
		files: ['**/*.ts'],
		extends: [
			js.configs.recommended,
			tseslint.configs.recommended,
			communityNodesRecommended,
			importPlugin.configs['flat/recommended'],
		],
		rules: {
			'prefer-spread': 'off',
			'no-console': 'error',
		},
	},
	{
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		settings: {
			'import-x/resolver-next': [createTypeScriptImportResolver()],
		},
	},
	{
		files: ['package.json', 'packages/signer/package.json'],
		extends: [communityNodesRecommended],
		rules: {
			...n8nNodesBase.configs.community.rules,
		},
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: {
				extraFileExtensions: ['.json'],
			},
		},
	},
	{
		files: ['./credentials/**/*.ts', './packages/signer/credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['./nodes/**/*.ts', './packages/signer/nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{
		// Expand Signer signs with ethers (README, "Runtime dependencies"). For its files only, n8n's
		// import allow-list is extended by ethers and nothing else: the cloud rule has no options,
		// so the same list is expressed with ESLint's own rule.
		files: ['./packages/signer/nodes/ExpandSigner/**/*.ts'],
		rules: {
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex:
								'^(?!(ethers|n8n-workflow|lodash|moment|p-limit|luxon|zod|crypto|node:crypto)$|\\.{1,2}/)',
							message:
								'Community nodes may import only n8n-workflow, lodash, moment, p-limit, luxon, zod, crypto; the signer also ethers.',
						},
						THROUGH_THE_DOOR,
					],
				},
			],
		},
	},
	{
		// The Signer's Solana family signs with Solana's own libraries (README, "Runtime dependencies"):
		// @solana/kit, the System, Token and Compute Budget program clients, and micro-ed25519-hdkey for the
		// SLIP-0010 path m/44'/501'/n'/0'. For its folder only, the signer's allow-list is extended by these.
		files: ['./packages/signer/nodes/ExpandSigner/families/solana/**/*.ts'],
		rules: {
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex:
								'^(?!(@solana/kit|@solana-program/(system|token|compute-budget)|micro-ed25519-hdkey|ethers|n8n-workflow|lodash|moment|p-limit|luxon|zod|crypto|node:crypto)$|\\.{1,2}/)',
							message:
								"The Solana family may import only the signer's libraries and @solana/kit, @solana-program/system, token, compute-budget and micro-ed25519-hdkey.",
						},
						THROUGH_THE_DOOR,
					],
				},
			],
		},
	},
	{
		// The Signer's Tron family decodes, builds and signs with tronweb, Tron's official library, through its
		// utilities (tronweb/utils) only: it never makes a TronWeb client, so tronweb calls no node. For its
		// folder only, the signer's allow-list is extended by it.
		files: ['./packages/signer/nodes/ExpandSigner/families/tron/**/*.ts'],
		rules: {
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex:
								'^(?!(tronweb/utils|ethers|n8n-workflow|lodash|moment|p-limit|luxon|zod|crypto|node:crypto)$|\\.{1,2}/)',
							message: "The Tron family may import only the signer's libraries and tronweb/utils.",
						},
						THROUGH_THE_DOOR,
					],
				},
			],
		},
	},
	{
		// The Signer's TON family reads, builds and signs with TON's own libraries: @ton/core (cells, messages),
		// @ton/crypto (Ed25519, the TON mnemonic's word list), @ton/ton (the W5 and v4R2 wallet contracts, used
		// offline: no client), and micro-ed25519-hdkey for the SLIP-0010 path m/44'/607'/n'. For its folder only,
		// the signer's allow-list is extended by these.
		files: ['./packages/signer/nodes/ExpandSigner/families/ton/**/*.ts'],
		rules: {
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex:
								'^(?!(@ton/(core|crypto|ton)|micro-ed25519-hdkey|ethers|n8n-workflow|lodash|moment|p-limit|luxon|zod|crypto|node:crypto)$|\\.{1,2}/)',
							message:
								"The TON family may import only the signer's libraries and @ton/core, @ton/crypto, @ton/ton and micro-ed25519-hdkey.",
						},
						THROUGH_THE_DOOR,
					],
				},
			],
		},
	},
	{
		// The Signer's Stellar family reads, builds and signs with Stellar's official library,
		// @stellar/stellar-base (XDR, StrKey, Ed25519 keys; no Horizon client). For its folder only, the
		// signer's allow-list is extended by it.
		files: ['./packages/signer/nodes/ExpandSigner/families/stellar/**/*.ts'],
		rules: {
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex:
								'^(?!(@stellar/stellar-base|ethers|n8n-workflow|lodash|moment|p-limit|luxon|zod|crypto|node:crypto)$|\\.{1,2}/)',
							message:
								"The Stellar family may import only the signer's libraries and @stellar/stellar-base.",
						},
						THROUGH_THE_DOOR,
					],
				},
			],
		},
	},
	{
		// The PostgreSQL ledger store talks to its database through the official client, pg: for that folder only,
		// the signer's allow-list is extended by it.
		files: ['./packages/signer/nodes/ExpandSigner/ledger/postgres/**/*.ts'],
		rules: {
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex:
								'^(?!(pg|ethers|n8n-workflow|lodash|moment|p-limit|luxon|zod|crypto|node:crypto)$|\\.{1,2}/)',
							message: "The PostgreSQL ledger store may import only the signer's libraries and pg.",
						},
						THROUGH_THE_DOOR,
					],
				},
			],
		},
	},
	{
		// The door itself: it re-exports the few shared modules the Signer uses, and imports nothing else.
		files: ['./packages/signer/nodes/ExpandSigner/core.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex: '^(?!(\\.\\./){4}nodes/shared/)',
							message: "The door imports only the core's shared modules.",
						},
					],
				},
			],
		},
	},
	{
		// Expand Signer calls the API (chain/getpublicrpc, chain/estimategas) with the core package's Expand API
		// credential, so one key, one Max Requests per Second and one credential serve every Expand node. The
		// credential is registered by n8n-nodes-expand-network, installed beside the signer (its README says so);
		// n8n resolves credential types by name across packages. These two rules accept only credentials of the
		// node's own package; for the signer's node file only, they are off. The signer is not submitted for
		// verification (it has runtime dependencies); the core, which is, passes them.
		files: ['./packages/signer/nodes/ExpandSigner/ExpandSigner.node.ts'],
		rules: {
			'@n8n/community-nodes/no-credential-reuse': 'off',
			'@n8n/community-nodes/valid-credential-references': 'off',
		},
	},
	{
		// The signer package's runtime dependencies are its signing libraries (ethers, Solana's, Tron's) and pg; the core
		// package (the root package.json) has none. test/package.test.ts holds both lists.
		files: ['packages/signer/package.json'],
		rules: {
			'@n8n/community-nodes/no-runtime-dependencies': 'off',
		},
	},
);
