/**
 * A ready n8n user folder: the packed package installed as a community package, credentials
 * pointing at a devnet, and the example workflows imported (optionally published, i.e. active).
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import type { Devnet, DevnetStellar, DevnetTon } from '../devnet';
import { type N8nInstance, n8nCli } from './n8n';
import { installPackages } from './pack';
import { EXAMPLES } from './paths';

/** Ids and names the example workflows reference. */
export const EXPAND_CREDENTIAL = {
	id: 'expandDevnetKey01',
	name: 'Expand API (devnet)',
	type: 'expandApi',
};
export const SIGNER_CREDENTIAL = {
	id: 'expandSignerKey01',
	name: 'Expand Signing Key (devnet wallet 3)',
	type: 'expandSignerApi',
};
export const SOLANA_CREDENTIAL = {
	id: 'expandSolanaKey01',
	name: 'Expand Solana Key (devnet wallet 1)',
	type: 'expandSolanaKeyApi',
};
export const TRON_CREDENTIAL = {
	id: 'expandTronKey01',
	name: 'Expand Tron Key (devnet wallet 1)',
	type: 'expandTronKeyApi',
};
export const TON_CREDENTIAL = {
	id: 'expandTonKey01',
	name: 'Expand TON Key (devnet TON mnemonic)',
	type: 'expandTonKeyApi',
};
export const STELLAR_CREDENTIAL = {
	id: 'expandStellarKey01',
	name: 'Expand Stellar Key (devnet mnemonic)',
	type: 'expandStellarKeyApi',
};
/** The Safe Transaction Service stand-in of the devnet's Safe (the payout run via Safe and its trigger). */
export const SAFE_API_CREDENTIAL = {
	id: 'expandSafeApiKey01',
	name: 'Safe API (devnet)',
	type: 'expandSafeApi',
};
/** The devnet Safe's delegate: proposes the payout run via Safe, owns nothing and cannot execute. */
export const SAFE_DELEGATE_CREDENTIAL = {
	id: 'expandSafeDelegate01',
	name: 'Expand Signing Key (devnet Safe delegate)',
	type: 'expandSignerApi',
};
/** The Fireblocks stand-in's vault account 0 (the payout run via Fireblocks and its completion trigger). */
export const FIREBLOCKS_CREDENTIAL = {
	id: 'expandFireblocksKey01',
	name: 'Fireblocks API (devnet vault 0)',
	type: 'expandFireblocksApi',
};
/** The Turnkey stand-in's EVM wallet account as the EVM signing credential's Key Type Turnkey (the payout run via Turnkey). */
export const TURNKEY_CREDENTIAL = {
	id: 'expandTurnkeyKey01',
	name: 'Expand Signing Key (devnet Turnkey account)',
	type: 'expandSignerApi',
};
/**
 * The recipients the custodial payout runs may pay (the Fireblocks and Turnkey credentials' Allowed
 * Recipients): devnet wallets 13, 14 and 15. Their fifth row pays one that is not on it.
 */
export const CUSTODY_PAYEES = [
	'0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec',
	'0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097',
	'0xcd3B766CCDd6AE721141F452C550Ca635964ce71',
];
/** The custodial payout runs' chain and token: USDC (6 decimals) on chain 31337, at most 5,000 per transfer. */
export const CUSTODY_CHAIN_ID = '31337';

/** The payout example pays from devnet wallet 3 (hardhat account 3). */
export const PAYOUT_WALLET_INDEX = 3;
/** The Solana payout example pays from the devnet's Solana wallet 1. */
export const SOLANA_PAYOUT_WALLET_INDEX = 1;

/** The USDT payout run on Tron pays from the devnet's Tron wallet 1 on chain 1001. */
export const TRON_PAYOUT_WALLET_INDEX = 1;
export const TRON_PAYOUT_CHAIN_ID = '1001';
/** The recipients the Tron key may pay (its Allowed Recipients): the devnet's Tron wallets 2 to 4. */
export const TRON_PAYEE_INDEXES = [2, 3, 4];

/** The USDT payout run on TON pays from the W5 wallet of the devnet's TON mnemonic (Tonkeeper's kind) on chain 1101. */
export const TON_PAYOUT_CHAIN_ID = '1101';
/** The recipients the TON key may pay (its Allowed Recipients), by devnet TON wallet: BIP-39 account 1's W5 and v4R2 wallets, account 2's W5 wallet. */
export const TON_PAYEE_WALLETS = [2, 3, 4];

/** The USDC payout run on Stellar pays from account 0 of the devnet mnemonic (SEP-0005) on chain 1501. */
export const STELLAR_PAYOUT_CHAIN_ID = '1501';
/** The recipients the Stellar key may pay (its Allowed Recipients), by devnet Stellar account: 1 to 3. */
export const STELLAR_PAYEE_ACCOUNTS = [1, 2, 3];

