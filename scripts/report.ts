/**
 * The README's main command: starts the devnet, runs a multi-chain balance report workflow
 * (wallets × chains × native asset and tokens → Expand chain/getbalance with formatted amounts)
 * through n8n's own execution engine, prints the report and stops the devnet.
 */
import { startDevnet } from '../devnet';
import { EXPAND, ITEMS, expandCredentials, runPipeline } from '../test/helpers/n8n';

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
		const result = await runPipeline(
			[
				{ name: 'Wallets', type: ITEMS, parameters: { items: JSON.stringify(rows) } },
				{
					name: 'Balances',
					type: EXPAND,
					parameters: {
						resource: 'chain',
						operation: 'getbalance',
						chainId: '={{ $json.chainId }}',
						address: '={{ $json.address }}',
						additionalFields: { tokenAddress: '={{ $json.token }}' },
						formatAmounts: true,
					},
				},
			],
			expandCredentials({ apiKey: devnet.apiKey, baseUrl: devnet.baseUrl, historicalUrl: devnet.historicalUrl }),
		);
		if (result.error) throw result.error;
		console.log(`Multi-chain balance report (devnet ${devnet.baseUrl}, execution ${result.status})\n`);
		console.log(`${'chain'.padEnd(7)} ${'wallet'.padEnd(53)} ${'asset'.padEnd(6)} ${'balance'.padStart(28)}  raw (smallest unit)`);
		result.output('Balances').forEach((item, index) => {
			const row = rows[index];
			const { balanceFormatted, symbol, balance } = item.json as Record<string, string>;
			console.log(`${row.chainId.padEnd(7)} ${row.wallet.padEnd(53)} ${symbol.padEnd(6)} ${balanceFormatted.padStart(28)}  ${balance}`);
		});
		const usage = devnet.usage();
		console.log(`\n${usage.length} API calls, ${usage.reduce((sum, call) => sum + call.totalComputeUnits, 0)} compute units (metered by the devnet).`);
	} finally {
		await devnet.stop();
	}
}

main()
	.then(() => process.exit(0))
	.catch((error) => {
		console.error(error);
		process.exit(1);
	});
