/* eslint-disable no-console -- the command-line entry point prints for its user */
import { readFileSync } from 'fs';

import { DEFAULT_API_KEY, type DevnetOptions, type FaultOptions, startDevnet } from './index';
import { fireblocksCommand, printFireblocks } from './cli/custody';
import { safeExecuteCommand } from './cli/safeExecute';

function option(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? undefined : process.argv[index + 1];
}

const numberOption = (name: string) =>
	option(name) === undefined ? undefined : Number(option(name));

/** Fault flags (shares as fractions, e.g. --server-errors 0.2), each overriding the config file's `faults`. */
function faultOptions(config: FaultOptions): FaultOptions {
	return {
		latencyMs: numberOption('latency') ?? config.latencyMs,
		serverErrorShare: numberOption('server-errors') ?? config.serverErrorShare,
		resetShare: numberOption('resets') ?? config.resetShare,
		rateLimitShare: numberOption('429-retry-after') ?? config.rateLimitShare,
		bareRateLimitShare: numberOption('429') ?? config.bareRateLimitShare,
		slowBodyShare: numberOption('slow-bodies') ?? config.slowBodyShare,
		slowBodyMs: numberOption('slow-body-ms') ?? config.slowBodyMs,
		retryAfterSeconds: numberOption('retry-after') ?? config.retryAfterSeconds,
		seed: numberOption('fault-seed') ?? config.seed,
	};
}

/** Options from `--config <file.json>` (the DevnetOptions fields), each overridden by its flag. */
function options(): DevnetOptions {
	const file = option('config');
	const config = (file ? JSON.parse(readFileSync(file, 'utf8')) : {}) as DevnetOptions;
	return {
		port: numberOption('port') ?? config.port ?? 9545,
		historicalPort: numberOption('historical-port') ?? config.historicalPort ?? 9546,
		streamPort: numberOption('stream-port') ?? config.streamPort ?? 9547,
		fireblocksPort: numberOption('fireblocks-port') ?? config.fireblocksPort ?? 9560,
		apiKeys: option('keys')?.split(',') ?? config.apiKeys ?? [DEFAULT_API_KEY],
		rateLimitPerSecond: numberOption('rate-limit') ?? config.rateLimitPerSecond,
		safeApiKeys: option('safe-api-keys')?.split(',') ?? config.safeApiKeys,
		safeRateLimitPerSecond: numberOption('safe-rate-limit') ?? config.safeRateLimitPerSecond,
		faults: faultOptions(config.faults ?? {}),
		turnkeyPort: numberOption('turnkey-port') ?? config.turnkeyPort ?? 9561,
		blockTime: numberOption('block-time') ?? config.blockTime ?? 0,
		quiet: !process.argv.includes('--verbose') && (config.quiet ?? true),
	};
}

