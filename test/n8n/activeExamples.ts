/** The examples that run while active in the started n8n: the price alert and the large-transfer watch. */
import { EXAMPLE_IDS } from '../../playground/playground';
import { pause, until } from '../../playground/wait';
import { dexQuote } from '../helpers/chainReads';
import { assert, equal, jsonLines } from '../helpers/checks';
import type { Session } from './session';

/** On Node 20 (the oldest n8n's), which has no built-in WebSocket, Ticker Price refuses to activate and names the requirement. */
export async function priceAlertRefused({ rest }: Session): Promise<void> {
	const error = await rest().activationError(EXAMPLE_IDS.priceAlertDevnet);
	assert(
		error?.includes('Ticker Price needs the WebSocket client built into Node.js 22 and later'),
		`the activation error names the requirement: ${error}`,
	);
}

/** Mined blocks start executions with the DEX price of WETH. */
export async function priceAlert({ devnet, out, rest }: Session): Promise<void> {
	const chainA = devnet.chains[0];
	const head = Number(BigInt(await devnet.rpc<string>(chainA.chainId, 'eth_blockNumber')));
	await devnet.mine(chainA.chainId, 1);
	await pause(300);
	await devnet.mine(chainA.chainId, 1);
	const alerts = await until('two alerts after the mined blocks', () => {
		const lines = jsonLines<{ symbol: string; price: string; blockNumber: number }>(
			out('price-alerts.jsonl'),
		).filter((line) => line.blockNumber > head);
		return lines.length >= 2 && lines;
	});
	assert(
		alerts.every((alert) => alert.symbol === 'WETH'),
		'only WETH passes the IF (LINK is below 1,000)',
	);
	equal(Number(alerts[0].price), await dexQuote(devnet, chainA.chainId, chainA.weth, 18), 'price');
	const executions = await rest().executions(EXAMPLE_IDS.priceAlertDevnet);
	assert(
		executions.results.some(
			(execution) => execution.mode === 'trigger' && execution.status === 'success',
		),
		'successful trigger executions in n8n',
	);
}

/** Exactly the large transfers of watched wallets reach the file. */
export async function largeTransferWatch({ devnet, out }: Session): Promise<void> {
	const chainA = devnet.chains[0];
	const sendNative = async (from: string, to: string, ether: bigint) =>
		devnet.rpc<string>(chainA.chainId, 'eth_sendTransaction', [
			{ from, to, value: `0x${(ether * 10n ** 18n).toString(16)}` },
		]);
	const watched = () => jsonLines<{ hash: string; value: string }>(out('large-transfers.jsonl'));
	const large = await sendNative(chainA.wallets[1].address, chainA.wallets[8].address, 2n);
	const small = await devnet.rpc<string>(chainA.chainId, 'eth_sendTransaction', [
		{ from: chainA.wallets[2].address, to: chainA.wallets[8].address, value: '0x6f05b59d3b20000' },
	]);
	const unwatched = await sendNative(chainA.wallets[7].address, chainA.wallets[8].address, 3n);
	const incoming = await sendNative(chainA.wallets[8].address, chainA.wallets[3].address, 5n);
	await devnet.mine(chainA.chainId, 1);
	await until('both large transfers in the file', () => watched().length >= 2);
	await pause(2000);
	equal(
		watched().map((line) => line.hash),
		[large, incoming],
		'transfers written (not the 0.5 ETH one, not the unwatched wallets)',
	);
	equal(
		watched().map((line) => line.value),
		['2000000000000000000', '5000000000000000000'],
		'values',
	);
	assert(
		![small, unwatched].some((hash) => watched().some((line) => line.hash === hash)),
		'filtered transfers absent',
	);
}
