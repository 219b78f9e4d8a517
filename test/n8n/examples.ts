/**
 * The example workflows run with `n8n execute --id` (before n8n starts): the treasury report, the EVM
 * payout and the Solana payout, each checked against the devnet's chains.
 */
import { readFileSync } from 'node:fs';

import { formatUnits } from 'ethers';

import { executeWorkflow, runError } from '../../playground/n8n';
import { EXAMPLE_IDS } from '../../playground/playground';
import { PAYOUT_WALLET_INDEX, SOLANA_PAYOUT_WALLET_INDEX } from '../../playground/prepare';
import { balanceOf, dexQuote } from '../helpers/chainReads';
import { assert, equal } from '../helpers/checks';
import type { Session } from './session';

/** Every balance equals the chain, formatted exactly, priced by the DEX; a 429 (Retry-After) is waited out and retried. */
export async function treasuryReport({ devnet, n8n, out }: Session): Promise<void> {
	const [chainA, chainB] = devnet.chains;
	// The retry waits through n8n-workflow of the n8n that runs (2.41 has no sleepWithAbort: nodes/shared/sleep.ts).
	devnet.faults.failNext('/chain/getbalance', 'rateLimit');
	const rateLimited = () =>
		devnet.faults.received.some(
			(call) => call.path === '/chain/getbalance' && call.fault === 'rateLimit',
		);
	let result: Awaited<ReturnType<typeof executeWorkflow>>;
	let answered429 = false;
	try {
		result = await executeWorkflow(n8n, EXAMPLE_IDS.treasuryDevnet);
		answered429 = rateLimited();
	} finally {
		// A run that never reached the API leaves the 429 pending: take it here, not in a later check's balance read.
		if (!rateLimited())
			await fetch(`${devnet.baseUrl}/chain/getbalance`, {
				headers: { 'x-api-key': devnet.apiKey },
			}).catch(() => undefined);
	}
	equal(runError(result), undefined, 'run error');
	assert(answered429, 'one balance read was answered 429 with Retry-After');
	const [report] = JSON.parse(readFileSync(out('treasury-report.json'), 'utf8')) as Array<{
		rows: Array<{
			chainId: string;
			wallet: string;
			address: string;
			asset: string;
			tokenAddress: string;
			balance: string;
			amount: string;
			usdPrice: number;
			usdValue: number;
		}>;
		walletTotals: Record<string, number>;
		total: number;
	}>;
	equal(report.rows.length, 2 * 3 * 5, 'rows (2 chains × 3 wallets × native and 4 tokens)');
	for (const row of report.rows) {
		const chain = devnet.chains.find((entry) => entry.chainId === row.chainId)!;
		const token = Object.values(chain.tokens).find((entry) => entry.address === row.tokenAddress);
		const decimals = token?.decimals ?? 18;
		equal(
			row.balance,
			String(await balanceOf(devnet, row.chainId, row.address, row.tokenAddress)),
			`${row.chainId} ${row.wallet} ${row.asset} balance`,
		);
		const exact = formatUnits(BigInt(row.balance), decimals).replace(/\.0$/, '');
		equal(row.amount, exact, `${row.chainId} ${row.wallet} ${row.asset} formatted amount`);
		equal(row.asset, token?.symbol ?? row.asset, 'symbol');
		const price =
			token?.symbol === 'USDC'
				? 1
				: await dexQuote(devnet, row.chainId, token?.address ?? chain.weth, decimals);
		equal(row.usdPrice, Math.round(price * 100) / 100, `${row.chainId} ${row.asset} USD price`);
	}
	// What the fixtures hold (devnet/README.md): wallets 1-3 got 10,000 USDC, 5,000 DAI and 100 LINK; wallet 1 sent wallet 2 250 USDC.
	const amount = (chainId: string, wallet: string, asset: string) =>
		report.rows.find(
			(row) => row.chainId === chainId && row.wallet === wallet && row.asset === asset,
		)?.amount;
	for (const chainId of [chainA.chainId, chainB.chainId]) {
		equal(
			['USDC', 'DAI', 'LINK'].map((asset) => amount(chainId, 'Treasury', asset)),
			['9750', '5000', '100'],
			`chain ${chainId} Treasury (wallet 1) tokens`,
		);
		equal(
			amount(chainId, 'Operations', 'USDC'),
			'10250',
			`chain ${chainId} Operations (wallet 2) USDC`,
		);
	}
	const sum = Object.values(report.walletTotals).reduce((total, value) => total + value, 0);
	assert(
		Math.abs(sum - report.total) < 0.05,
		`wallet totals ${sum} add up to the total ${report.total}`,
	);
}

