/**
 * Nonce safety across executions and processes, on the devnet: executions paying from one wallet
 * on one chain at the same time — two in this process and one in another OS process
 * (test/helpers/signerProcess.ts) sharing the credential's ledger — never sign one nonce: one signs,
 * the others are refused before signing, naming the item, wallet, chain and nonce; run again, they
 * take the next nonce. Nothing is replaced: every signed transaction is mined with its own nonce.
 * One payout ID signed in two processes at once is signed once (the ledger entry is created exclusively). A claim older than the lease whose
 * transaction never reached the chain is taken over; a claim whose transaction was sent is passed.
 * Each in the folder and in the PostgreSQL ledger store (the processes then share no folder at all).
 */
import { mkdtempSync } from 'fs';
import { type IncomingMessage, type Server, createServer } from 'http';
import type { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../../devnet';
import { ITEMS, SIGNER, runPipeline } from '../../helpers/n8n';
import { LEDGER_STORES, ledgerStores, type TestLedger } from '../../helpers/ledgerStores';
import { devnetAccount, devnetCredentials, devnetSignerKey } from '../../helpers/devnetCredentials';
import { startSignerProcess } from '../../helpers/startSignerProcess';
import { devnetPerStore } from '../../helpers/devnetPerStore';

const CHAIN = '31337';
const root = mkdtempSync(join(tmpdir(), 'expand-nonces-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows; the child process gets the same.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = root;
const stores = ledgerStores(root);
let ledger: TestLedger;

const addressOf = (account: number) => devnetAccount(account).address;
const recipient = (index: number) => `0x${(0xa11c0 + index).toString(16).padStart(40, '0')}`;

let devnet: Devnet;
const proxies: Server[] = [];
afterAll(() => {
	for (const server of proxies) server.close();
});

interface Run {
	items: IDataObject[];
	parameters: INodeParameters;
	credentials: Record<string, IDataObject>;
}

function runOf(
	account: number,
	items: IDataObject[],
	options: { credential?: IDataObject; baseUrl?: string } = {},
): Run {
	return {
		items: items.map((item) => ({ chainId: CHAIN, ...item })),
		parameters: {
			operation: 'signTransaction',
			source: 'input',
			accountIndex: account,
			payoutId: '={{ $json.payoutId ?? "" }}',
		},
		credentials: devnetCredentials(devnet, {
			expand: { baseUrl: options.baseUrl ?? devnet.baseUrl },
			signer: devnetSignerKey({ ...ledger.fields, ...options.credential }),
		}),
	};
}

async function signHere(run: Run): Promise<IDataObject[]> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(run.items) } },
			{ name: 'Sign', type: SIGNER, parameters: run.parameters, continueOnFail: true },
		],
		run.credentials as never,
	);
	expect(result.error).toBeUndefined();
	return result.output('Sign').map((item) => item.json);
}

const signerProcess = (run: Run) => startSignerProcess(run, 60_000);

const send = (raw: unknown) => devnet.rpc<string>(CHAIN, 'eth_sendRawTransaction', [raw]);
const chainNonce = async (address: string) =>
	Number(BigInt(await devnet.rpc<string>(CHAIN, 'eth_getTransactionCount', [address, 'latest'])));
const balance = async (address: string) =>
	BigInt(await devnet.rpc<string>(CHAIN, 'eth_getBalance', [address, 'latest']));

/** Sent and mined, as signed: the receipt's transaction is this hash, from this account, with this nonce. */
async function expectMined(item: IDataObject) {
	await send(item.rawTransaction);
	const receipt = await devnet.rpc<{ status: string } | null>(CHAIN, 'eth_getTransactionReceipt', [
		item.transactionHash,
	]);
	expect(receipt?.status).toBe('0x1');
	const mined = await devnet.rpc<{ nonce: string; from: string }>(
		CHAIN,
		'eth_getTransactionByHash',
		[item.transactionHash],
	);
	expect([Number(BigInt(mined.nonce)), mined.from.toLowerCase()]).toEqual([
		item.nonce,
		String(item.from).toLowerCase(),
	]);
}

