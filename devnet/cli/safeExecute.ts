/* eslint-disable no-console -- the command-line entry point prints for its user */
import { DEFAULT_API_KEY } from '../index';
import { devnetWallets } from '../fixtures';
import { SAFE_OWNER_WALLETS } from '../safe/deploy';
import { confirmAndExecute } from '../safe/execute';
import { safeServiceUrl } from '../safe/gateway';
import { SAFE_CHAIN_ID } from '../safe';

function option(argv: string[], name: string): string | undefined {
	const index = argv.indexOf(`--${name}`);
	return index === -1 ? undefined : argv[index + 1];
}

/**
 * `npm run devnet -- safe-execute <safeTxHash> [--devnet-url http://127.0.0.1:9545]
 * [--api-key devnet-key-0000] [--safe-api-key KEY] [--owners 5,6]`: confirms a proposal on a running
 * devnet with owner keys (devnet wallet indexes; default the Safe's three owners, as many as the
 * threshold needs) and executes it on chain 31337.
 */
export async function safeExecuteCommand(argv: string[]): Promise<void> {
	const hash = argv[0];
	if (!/^0x[0-9a-fA-F]{64}$/.test(hash ?? ''))
		throw new Error(
			'usage: npm run devnet -- safe-execute <safeTxHash> [--devnet-url URL] [--safe-api-key KEY] [--owners 5,6]',
		);
	const devnetUrl = (option(argv, 'devnet-url') ?? 'http://127.0.0.1:9545').replace(/\/+$/, '');
	const apiKey = option(argv, 'api-key') ?? DEFAULT_API_KEY;
	const response = await fetch(`${devnetUrl}/chain/getpublicrpc?chainId=${SAFE_CHAIN_ID}`, {
		headers: { 'x-api-key': apiKey },
	});
	if (!response.ok)
		throw new Error(`devnet at ${devnetUrl} answered ${response.status} to getpublicrpc`);
	const rpcUrl = ((await response.json()) as { data: { rpc: string } }).data.rpc;
	const wallets = devnetWallets();
	const owners = (option(argv, 'owners')?.split(',').map(Number) ?? SAFE_OWNER_WALLETS).map(
		(index) => {
			if (!wallets[index]) throw new Error(`--owners: no devnet wallet ${index}`);
			return wallets[index];
		},
	);
	const executed = await confirmAndExecute(
		{
			serviceUrl: safeServiceUrl(devnetUrl, SAFE_CHAIN_ID),
			rpcUrl,
			chainId: SAFE_CHAIN_ID,
			owners,
			apiKey: option(argv, 'safe-api-key'),
		},
		hash,
	);
	console.log(JSON.stringify(executed, null, 2));
	if (!executed.success) process.exitCode = 1;
}