/** Where the EVM signing key credential (wallet 3) keeps signed payout IDs (the stablecoin payout run's): inside the folder n8n may write to. */
export function evmLedgerFolder(n8n: Pick<N8nInstance, 'outputDir'>): string {
	return path.join(n8n.outputDir, 'evm-payout-ledger');
}

/** Where the Fireblocks credential keeps created payout IDs and its journal (the trigger journals each status there too). */
export function fireblocksLedgerFolder(n8n: Pick<N8nInstance, 'outputDir'>): string {
	return path.join(n8n.outputDir, 'fireblocks-payout-ledger');
}

/** Where the Turnkey signing credential keeps signed payout IDs, their exact Turnkey requests and its journal. */
export function turnkeyLedgerFolder(n8n: Pick<N8nInstance, 'outputDir'>): string {
	return path.join(n8n.outputDir, 'turnkey-payout-ledger');
}

/** The custodial payout runs' policy: chain 31337, the three payees, USDC capped at 5,000 per transfer. */
function custodyPolicy(devnet: Pick<Devnet, 'chains'>) {
	const chain = devnet.chains.find((entry) => entry.chainId === CUSTODY_CHAIN_ID);
	if (!chain) throw new Error(`the devnet has no chain ${CUSTODY_CHAIN_ID}`);
	const usdc = chain.tokens.USDC;
	return {
		allowedChainIds: CUSTODY_CHAIN_ID,
		allowedRecipients: CUSTODY_PAYEES.join(', '),
		maxPerTransaction: `${usdc.address}:${usdc.decimals}@${CUSTODY_CHAIN_ID} = 5000`,
	};
}

/** The Fireblocks credential on the devnet's stand-in: vault account 0, every devnet asset mapped, the custodial policy. */
export function fireblocksPayoutKey(
	devnet: Pick<Devnet, 'chains' | 'fireblocks'>,
	payoutLedgerFolder: string,
) {
	const { fireblocks } = devnet;
	return {
		apiKey: fireblocks.apiKey,
		secretKey: fireblocks.privateKeyPem,
		environment: 'custom',
		baseUrl: fireblocks.url,
		vaultAccountId: fireblocks.vaultAccountId,
		maxRequestsPerSecond: 20,
		assetIds: Object.values(fireblocks.assets)
			.map((asset) => `${asset.chainId}:${asset.address ?? 'native'} = ${asset.assetId}`)
			.join('\n'),
		...custodyPolicy(devnet),
		payoutLedgerFolder,
	};
}

/** The EVM signing credential with Key Type Turnkey on the devnet's stand-in: its EVM wallet account, the custodial policy. */
export function turnkeyPayoutKey(
	devnet: Pick<Devnet, 'chains' | 'turnkey'>,
	payoutLedgerFolder: string,
) {
	const { turnkey } = devnet;
	return {
		keyType: 'turnkey',
		organizationId: turnkey.organizationId,
		apiPublicKey: turnkey.apiPublicKey,
		apiPrivateKey: turnkey.apiPrivateKey,
		baseUrl: turnkey.url,
		signWith: turnkey.accounts.evm,
		...custodyPolicy(devnet),
		payoutLedgerFolder,
	};
}

/** Where the Safe delegate's credential keeps proposed payout IDs: inside the folder n8n may write to. */
export function safeLedgerFolder(n8n: Pick<N8nInstance, 'outputDir'>): string {
	return path.join(n8n.outputDir, 'safe-payout-ledger');
}

/** Where the Solana key credential keeps signed payout IDs: inside the folder n8n may write to, created with it. */
export function solanaLedgerFolder(n8n: Pick<N8nInstance, 'outputDir'>): string {
	return path.join(n8n.outputDir, 'solana-payout-ledger');
}

/** Where the Tron key credential keeps signed payout IDs and its journal: inside the folder n8n may write to. */
export function tronLedgerFolder(n8n: Pick<N8nInstance, 'outputDir'>): string {
	return path.join(n8n.outputDir, 'tron-payout-ledger');
}

/** Where the TON key credential keeps signed payout IDs and its journal: inside the folder n8n may write to. */
export function tonLedgerFolder(n8n: Pick<N8nInstance, 'outputDir'>): string {
	return path.join(n8n.outputDir, 'ton-payout-ledger');
}

/** Where the Stellar key credential keeps signed payout IDs and its journal: inside the folder n8n may write to. */
export function stellarLedgerFolder(n8n: Pick<N8nInstance, 'outputDir'>): string {
	return path.join(n8n.outputDir, 'stellar-payout-ledger');
}

