/** Starting, controlling and stopping the devnet: fixed addresses, chain control, clean shutdown, the CLI. */
import { ChildProcess, execFileSync, spawn } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { type AddressInfo, Server } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';

import { type Devnet, startDevnet } from '../../devnet';
import { call, query } from './client';

const ROOT = join(__dirname, '..', '..');

/** The fixture table of devnet/README.md: the same on both chains and on every start. */
const FIXTURES = {
	USDC: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
	DAI: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
	LINK: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
	WETH: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
	factory: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
	router: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
	'WETH/USDC': '0xfC060C5b8A8C0e1bb6F15434288578883cAaa866',
	'DAI/USDC': '0xd5AB01462Da740594Beaf3AF32C12730d6D2DC38',
	'LINK/USDC': '0x02591B411e43CddBF3F1c5A56B26Dd0369111aD5',
	nft: '0x4A679253410272dd5232B3Ff7cF5dbB88f295319',
};

const reachable = (url: string) =>
	fetch(url, { method: 'POST', body: '{}' }).then(
		() => true,
		() => false,
	);

describe('one devnet', () => {
	let devnet: Devnet;
	beforeAll(async () => {
		devnet = await startDevnet();
	});
	afterAll(async () => {
		await devnet.stop();
	});

	test('both chains carry the fixtures at the documented addresses, with the documented IDs', () => {
		expect(devnet.chains.map((chain) => chain.chainId)).toEqual(['31337', '31338']);
		for (const chain of devnet.chains) {
			const { tokens, uniswapV2, nft } = chain;
			expect({
				USDC: tokens.USDC.address,
				DAI: tokens.DAI.address,
				LINK: tokens.LINK.address,
				WETH: tokens.WETH.address,
				factory: uniswapV2.factory,
				router: uniswapV2.router,
				...uniswapV2.pairs,
				nft: nft.address,
			}).toEqual(FIXTURES);
			expect(chain.weth).toBe(FIXTURES.WETH);
			expect(tokens.USDC.decimals).toBe(6);
			expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(chain.wallets[0].address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
		}
		expect(devnet).toMatchObject({
			apiKey: 'devnet-key-0000',
			dexId: '1000',
			dexIds: { '31337': '1000', '31338': '1001' },
		});
	});

	test('mine, onBlock, snapshot and revert act on one chain only', async () => {
		const seen: Array<[string, number]> = [];
		const unsubscribe = devnet.onBlock((chainId, blockNumber) => seen.push([chainId, blockNumber]));
		const head = async (chainId: string) =>
			Number(BigInt(await devnet.rpc<string>(chainId, 'eth_blockNumber')));
		const [startA, startB] = [await head('31337'), await head('31338')];
		const snapshot = await devnet.snapshot('31337');
		await devnet.mine('31337', 3);
		expect(await head('31337')).toBe(startA + 3);
		expect(await head('31338')).toBe(startB);
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(seen).toEqual([1, 2, 3].map((offset) => ['31337', startA + offset]));
		await devnet.revert('31337', snapshot);
		expect(await head('31337')).toBe(startA);
		unsubscribe();
		await devnet.mine('31337');
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(seen).toHaveLength(3);
	});

	test('the chain JSON-RPC served at rpcUrl is the chain the gateway reads', async () => {
		const address = devnet.chains[1].wallets[3].address;
		const rpc = await fetch(devnet.chains[1].rpcUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				jsonrpc: '2.0',
				id: 1,
				method: 'eth_getBalance',
				params: [address, 'latest'],
			}),
		});
		const gateway = await call(
			query(devnet.baseUrl, '/chain/getbalance', { chainId: '31338', address }),
			devnet.apiKey,
		);
		expect(BigInt(((await rpc.json()) as { result: string }).result).toString()).toBe(
			gateway.body.data.balance,
		);
	});
});

