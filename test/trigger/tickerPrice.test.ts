/** Expand Trigger, Ticker Price, against the devnet's stream: prices after swaps, reconnect, close. */
import { Contract, Wallet, JsonRpcProvider, parseUnits } from 'ethers';
import type { AddressInfo } from 'net';
import type { IDataObject } from 'n8n-workflow';
import { WebSocketServer } from 'ws';

import type { Devnet } from '../../devnet';
import { uniswapArtifact } from '../../devnet/compile';
import { subscriptions } from '../../nodes/ExpandTrigger/events/tickerPrice/connection';
import { activateTrigger, waitFor, type ActiveTrigger } from '../helpers/n8n';
import { devnetCredentials } from '../helpers/devnetCredentials';
import { useDevnet } from '../helpers/useDevnet';

let devnet: Devnet;

useDevnet((started) => (devnet = started));

function credentials() {
	return devnetCredentials(devnet, { expand: { streamUrl: devnet.streamUrl } });
}

const prices = (trigger: ActiveTrigger, symbol: string) =>
	trigger.emitted
		.flat()
		.map((item) => item.json as IDataObject)
		.filter((message) => message.symbol === symbol)
		.map((message) => message.price as string);

/** Buys USDC with native ETH through the Uniswap V2 fixture: WETH's price in USDC falls. */
async function swapEthForUsdc(eth: string): Promise<void> {
	const chain = devnet.chains[0];
	const provider = new JsonRpcProvider(chain.rpcUrl, Number(chain.chainId), {
		staticNetwork: true,
	});
	const trader = new Wallet(chain.wallets[6].privateKey, provider);
	const router = new Contract(
		chain.uniswapV2.router,
		uniswapArtifact('UniswapV2Router02').abi as never,
		trader,
	);
	const tx = await router.swapExactETHForTokens(
		0,
		[chain.weth, chain.tokens.USDC.address],
		trader.address,
		2n ** 40n,
		{ value: parseUnits(eth, 18) },
	);
	await tx.wait();
	provider.destroy();
}

test('prices arrive at subscription and again after a price-moving swap', async () => {
	const trigger = await activateTrigger(
		{ event: 'tickerPrice', symbols: 'weth, link' },
		credentials(),
	);
	await waitFor(() => prices(trigger, 'WETH').length >= 1 && prices(trigger, 'LINK').length >= 1);
	expect(prices(trigger, 'DAI')).toEqual([]);
	const first = prices(trigger, 'WETH')[0];
	await swapEthForUsdc('5');
	await waitFor(() => new Set(prices(trigger, 'WETH')).size >= 2);
	const latest = prices(trigger, 'WETH').at(-1) as string;
	expect(Number(latest)).toBeLessThan(Number(first));
	const message = trigger.emitted.flat()[0].json;
	expect(Object.keys(message).sort()).toEqual(['blockNumber', 'price', 'symbol', 'timestamp']);
	await trigger.close();
});

test('a minimum change filters small moves', async () => {
	const trigger = await activateTrigger(
		{ event: 'tickerPrice', symbols: 'WETH', options: { minChangePercent: '5' } },
		credentials(),
	);
	await waitFor(() => prices(trigger, 'WETH').length === 1);
	await swapEthForUsdc('0.01'); // moves WETH by far less than 5 %
	await devnet.mine('31337', 2);
	await new Promise((resolve) => setTimeout(resolve, 500));
	expect(prices(trigger, 'WETH')).toHaveLength(1);
	await swapEthForUsdc('20'); // about 30 % of the pool's WETH: well over 5 %
	await waitFor(() => prices(trigger, 'WETH').length === 2);
	await trigger.close();
});

test('the trigger reconnects after the stream server dies and comes back; close releases the socket', async () => {
	const trigger = await activateTrigger({ event: 'tickerPrice', symbols: 'LINK' }, credentials());
	await waitFor(() => prices(trigger, 'LINK').length >= 1);
	expect(devnet.stream.connections).toBe(1);
	await devnet.stream.stop();
	await new Promise((resolve) => setTimeout(resolve, 300));
	await devnet.stream.start();
	// The resubscription sends the current price at once.
	await waitFor(() => prices(trigger, 'LINK').length >= 2, 15000);
	expect(devnet.stream.connections).toBe(1);
	expect(trigger.errors).toEqual([]);
	await trigger.close();
	await waitFor(() => devnet.stream.connections === 0);
});