/**
 * The Tron key of the USDT payout run: wallet 1 on chain 1001, its node pinned, a policy as a treasury
 * would set it (the payees listed, USDT capped per transfer as the run's settings say).
 */
export function tronPayoutKey(devnet: Pick<Devnet, 'tron'>, payoutLedgerFolder: string) {
	const nile = devnet.tron.find((chain) => chain.chainId === TRON_PAYOUT_CHAIN_ID);
	if (!nile) throw new Error(`the devnet has no Tron chain ${TRON_PAYOUT_CHAIN_ID}`);
	return {
		keyType: 'privateKey',
		privateKey: nile.wallets[TRON_PAYOUT_WALLET_INDEX].privateKey,
		allowedChainIds: nile.chainId,
		allowedRecipients: TRON_PAYEE_INDEXES.map((index) => nile.wallets[index].address).join(', '),
		maxPerTransaction: `${nile.usdt.address}:${nile.usdt.decimals}@${nile.chainId} = 5000`,
		payoutLedgerFolder,
		rpcUrls: `${nile.chainId} = ${nile.rpcUrl}`,
	};
}

/** The devnet's TON chain of the USDT payout run on TON. */
export function tonPayoutChain(devnet: Pick<Devnet, 'ton'>): DevnetTon {
	const testnet = devnet.ton.find((chain) => chain.chainId === TON_PAYOUT_CHAIN_ID);
	if (!testnet) throw new Error(`the devnet has no TON chain ${TON_PAYOUT_CHAIN_ID}`);
	return testnet;
}

/** The wallet the USDT payout run on TON pays from: the TON mnemonic's W5 wallet on its chain. */
export function tonPayoutWallet(devnet: Pick<Devnet, 'ton'>): DevnetTon['wallets'][number] {
	const wallet = tonPayoutChain(devnet).wallets.find(
		(entry) => entry.source === 'ton-mnemonic' && entry.version === 'v5r1',
	);
	if (!wallet)
		throw new Error(
			`the devnet's TON chain ${TON_PAYOUT_CHAIN_ID} has no W5 wallet of its TON mnemonic`,
		);
	return wallet;
}

/**
 * The TON key of the USDT payout run: the devnet's TON mnemonic (W5) on chain 1101, its toncenter API
 * pinned, a policy as a treasury would set it (the payees listed, USDT capped per transfer as the
 * run's settings say).
 */
export function tonPayoutKey(devnet: Pick<Devnet, 'ton'>, payoutLedgerFolder: string) {
	const testnet = tonPayoutChain(devnet);
	return {
		keyType: 'tonMnemonic',
		mnemonic: testnet.tonMnemonic,
		walletVersion: 'W5',
		allowedChainIds: testnet.chainId,
		allowedRecipients: TON_PAYEE_WALLETS.map((index) => testnet.wallets[index].address).join(', '),
		maxPerTransaction: `${testnet.usdt.address}:${testnet.usdt.decimals}@${testnet.chainId} = 5000`,
		payoutLedgerFolder,
		rpcUrls: `${testnet.chainId} = ${testnet.rpcUrl}`,
	};
}

/** The devnet's Stellar chain of the USDC payout run and the RWA example. */
export function stellarPayoutChain(devnet: Pick<Devnet, 'stellar'>): DevnetStellar {
	const testnet = devnet.stellar.find((chain) => chain.chainId === STELLAR_PAYOUT_CHAIN_ID);
	if (!testnet) throw new Error(`the devnet has no Stellar chain ${STELLAR_PAYOUT_CHAIN_ID}`);
	return testnet;
}

/**
 * The Stellar key of the USDC payout run and the RWA example: the devnet mnemonic (SEP-0005) on chain
 * 1501, its Horizon pinned, a policy as a treasury would set it (the payees listed, USDC capped per
 * payment as the run's settings say).
 */
export function stellarPayoutKey(devnet: Pick<Devnet, 'stellar'>, payoutLedgerFolder: string) {
	const testnet = stellarPayoutChain(devnet);
	return {
		keyType: 'mnemonic',
		mnemonic: testnet.mnemonic,
		allowedChainIds: testnet.chainId,
		allowedRecipients: STELLAR_PAYEE_ACCOUNTS.map((index) => testnet.wallets[index].publicKey).join(
			', ',
		),
		maxPerTransaction: `${testnet.usdc.asset}@${testnet.chainId} = 5000`,
		payoutLedgerFolder,
		rpcUrls: `${testnet.chainId} = ${testnet.rpcUrl}`,
	};
}