/** Node's own list of this process's open handles: the same on every platform, unlike counting processes with ps. */
const openHandles = () =>
	(process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
const childProcesses = () => openHandles().filter((handle) => handle instanceof ChildProcess);
const listeningPorts = () =>
	openHandles()
		.filter((handle): handle is Server => handle instanceof Server && handle.listening)
		.map((server) => (server.address() as AddressInfo).port);

test('blockTime mines on its own; stop() closes every listener and leaves no child process', async () => {
	const childrenBefore = childProcesses();
	const devnet = await startDevnet({ blockTime: 100 });
	const urls = [
		devnet.baseUrl,
		devnet.historicalUrl,
		...devnet.chains.map((chain) => chain.rpcUrl),
	];
	const head = async () => Number(BigInt(await devnet.rpc<string>('31338', 'eth_blockNumber')));
	const before = await head();
	await new Promise((resolve) => setTimeout(resolve, 450));
	expect(await head()).toBeGreaterThanOrEqual(before + 3);
	expect(await Promise.all(urls.map(reachable))).toEqual(urls.map(() => true));
	// The handle list shows the devnet's listeners: base, historical, one JSON-RPC server per chain and the stream.
	const ports = [...urls, devnet.streamUrl].map((url) => Number(new URL(url).port));
	expect(listeningPorts()).toEqual(expect.arrayContaining(ports));
	await devnet.stop();
	expect(await Promise.all(urls.map(reachable))).toEqual(urls.map(() => false));
	expect(listeningPorts().filter((port) => ports.includes(port))).toEqual([]);
	expect(childProcesses().filter((child) => !childrenBefore.includes(child))).toEqual([]);
});

test('the committed contract artifact is what solc makes of the sources', () => {
	// In a child process: solc installs a process-wide unhandledRejection handler that would outlive this test.
	const fresh = execFileSync(
		process.execPath,
		[
			'--import',
			'tsx',
			'-e',
			"process.stdout.write(JSON.stringify(require('./devnet/contracts/solc').compileSources()))",
		],
		{
			cwd: ROOT,
		},
	).toString();
	expect(JSON.parse(fresh)).toEqual(
		JSON.parse(readFileSync(join(ROOT, 'devnet', 'contracts', 'artifacts.json'), 'utf8')),
	);
});

describe('npm run devnet (devnet/cli.ts)', () => {
	let child: ChildProcess | undefined;
	let folder: string | undefined;
	afterEach(() => {
		if (child && child.exitCode === null) child.kill('SIGKILL');
		if (folder) rmSync(folder, { recursive: true, force: true });
	});

	test('takes keys and limits from a config file, prints what it serves and stops cleanly on Ctrl-C', async () => {
		folder = mkdtempSync(join(tmpdir(), 'devnet-cli-'));
		const config = join(folder, 'devnet.json');
		writeFileSync(config, JSON.stringify({ apiKeys: ['cfg-key'], rateLimitPerSecond: 2 }));
		child = spawn(
			process.execPath,
			[
				'--import',
				'tsx',
				'devnet/cli.ts',
				'--config',
				config,
				'--port',
				'0',
				'--historical-port',
				'0',
				'--stream-port',
				'0',
			],
			{ cwd: ROOT },
		);
		let output = '';
		child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const deadline = Date.now() + 30_000;
		while (!output.includes('Ctrl-C stops') && Date.now() < deadline && child.exitCode === null)
			await new Promise((resolve) => setTimeout(resolve, 100));
		for (const text of [
			'Base URL:',
			'Historical URL:',
			'API key:        cfg-key',
			'Chain IDs:      31337, 31338',
			FIXTURES.USDC,
			FIXTURES.router,
			'0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
		]) {
			expect(output).toContain(text);
		}
		const baseUrl = /Base URL:\s+(\S+)/.exec(output)?.[1] as string;
		const gasPrice = (key: string) =>
			call(query(baseUrl, '/chain/getgasprice', { chainId: '31337' }), key);
		expect((await gasPrice('devnet-key-0000')).status).toBe(403);
		expect(
			(await Promise.all([1, 2, 3].map(() => gasPrice('cfg-key'))))
				.map((reply) => reply.status)
				.sort(),
		).toEqual([200, 200, 429]);
		const exited = new Promise<number | null>((resolve) =>
			child?.on('exit', (code) => resolve(code)),
		);
		child.kill('SIGINT');
		expect(await exited).toBe(0);
		expect(await reachable(baseUrl)).toBe(false);
	});
});
