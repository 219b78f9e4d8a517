/**
 * The README's main command: starts the devnet, runs a multi-chain balance report workflow
 * (wallets × chains × native asset and tokens → Expand chain/getbalance with formatted amounts)
 * through n8n's own execution engine, prints the report and stops the devnet. n8n-core's files go
 * to a temporary folder in the project's .cache that is removed at the end (scripts/engine/userFolder.ts),
 * not to ~/.n8n: nothing is written outside the project folder.
 */
import './engineHome';

import { startDevnet } from '../devnet';
import { releaseEngine, runExpand } from './engine/n8n';

async function main(): Promise<void> {
	const devnet = await startDevnet();
	try {
		const wallets = devnet.chains[0].wallets.slice(1, 4);
		const rows = devnet.chains.flatMap((chain) =>
			wallets.flatMap((wallet, index) =>
				['', ...Object.values(chain.tokens).map((token) => token.address)].map((token) => ({
					wallet: `wallet ${index + 1} ${wallet.address}`,
					address: wallet.address,
					chainId: chain.chainId,
					token,
				})),
			),
		);
		const result = await runExpand(
			{
				resource: 'chain',
				operation: 'getbalance',
				chainId: '={{ $json.chainId }}',
				address: '={{ $json.address }}',
				additionalFields: { tokenAddress: '={{ $json.token }}' },
				formatAmounts: true,
			},
			{
				items: rows,
				credentials: {
					apiKey: devnet.apiKey,
					baseUrl: devnet.baseUrl,
					historicalUrl: devnet.historicalUrl,
				},
			},
		);
		if (result.error) throw result.error;
		console.log(
			`Multi-chain balance report (devnet ${devnet.baseUrl}, execution ${result.status})\n`,
		);
		console.log(
			`${'chain'.padEnd(7)} ${'wallet'.padEnd(53)} ${'asset'.padEnd(6)} ${'balance'.padStart(28)}  raw (smallest unit)`,
		);
		result.output('Expand').forEach((item, index) => {
			const row = rows[index];
			const { balanceFormatted, symbol, balance } = item.json as Record<string, string>;
			console.log(
				`${row.chainId.padEnd(7)} ${row.wallet.padEnd(53)} ${symbol.padEnd(6)} ${balanceFormatted.padStart(28)}  ${balance}`,
			);
		});
		const usage = devnet.usage();
		console.log(
			`\n${usage.length} API calls, ${usage.reduce((sum, call) => sum + call.totalComputeUnits, 0)} compute units (metered by the devnet).`,
		);
	} finally {
		await devnet.stop();
		releaseEngine();
	}
}

main()
	.then(() => process.exit(0))
	.catch((error) => {
		console.error(error);
		process.exit(1);
	});