const heldMessage = (nonce: number, address: string) =>
	new RegExp(
		`^Refused by the rule "nonceClaim": nonce ${nonce} of ${address} on chain ${CHAIN} is held by another execution \\(execution test-execution-\\d+ of workflow test-workflow, since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\) whose transaction is not on the chain yet; run again once it is sent, or after the nonce lease of 300 s if it never is; nothing was signed \\(item 0\\)$`,
	);

describe.each(LEDGER_STORES)('%s ledger', (kind) => {
	// A devnet of its own per store: the same accounts start from the same nonces in each.
	devnetPerStore(stores, kind, (started, created) => ([devnet, ledger] = [started, created]));

	test('three executions at once, one in another OS process, same wallet and chain: one signs, two are refused before signing; run again, each lands with its own nonce', async () => {
		const account = 11;
		const address = addressOf(account);
		const start = await chainNonce(address);
		const payments = [0, 1, 2].map((index) => ({
			to: recipient(index),
			value: String(1000 + index),
		}));
		// All three have read the same pending nonce before any of them claims it.
		const lineUp = barrier(3);
		const baseUrl = await rpcProxy((method) =>
			method === 'eth_getTransactionCount' ? lineUp() : undefined,
		);
		const other = await signerProcess(runOf(account, [payments[0]], { baseUrl }));
		const outcomes = await Promise.all([
			other.go(),
			signHere(runOf(account, [payments[1]], { baseUrl })),
			signHere(runOf(account, [payments[2]], { baseUrl })),
		]);
		const items = outcomes.map(([item]) => item);
		const signed = items.filter((item) => !item.error);
		expect(signed).toHaveLength(1);
		expect(signed[0].nonce).toBe(start);
		for (const item of items.filter((entry) => entry.error)) {
			expect(item.error).toMatch(heldMessage(start, address));
			expect(item.rawTransaction).toBeUndefined();
		}

		// The signed one is sent; the refused ones run again, one after another, each after the previous was sent.
		await expectMined(signed[0]);
		const landed = [signed[0]];
		for (const index of items
			.map((item, position) => (item.error ? position : -1))
			.filter((position) => position >= 0)) {
			const [again] = await signHere(runOf(account, [payments[index]]));
			expect(again.error).toBeUndefined();
			await expectMined(again);
			landed.push(again);
		}
		expect(landed.map((item) => item.nonce)).toEqual([start, start + 1, start + 2]);
		expect(await chainNonce(address)).toBe(start + 3);
		for (const [index, payment] of payments.entries())
			expect(await balance(payment.to)).toBe(BigInt(1000 + index));
	}, 120_000);

	test('one payout ID signed in two OS processes at once is signed once: the ledger entry is created exclusively, the other execution gets the same transaction back', async () => {
		const account = 12;
		// An explicit nonce is not claimed, so both executions get as far as signing: the ledger alone decides.
		const payout = {
			payoutId: 'cross-process-1',
			to: recipient(10),
			value: '777',
			nonce: String(await chainNonce(addressOf(account))),
		};
		// Both have found no ledger entry and are signing (the gas estimate) before either records one.
		const lineUp = barrier(2);
		const baseUrl = await rpcProxy((method) =>
			method === 'eth_estimateGas' ? lineUp() : undefined,
		);
		const other = await signerProcess(runOf(account, [payout], { baseUrl }));
		const [[there], [here]] = await Promise.all([
			other.go(),
			signHere(runOf(account, [payout], { baseUrl })),
		]);
		expect([there.error, here.error]).toEqual([undefined, undefined]);
		expect([there.repeat, here.repeat].sort()).toEqual([false, true]);
		expect(here.transactionHash).toBe(there.transactionHash);
		expect(
			(await ledger.names()).filter((name) =>
				name.startsWith(`expand-payout-${CHAIN}-${addressOf(account).toLowerCase()}-`),
			),
		).toHaveLength(1);
		await expectMined(here);
		// Run again: a repeat, already sent; the recipient is paid once.
		const [again] = await signHere(runOf(account, [payout]));
		expect([again.repeat, again.alreadySent, again.transactionHash]).toEqual([
			true,
			true,
			here.transactionHash,
		]);
		expect(await balance(payout.to)).toBe(777n);
	}, 120_000);

	test('a claim older than the lease whose transaction never reached the chain is taken over; the abandoned transaction can no longer land', async () => {
		const account = 13;
		const address = addressOf(account);
		const start = await chainNonce(address);
		const lease = { credential: { nonceLeaseSeconds: 1 } };
		const [abandoned] = await signHere(runOf(account, [{ to: recipient(20), value: '5' }], lease));
		expect(abandoned.nonce).toBe(start);
		const [early] = await signHere(runOf(account, [{ to: recipient(21), value: '6' }], lease));
		expect(early.error).toMatch(
			new RegExp(
				`^Refused by the rule "nonceClaim": nonce ${start} of ${address} on chain ${CHAIN} is held by another execution .*after the nonce lease of 1 s if it never is; nothing was signed \\(item 0\\)$`,
			),
		);

		await new Promise((resolve) => setTimeout(resolve, 1200));
		const [late] = await signHere(runOf(account, [{ to: recipient(21), value: '6' }], lease));
		expect([late.error, late.nonce]).toEqual([undefined, start]);
		expect(
			await ledger.read(`expand-nonce-${CHAIN}-${address.toLowerCase()}-${start}.1.json`),
		).toBeDefined();
		await expectMined(late);
		await expect(send(abandoned.rawTransaction)).rejects.toThrow(/nonce/i);
		expect([await balance(recipient(20)), await balance(recipient(21))]).toEqual([0n, 6n]);
	}, 60_000);

	/**
	 * The API's getpublicrpc points at this proxy in front of the devnet chain. `gate(method)` may hold
	 * an answer (already read from the chain) back, as a slow RPC node would: so executions can be
	 * lined up at one step of signing, in this process and in the other.
	 */
	async function rpcProxy(gate: (method: string) => Promise<void> | undefined) {
		const rpcUrl = devnet.chains.find((chain) => String(chain.chainId) === CHAIN)?.rpcUrl as string;
		const body = (request: IncomingMessage) =>
			new Promise<string>((resolve) => {
				let text = '';
				request.on('data', (chunk: Buffer) => (text += chunk.toString()));
				request.on('end', () => resolve(text));
			});
		const server: Server = createServer((request, response) => {
			void (async () => {
				response.setHeader('content-type', 'application/json');
				if (request.url?.startsWith('/chain/getpublicrpc')) {
					response.end(
						JSON.stringify({ status: 200, msg: 'success', data: { rpc: `${baseUrl}/rpc` } }),
					);
					return;
				}
				const text = await body(request);
				const answer = await (
					await fetch(rpcUrl, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: text,
					})
				).text();
				await gate((JSON.parse(text) as { method: string }).method);
				response.end(answer);
			})();
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		proxies.push(server);
		return baseUrl;
	}

	/** Resolves for everyone once `count` have arrived. */
	function barrier(count: number): () => Promise<void> {
		let arrived = 0;
		let open!: () => void;
		const opened = new Promise<void>((resolve) => (open = resolve));
		return () => {
			if (++arrived >= count) open();
			return opened;
		};
	}

	test('a claim whose transaction was sent is passed: the execution takes the chain pending nonce above it', async () => {
		const account = 14;
		const address = addressOf(account);
		const start = await chainNonce(address);
		let release!: () => void;
		const released = new Promise<void>((resolve) => (release = resolve));
		let read!: () => void;
		const firstRead = new Promise<void>((resolve) => (read = resolve));
		let held = false;
		const baseUrl = await rpcProxy((method) => {
			if (method !== 'eth_getTransactionCount' || held) return undefined;
			held = true;
			read();
			return released;
		});
		// B reads the pending nonce (start) and is held there...
		const slow = signHere(runOf(account, [{ to: recipient(30), value: '8' }], { baseUrl }));
		await firstRead;
		// ...while A claims that nonce, signs and sends it.
		const [first] = await signHere(runOf(account, [{ to: recipient(31), value: '9' }]));
		expect(first.nonce).toBe(start);
		await expectMined(first);
		release();
		const [passed] = await slow;
		expect([passed.error, passed.nonce]).toEqual([undefined, start + 1]);
		await expectMined(passed);
		expect([await balance(recipient(30)), await balance(recipient(31))]).toEqual([8n, 9n]);
	}, 60_000);
});