test('Fetch test event returns one real price quickly and leaves nothing open', async () => {
	const trigger = await activateTrigger(
		{ event: 'tickerPrice', symbols: 'DAI' },
		credentials(),
		'manual',
	);
	const started = Date.now();
	await trigger.manual();
	expect(Date.now() - started).toBeLessThan(3000);
	expect(trigger.emitted.flat().map((item) => item.json.symbol)).toEqual(['DAI']);
	await waitFor(() => devnet.stream.connections === 0);
});

test('stream messages are metered as WebSocket message units, one per message sent', async () => {
	const units = async () => {
		const response = await fetch(`${devnet.baseUrl}/key/usage-details/${devnet.apiKey}`, {
			headers: { 'x-api-key': devnet.apiKey },
		});
		return ((await response.json()) as { overAllWebSocketMessageUnits: number })
			.overAllWebSocketMessageUnits;
	};
	const before = await units();
	const trigger = await activateTrigger({ event: 'tickerPrice', symbols: 'LINK' }, credentials());
	await waitFor(() => prices(trigger, 'LINK').length >= 1);
	await devnet.mine('31337', 2);
	await waitFor(() => prices(trigger, 'LINK').length >= 3);
	await trigger.close();
	await waitFor(() => devnet.stream.connections === 0);
	// One symbol is filtered by the server: every message it sent is one this client received.
	expect((await units()) - before).toBe(trigger.emitted.length);
	expect(trigger.emitted.length).toBe(3);
});

test('when the stream stays down, the trigger reports an error to n8n', async () => {
	const trigger = await activateTrigger(
		{ event: 'tickerPrice', symbols: 'LINK', options: { reconnectAttempts: 2 } },
		credentials(),
	);
	await waitFor(() => prices(trigger, 'LINK').length >= 1);
	await devnet.stream.stop();
	await waitFor(() => trigger.errors.length === 1, 15000);
	expect(trigger.errors[0].message).toBe(
		`The ticker stream at ${devnet.streamUrl} could not be reached after 3 attempts`,
	);
	await trigger.close();
	await devnet.stream.start();
});

test('subscriptions: one symbol is asked of the server, several or none subscribe to every token', () => {
	expect(subscriptions(['LINK'])).toEqual([{ action: 'streamTickerPrice', symbol: 'LINK' }]);
	expect(subscriptions(['LINK', 'WETH'])).toEqual([{ action: 'streamTickerPrice' }]);
	expect(subscriptions([])).toEqual([{ action: 'streamTickerPrice' }]);
});

test('a test run cancelled before a price arrives closes the socket and ends', async () => {
	const trigger = await activateTrigger(
		{ event: 'tickerPrice', symbols: 'NOPE' },
		credentials(),
		'manual',
	);
	let ended = false;
	const run = trigger.manual().then(() => {
		ended = true;
	});
	await waitFor(() => devnet.stream.connections === 1);
	await trigger.close();
	await run;
	expect(ended).toBe(true);
	expect(trigger.emitted).toEqual([]);
	await waitFor(() => devnet.stream.connections === 0);
});

test('a test run against a stream that is down fails quickly', async () => {
	await devnet.stream.stop();
	try {
		const trigger = await activateTrigger({ event: 'tickerPrice' }, credentials(), 'manual');
		const started = Date.now();
		await expect(trigger.manual()).rejects.toThrow(/could not be reached after 2 attempts/);
		expect(Date.now() - started).toBeLessThan(3000);
		await trigger.close();
	} finally {
		await devnet.stream.start();
	}
});

test('a server that accepts and hangs up at once counts as failed attempts, with backoff, then an error', async () => {
	const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
	await new Promise((resolve) => server.once('listening', resolve));
	let accepted = 0;
	server.on('connection', (socket) => {
		accepted++;
		socket.close();
	});
	try {
		const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
		const trigger = await activateTrigger(
			{ event: 'tickerPrice', options: { reconnectAttempts: 2 } },
			{ expandApi: { ...credentials().expandApi, streamUrl: url } },
		);
		await waitFor(() => trigger.errors.length === 1, 10000);
		expect(accepted).toBe(3);
		expect(trigger.errors[0].message).toBe(
			`The ticker stream at ${url} could not be reached after 3 attempts`,
		);
		await trigger.close();
	} finally {
		await new Promise((resolve) => server.close(resolve));
	}
});