export function devnetCredentials(
	devnet: Pick<
		Devnet,
		| 'apiKey'
		| 'baseUrl'
		| 'historicalUrl'
		| 'streamUrl'
		| 'chains'
		| 'solana'
		| 'tron'
		| 'ton'
		| 'stellar'
		| 'safe'
		| 'fireblocks'
		| 'turnkey'
	>,
	n8n: Pick<N8nInstance, 'outputDir'>,
) {
	return [
		{
			...EXPAND_CREDENTIAL,
			data: {
				apiKey: devnet.apiKey,
				baseUrl: devnet.baseUrl,
				historicalUrl: devnet.historicalUrl,
				streamUrl: devnet.streamUrl,
			},
		},
		{
			...SIGNER_CREDENTIAL,
			data: {
				keyType: 'privateKey',
				privateKey: devnet.chains[0].wallets[PAYOUT_WALLET_INDEX].privateKey,
				payoutLedgerFolder: evmLedgerFolder(n8n),
			},
		},
		{
			...SAFE_API_CREDENTIAL,
			data: {
				serviceUrl: devnet.safe.serviceUrl,
				apiKey: devnet.safe.apiKey ?? '',
				maxRequestsPerSecond: 5,
			},
		},
		{
			...SAFE_DELEGATE_CREDENTIAL,
			data: {
				keyType: 'privateKey',
				privateKey: devnet.safe.delegate.privateKey,
				payoutLedgerFolder: safeLedgerFolder(n8n),
			},
		},
		{
			...SOLANA_CREDENTIAL,
			data: {
				keyType: 'secretKey',
				secretKey: devnet.solana.wallets[SOLANA_PAYOUT_WALLET_INDEX].secretKey,
				allowedChainIds: devnet.solana.chainId,
				payoutLedgerFolder: solanaLedgerFolder(n8n),
			},
		},
		{ ...TRON_CREDENTIAL, data: tronPayoutKey(devnet, tronLedgerFolder(n8n)) },
		{ ...TON_CREDENTIAL, data: tonPayoutKey(devnet, tonLedgerFolder(n8n)) },
		{ ...STELLAR_CREDENTIAL, data: stellarPayoutKey(devnet, stellarLedgerFolder(n8n)) },
		{ ...FIREBLOCKS_CREDENTIAL, data: fireblocksPayoutKey(devnet, fireblocksLedgerFolder(n8n)) },
		{ ...TURNKEY_CREDENTIAL, data: turnkeyPayoutKey(devnet, turnkeyLedgerFolder(n8n)) },
	];
}

export function exampleFiles(): string[] {
	return readdirSync(EXAMPLES)
		.filter((file) => file.endsWith('.json'))
		.sort();
}

/** A fresh user folder with both packages installed (the folder is emptied first). */
export async function freshUserFolder(n8n: N8nInstance, tarballs: string[]): Promise<void> {
	rmSync(n8n.userFolder, { recursive: true, force: true });
	mkdirSync(solanaLedgerFolder(n8n), { recursive: true });
	mkdirSync(evmLedgerFolder(n8n), { recursive: true });
	mkdirSync(safeLedgerFolder(n8n), { recursive: true });
	mkdirSync(tronLedgerFolder(n8n), { recursive: true });
	mkdirSync(tonLedgerFolder(n8n), { recursive: true });
	mkdirSync(stellarLedgerFolder(n8n), { recursive: true });
	mkdirSync(fireblocksLedgerFolder(n8n), { recursive: true });
	mkdirSync(turnkeyLedgerFolder(n8n), { recursive: true });
	await installPackages(n8n.userFolder, tarballs);
}

/** Imports the credentials (plain data; n8n encrypts it with the folder's key on import). */
export async function importCredentials(n8n: N8nInstance, credentials: object[]): Promise<void> {
	const file = path.join(n8n.userFolder, 'import', 'credentials.json');
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, JSON.stringify(credentials, null, 2));
	await n8nCli(n8n, ['import:credentials', `--input=${file}`]);
	rmSync(file);
}

/** Imports workflow files (paths or file names in examples/) with one n8n command. */
export async function importWorkflows(n8n: N8nInstance, files: string[]): Promise<void> {
	const dir = path.join(n8n.userFolder, 'import', 'workflows');
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	for (const file of files)
		copyFileSync(
			path.isAbsolute(file) ? file : path.join(EXAMPLES, file),
			path.join(dir, path.basename(file)),
		);
	await n8nCli(n8n, ['import:workflow', '--separate', `--input=${dir}`]);
}

/** Activates a workflow (n8n 2.x: publishes its current version); takes effect when n8n starts. */
export async function publishWorkflow(n8n: N8nInstance, id: string): Promise<void> {
	await n8nCli(n8n, ['publish:workflow', `--id=${id}`]);
}
