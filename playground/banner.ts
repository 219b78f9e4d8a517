/**
 * What `npm run playground` prints once n8n is ready: the editor and its login, the credentials and
 * the wallets they sign with, every funded wallet, every token with its address and decimals, the
 * devnet's URLs and JSON-RPC ports, and how to run `n8n execute` beside the editor.
 */
import * as path from 'node:path';

import type { Devnet } from '../devnet';
import { DEVNET_MNEMONIC } from '../devnet/fixtures';
import { n8nBin, n8nNode } from './install';
import type { N8nInstance } from './n8n';
import {
	EXPAND_CREDENTIAL,
	PAYOUT_WALLET_INDEX,
	SAFE_API_CREDENTIAL,
	SAFE_DELEGATE_CREDENTIAL,
	SIGNER_CREDENTIAL,
	SOLANA_CREDENTIAL,
	SOLANA_PAYOUT_WALLET_INDEX,
	STELLAR_CREDENTIAL,
	STELLAR_PAYEE_ACCOUNTS,
	stellarLedgerFolder,
	stellarPayoutChain,
	TON_CREDENTIAL,
	TON_PAYEE_WALLETS,
	tonLedgerFolder,
	tonPayoutChain,
	tonPayoutWallet,
	TRON_CREDENTIAL,
	TRON_PAYEE_INDEXES,
	TRON_PAYOUT_CHAIN_ID,
	TRON_PAYOUT_WALLET_INDEX,
	evmLedgerFolder,
	safeLedgerFolder,
	solanaLedgerFolder,
	tronLedgerFolder,
} from './prepare';
import { ROOT } from './paths';

/** What the devnet's fixtures do with each EVM wallet (devnet/README.md, Fixtures). */
const WALLET_ROLES: Record<number, string> = {
	0: 'deployer of the fixtures',
	1: '10,000 USDC, 5,000 DAI, 100 LINK (sent 250 USDC to wallet 2); Treasury in the examples',
	2: '10,000 USDC, 5,000 DAI, 100 LINK (+250 USDC from wallet 1); Operations in the examples',
	3: `10,000 USDC, 5,000 DAI, 100 LINK; the key of credential "${SIGNER_CREDENTIAL.name}": pays the payout examples`,
	5: 'owner of the devnet Safe (2 of 3)',
	6: 'owner of the devnet Safe (2 of 3)',
	7: 'owner of the devnet Safe (2 of 3)',
	9: 'collects the fees of chain/createfeetransaction',
};

const relative = (file: string) =>
	file.startsWith(ROOT) ? path.relative(process.cwd(), file) || '.' : file;