/** Three USDC transfers signed in n8n, mined, with the exact amounts. */
export async function payoutExample({ devnet, n8n, out }: Session): Promise<void> {
	const chainA = devnet.chains[0];
	const usdc = chainA.tokens.USDC.address;
	const sender = chainA.wallets[PAYOUT_WALLET_INDEX].address;
	const recipients = [5, 6, 7].map((index) => chainA.wallets[index].address);
	const holdings = () =>
		Promise.all(
			[sender, ...recipients].map((address) => balanceOf(devnet, chainA.chainId, address, usdc)),
		);
	const before = await holdings();
	const result = await executeWorkflow(n8n, EXAMPLE_IDS.payoutDevnet);
	equal(runError(result), undefined, 'run error');
	const [payout] = JSON.parse(readFileSync(out('payout.json'), 'utf8')) as Array<{
		allMined: boolean;
		payments: Array<{ to: string; units: string; transactionHash: string; mined: boolean }>;
	}>;
	equal(
		payout.payments.map((payment) => payment.to),
		recipients,
		'recipients',
	);
	equal(
		payout.payments.map((payment) => payment.units),
		['125500000', '80000000', '42125000'],
		'amounts in the smallest unit',
	);
	assert(payout.allMined, 'the workflow saw every transaction mined');
	for (const payment of payout.payments) {
		const receipt = await devnet.rpc<{ status: string; from: string; to: string } | null>(
			chainA.chainId,
			'eth_getTransactionReceipt',
			[payment.transactionHash],
		);
		assert(
			receipt && receipt.status === '0x1',
			`${payment.transactionHash} is mined and succeeded`,
		);
		equal(receipt.from.toLowerCase(), sender.toLowerCase(), 'signed by the payout wallet');
		equal(receipt.to.toLowerCase(), usdc.toLowerCase(), 'a USDC transfer');
	}
	const after = await holdings();
	equal(
		recipients.map((_, index) => String(after[index + 1] - before[index + 1])),
		payout.payments.map((payment) => payment.units),
		'recipient balance changes',
	);
	equal(
		String(before[0] - after[0]),
		String(125500000n + 80000000n + 42125000n),
		'sender balance change',
	);
}

/** SOL and USDC signed in n8n and sent on chain 901, balances moved exactly; run again, nobody is paid twice. */
export async function solanaPayout({ devnet, n8n }: Session): Promise<void> {
	const solana = devnet.solana;
	const balance = async (owner: string, mint = '') => {
		const query = new URLSearchParams({
			chainId: solana.chainId,
			address: owner,
			...(mint ? { tokenAddress: mint } : {}),
		});
		const reply = await fetch(`${devnet.baseUrl}/chain/getbalance?${query}`, {
			headers: { 'x-api-key': devnet.apiKey },
		});
		return BigInt(((await reply.json()) as { data: { balance: string } }).data.balance);
	};
	const mint = solana.usdc.address;
	const sender = solana.wallets[SOLANA_PAYOUT_WALLET_INDEX].address;
	const [alice, bob, carol] = [2, 3, 4].map((index) => solana.wallets[index].address);
	// The example's rows (examples/solana-payout.devnet.json), in the smallest units.
	const expected = [
		{ owner: alice, mint: '', amount: 1_500_000_000n },
		{ owner: bob, mint: '', amount: 250_000_000n },
		{ owner: alice, mint, amount: 125_500_000n },
		{ owner: carol, mint, amount: 42_125_000n },
	];
	const holdings = () =>
		Promise.all([
			...expected.map((entry) => balance(entry.owner, entry.mint)),
			balance(sender),
			balance(sender, mint),
		]);
	const before = await holdings();
	const result = await executeWorkflow(n8n, EXAMPLE_IDS.solanaPayoutDevnet);
	equal(runError(result), undefined, 'run error');
	const after = await holdings();
	// Alice's SOL and USDC are separate balances; each row is checked on its own asset.
	expected.forEach((entry, index) =>
		equal(
			String(after[index] - before[index]),
			String(entry.amount),
			`${entry.owner} ${entry.mint ? 'USDC' : 'SOL'} received`,
		),
	);
	const runData = result.data.resultData.runData as Record<
		string,
		Array<{ data: { main: Array<Array<{ json: Record<string, string | boolean> }>> } }>
	>;
	const signed = ['Sign SOL', 'Sign USDC'].flatMap((name) =>
		runData[name][0].data.main[0].map((item) => item.json),
	);
	const costs = signed.reduce(
		(total, item) =>
			total + BigInt(item.feeLamports as string) + BigInt(item.rentLamports as string),
		0n,
	);
	equal(
		signed.filter((item) => item.recipientTokenAccountCreated === true).length,
		1,
		"Carol's USDC account created (her first USDC)",
	);
	equal(
		String(before[4] - after[4]),
		String(1_750_000_000n + costs),
		'sender SOL: the payouts, the fees and the rent of the new account',
	);
	equal(String(before[5] - after[5]), '167625000', 'sender USDC');

	const rerun = await executeWorkflow(n8n, EXAMPLE_IDS.solanaPayoutDevnet);
	equal(runError(rerun), undefined, 'rerun error');
	const repeats = ['Sign SOL', 'Sign USDC'].flatMap((name) =>
		(rerun.data.resultData.runData as typeof runData)[name][0].data.main[0].map(
			(item) => item.json,
		),
	);
	equal(
		repeats.map((item) => [item.payoutId, item.repeat, item.alreadySent]),
		signed.map((item) => [item.payoutId, true, true]),
		'every payout of the rerun is a landed repeat',
	);
	equal(
		(rerun.data.resultData.runData as typeof runData).Send,
		undefined,
		'nothing sent by the rerun',
	);
	equal((await holdings()).map(String), after.map(String), 'balances unchanged by the rerun');
}