async function main(): Promise<void> {
	const started = Date.now();
	const devnet = await startDevnet(options());
	console.log(`expand devnet ready in ${Date.now() - started} ms`);
	console.log(`  Base URL:       ${devnet.baseUrl}`);
	console.log(`  Historical URL: ${devnet.historicalUrl}`);
	console.log(
		`  Stream URL:     ${devnet.streamUrl}  (ticker prices of chain ${devnet.chains[0].chainId})`,
	);
	console.log(`  API key:        ${devnet.apiKey}`);
	console.log(`  Chain IDs:      ${devnet.chains.map((chain) => chain.chainId).join(', ')}`);
	for (const chain of devnet.chains) {
		console.log(
			`\n  Chain ${chain.chainId}  JSON-RPC ${chain.rpcUrl}  dexId ${devnet.dexIds[chain.chainId]} (Uniswap V2)`,
		);
		for (const token of Object.values(chain.tokens))
			console.log(`    ${token.symbol.padEnd(5)} ${token.address}  ${token.decimals} decimals`);
		console.log(
			`    Uniswap V2 factory ${chain.uniswapV2.factory}, router ${chain.uniswapV2.router}`,
		);
		for (const [pair, address] of Object.entries(chain.uniswapV2.pairs))
			console.log(`    pool ${pair.padEnd(10)} ${address}`);
		console.log(
			`    NFT ${chain.nft.symbol} ${chain.nft.address}, tokens ${chain.nft.tokenIds.join(', ')}`,
		);
	}
	console.log(
		'\n  Funded wallets (10,000 ETH each at genesis; development keys, never use them elsewhere):',
	);
	for (const wallet of devnet.chains[0].wallets)
		console.log(`    ${wallet.address}  ${wallet.privateKey}`);
	const { safe } = devnet;
	console.log(
		`\n  Safe ${safe.address}  (1.4.1, ${safe.threshold} of ${safe.owners.length}, chain ${safe.chainId}; 100 ETH and 100,000 USDC at start)`,
	);
	console.log(
		`    Safe Transaction Service stand-in: ${safe.serviceUrl}  (paths /api/v1/..., /api/v2/...; ${safe.apiKey ? `Authorization: Bearer ${safe.apiKey}` : 'no API key required'})`,
	);
	for (const owner of safe.owners)
		console.log(`    owner     ${owner.address}  ${owner.privateKey}`);
	console.log(
		`    delegate  ${safe.delegate.address}  ${safe.delegate.privateKey}  (proposer only, no funds)`,
	);
	console.log(
		`    singleton ${safe.contracts.singleton}, factory ${safe.contracts.proxyFactory}, fallback handler ${safe.contracts.fallbackHandler}, MultiSend ${safe.contracts.multiSend}, MultiSendCallOnly ${safe.contracts.multiSendCallOnly}`,
	);
	console.log('    Confirm and execute a proposal: npm run devnet -- safe-execute <safeTxHash>');
	const { solana } = devnet;
	console.log(
		`\n  Chain ${solana.chainId} (${solana.symbol}, Solana on litesvm)  JSON-RPC ${solana.rpcUrl}`,
	);
	console.log(
		`    ${solana.usdc.symbol}  ${solana.usdc.address}  ${solana.usdc.decimals} decimals, SPL Token mint (authority: wallet 0)`,
	);
	console.log(
		`    Wallets: "${solana.mnemonic}" on m/44'/501'/i'/0', 100 SOL each; wallets 0-3 hold 10,000 USDC, wallet 4 has no USDC account.`,
	);
	console.log(
		'    Secret keys in base58 (Phantom/Solflare export format); development keys, never use them elsewhere:',
	);
	for (const wallet of solana.wallets)
		console.log(`    ${wallet.index}  ${wallet.address}  ${wallet.secretKey}`);
	for (const tron of devnet.tron) {
		console.log(
			`\n  Chain ${tron.chainId} (${tron.symbol}, Tron stand-in)  HTTP API ${tron.rpcUrl}/wallet/...`,
		);
		console.log(
			`    ${tron.usdt.symbol}  ${tron.usdt.address}  ${tron.usdt.decimals} decimals, TRC-20 (a balance ledger, not a contract)`,
		);
	}
	const [tron] = devnet.tron;
	console.log(
		`    Wallets (both chains): "${tron.mnemonic}" on m/44'/195'/0'/0/i; wallets 0-3 hold 10,000 TRX and 10,000 USDT, wallet 4 has no account.`,
	);
	console.log(
		'    Private keys (TronLink export format); development keys, never use them elsewhere:',
	);
	for (const wallet of tron.wallets)
		console.log(`    ${wallet.index}  ${wallet.address}  ${wallet.privateKey}`);
	for (const ton of devnet.ton) {
		console.log(
			`\n  Chain ${ton.chainId} (${ton.symbol}, TON on @ton/sandbox)  toncenter v2 API ${ton.rpcUrl}`,
		);
		console.log(
			`    ${ton.usdt.symbol}  ${ton.usdt.bounceable}  ${ton.usdt.decimals} decimals, standard jetton minter (TEP-74)`,
		);
		for (const wallet of ton.wallets)
			console.log(
				`    ${wallet.version}  ${wallet.source} ${wallet.index ?? ''}  ${wallet.bounceable}`,
			);
	}
	const [ton] = devnet.ton;
	console.log(
		`    Wallets: "${ton.mnemonic}" on m/44'/607'/i' (i = 0-2) and the TON mnemonic "${ton.tonMnemonic}", W5 and v4R2 each; 1,000 TON and 1,000,000 USDT each.`,
	);
	console.log('    Ed25519 seeds (hex); development keys, never use them elsewhere:');
	for (const wallet of ton.wallets.filter((candidate) => candidate.version === 'v5r1'))
		console.log(`    ${wallet.source} ${wallet.index ?? ''}  ${wallet.secretKey}`);
	for (const stellar of devnet.stellar) {
		console.log(
			`\n  Chain ${stellar.chainId} (${stellar.symbol}, Stellar stand-in, "${stellar.passphrase}")  Horizon ${stellar.rpcUrl}`,
		);
		console.log(
			`    USDC  ${stellar.usdc.asset}  issuer secret ${stellar.usdc.issuerSecret}; RWA1  ${stellar.rwa.asset} (auth_required, auth_revocable)`,
		);
	}
	const [stellar] = devnet.stellar;
	console.log(
		`    Wallets (both chains): "${stellar.mnemonic}" on m/44'/148'/i' (SEP-0005); 10,000 XLM and 100,000 USDC each; wallet 3 issues RWA1.`,
	);
	console.log('    Secret seeds; development keys, never use them elsewhere:');
	for (const wallet of stellar.wallets)
		console.log(`    ${wallet.index}  ${wallet.publicKey}  ${wallet.secret}`);
	const { turnkey } = devnet;
	console.log(
		`\n  Turnkey stand-in ${turnkey.url}  (paths /public/v1/...; requests stamped with X-Stamp, P-256)`,
	);
	console.log(`    Organization ID  ${turnkey.organizationId}`);
	console.log(`    API public key   ${turnkey.apiPublicKey}`);
	console.log(
		`    API private key  ${turnkey.apiPrivateKey}  (a devnet key, never use it elsewhere)`,
	);
	console.log(
		`    Sign With        EVM ${turnkey.accounts.evm} (chain 31337: 1,000 ETH, 1,000,000 USDC, DAI, LINK)`,
	);
	console.log(
		`                     Solana ${turnkey.accounts.solana} (chain ${solana.chainId}: 100 SOL, 1,000,000 USDC)`,
	);
	console.log(
		`                     Tron ${turnkey.accounts.tron} (chains ${devnet.tron.map((chain) => chain.chainId).join(', ')}: 10,000 TRX, 1,000,000 USDT)`,
	);
	console.log(`    Webhook JWKS     ${turnkey.jwksUrl}  (kid ${turnkey.webhookKeyId})`);
	console.log(
		`    Consensus: POST ${turnkey.url}/devnet/activities/<id>/approve|reject; webhooks: POST ${turnkey.url}/devnet/webhooks {"url": …}`,
	);
	printFireblocks(devnet.fireblocks);
	console.log('\nCtrl-C stops the devnet.');
	const stop = async () => {
		await devnet.stop();
		process.exit(0);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

const command =
	process.argv[2] === 'safe-execute'
		? safeExecuteCommand(process.argv.slice(3))
		: /^fireblocks-(approve|reject|list)$/.test(process.argv[2] ?? '')
			? fireblocksCommand(process.argv[2], process.argv.slice(3))
			: main();
command.catch((error) => {
	console.error(error);
	process.exit(1);
});