export function banner(options: {
	devnet: Devnet;
	n8n: N8nInstance;
	url: string;
	login: { email: string; password: string };
	version: string;
	seconds: number;
	blockTime: number;
	brokerPortHint: number;
}): string {
	const { devnet, n8n, url, login } = options;
	const [chain] = devnet.chains;
	const solana = devnet.solana;
	const nile =
		devnet.tron.find((entry) => entry.chainId === TRON_PAYOUT_CHAIN_ID) ?? devnet.tron[0];
	const tonTestnet = tonPayoutChain(devnet);
	const tonPayer = tonPayoutWallet(devnet);
	const stellarTestnet = stellarPayoutChain(devnet);
	const tokens = (entry: (typeof devnet.chains)[number]) =>
		Object.values(entry.tokens).map(
			(token) => `${token.symbol.padEnd(5)} ${token.address}  ${token.decimals} decimals`,
		);
	const executeEnv = [
		`N8N_USER_FOLDER=${n8n.userFolder}`,
		`N8N_RUNNERS_BROKER_PORT=${options.brokerPortHint}`,
		'N8N_BLOCK_ENV_ACCESS_IN_NODE=false',
		'N8N_DIAGNOSTICS_ENABLED=false',
		`EXPAND_EXAMPLES_OUTPUT=${n8n.outputDir}`,
		`N8N_RESTRICT_FILE_ACCESS_TO=${n8n.outputDir}`,
	];
	return `
n8n ${options.version} with n8n-nodes-expand-network is ready (${options.seconds} s)

  Editor:   ${url}
  Login:    ${login.email} / ${login.password}

Credentials (imported, encrypted by n8n):
  "${EXPAND_CREDENTIAL.name}"   API ${devnet.baseUrl}, historical ${devnet.historicalUrl}, stream ${devnet.streamUrl}, key ${devnet.apiKey}
  "${SIGNER_CREDENTIAL.name}"   private key of EVM wallet ${PAYOUT_WALLET_INDEX} ${chain.wallets[PAYOUT_WALLET_INDEX].address}, no policy limits,
      payout ledger ${relative(evmLedgerFolder(n8n))}
  "${SAFE_API_CREDENTIAL.name}"   Safe Transaction Service stand-in ${devnet.safe.serviceUrl}
  "${SAFE_DELEGATE_CREDENTIAL.name}"   the devnet Safe's delegate ${devnet.safe.delegate.address} (see Safe below),
      payout ledger ${relative(safeLedgerFolder(n8n))}
  "${SOLANA_CREDENTIAL.name}"   Solana wallet ${SOLANA_PAYOUT_WALLET_INDEX} ${solana.wallets[SOLANA_PAYOUT_WALLET_INDEX].address}, chain ${solana.chainId} only,
      payout ledger ${relative(solanaLedgerFolder(n8n))}
  "${TRON_CREDENTIAL.name}"   Tron wallet ${TRON_PAYOUT_WALLET_INDEX} ${nile.wallets[TRON_PAYOUT_WALLET_INDEX].address}, chain ${nile.chainId} only, pays Tron wallets
      ${TRON_PAYEE_INDEXES.join(', ')} only, at most 5,000 USDT a transfer; payout ledger ${relative(tronLedgerFolder(n8n))}
  "${TON_CREDENTIAL.name}"   the TON mnemonic's W5 wallet ${tonPayer.nonBounceable}, chain ${tonTestnet.chainId} only,
      pays TON wallets ${TON_PAYEE_WALLETS.join(', ')} only, at most 5,000 USDT a transfer; payout ledger ${relative(tonLedgerFolder(n8n))}
  "${STELLAR_CREDENTIAL.name}"   the mnemonic above on m/44'/148'/<n>' (account 0 pays, account 3 issues RWA1), chain ${stellarTestnet.chainId} only,
      pays Stellar accounts ${STELLAR_PAYEE_ACCOUNTS.join(', ')} only, at most 5,000 USDC a payment; payout ledger ${relative(stellarLedgerFolder(n8n))}

Chains (JSON-RPC; the devnet's accounts are unlocked, eth_sendTransaction works from any wallet below):
${devnet.chains.map((entry) => `  ${entry.chainId}  ${entry.rpcUrl}`).join('\n')}
  ${solana.chainId.padEnd(5)}  ${solana.rpcUrl} (Solana Devnet on litesvm)
${devnet.tron.map((entry) => `  ${entry.chainId.padEnd(5)}  ${entry.rpcUrl} (Tron stand-in, java-tron's HTTP API /wallet/…)`).join('\n')}
${devnet.ton.map((entry) => `  ${entry.chainId.padEnd(5)}  ${entry.rpcUrl} (TON on the real TVM, @ton/sandbox; toncenter v2 API)`).join('\n')}
${devnet.stellar.map((entry) => `  ${entry.chainId.padEnd(5)}  ${entry.rpcUrl} (Stellar ledger stand-in; Horizon subset)`).join('\n')}
  ${options.blockTime ? `A block every ${options.blockTime / 1000} s` : 'Blocks on transactions only'}; every start begins from the same fresh chains.

Tokens (the same addresses on ${devnet.chains.map((entry) => entry.chainId).join(' and ')}):
${tokens(chain)
	.map((line) => `  ${line}`)
	.join('\n')}
  Uniswap V2 router ${chain.uniswapV2.router} (dexId ${devnet.chains.map((entry) => `${devnet.dexIds[entry.chainId]} on ${entry.chainId}`).join(', ')})
  On ${solana.chainId}: USDC mint ${solana.usdc.address}  ${solana.usdc.decimals} decimals
${devnet.tron.map((entry) => `  On ${entry.chainId}: USDT ${entry.usdt.address}  ${entry.usdt.decimals} decimals`).join('\n')}
${devnet.ton.map((entry) => `  On ${entry.chainId}: USDT (jetton master) ${entry.usdt.bounceable}  ${entry.usdt.decimals} decimals`).join('\n')}
${devnet.stellar.map((entry) => `  On ${entry.chainId}: ${entry.usdc.asset}  ${entry.usdc.decimals} decimals; ${entry.rwa.asset} (auth_required)`).join('\n')}

Safe ${devnet.safe.address} on ${devnet.safe.chainId} (1.4.1, ${devnet.safe.threshold} of ${devnet.safe.owners.length}: wallets 5, 6, 7; 100 ETH, 100,000 USDC at start)
  Safe Transaction Service (devnet stand-in): ${devnet.safe.serviceUrl}
  Delegate (may propose, holds nothing): ${devnet.safe.delegate.address}  key ${devnet.safe.delegate.privateKey}
  Owners confirm and execute a proposal: npm run devnet -- safe-execute <safeTxHash> --devnet-url ${devnet.baseUrl}

Funded EVM wallets (10,000 ETH each on both chains; keys: mnemonic "${DEVNET_MNEMONIC}",
m/44'/60'/0'/0/<n>; wallets 10-19 of it are funded too, and the payout run pays 13-15):
${chain.wallets.map((wallet, index) => `  ${String(index).padStart(2)}  ${wallet.address}${WALLET_ROLES[index] ? `  ${WALLET_ROLES[index]}` : ''}`).join('\n')}
Funded Solana wallets (100 SOL; wallets 0-3 with 10,000 USDC):
${solana.wallets.map((wallet) => `  ${wallet.index}  ${wallet.address}${wallet.index === SOLANA_PAYOUT_WALLET_INDEX ? `  the key of "${SOLANA_CREDENTIAL.name}"` : ''}`).join('\n')}
Funded Tron wallets (both chains; 10,000 TRX and 10,000 USDT on wallets 0-3, no account for wallet 4; m/44'/195'/0'/0/<n>):
${nile.wallets.map((wallet) => `  ${wallet.index}  ${wallet.address}${wallet.index === TRON_PAYOUT_WALLET_INDEX ? `  the key of "${TRON_CREDENTIAL.name}"` : ''}`).join('\n')}
Funded TON wallets on ${tonTestnet.chainId} (1,000 TON and 1,000,000 USDT each; the mnemonic above on m/44'/607'/<n>', and the TON mnemonic
"${tonTestnet.tonMnemonic}"):
${tonTestnet.wallets.map((wallet, index) => `  ${index}  ${wallet.nonBounceable}  ${wallet.source === 'bip39' ? `account ${wallet.index}` : 'TON mnemonic'} ${wallet.version}${wallet === tonPayer ? `  the key of "${TON_CREDENTIAL.name}"` : ''}`).join('\n')}
Funded Stellar accounts (both chains; 10,000 XLM, a USDC trustline and 100,000 USDC each; the mnemonic above on m/44'/148'/<n>'):
${stellarTestnet.wallets.map((wallet) => `  ${wallet.index}  ${wallet.publicKey}${wallet.index === 0 ? `  pays the USDC payout run ("${STELLAR_CREDENTIAL.name}")` : wallet.publicKey === stellarTestnet.rwa.issuer ? '  issues RWA1' : ''}`).join('\n')}

Workflows: the examples/ folder; the devnet variants run as they are (Execute workflow). Active: the price alert,
  the large-transfer watch and the payout run via Safe's write-back (its executions, once safe-execute ran).
Files: the devnet variants write to ${relative(n8n.outputDir)}

n8n execute beside the editor (it starts its own task broker: give it a free port, not the editor's ${n8n.port + 1}):
  ${executeEnv.join(' \\\n    ')} \\
    ${relative(n8nNode())} ${relative(n8nBin())} execute --id=expandTreasuryDevnet

Ctrl-C stops n8n and the devnet. Each start begins from a fresh devnet and a fresh n8n user folder (${relative(n8n.userFolder)}).
`;
}
