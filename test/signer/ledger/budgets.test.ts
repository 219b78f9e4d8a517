/**
 * Budgets over time, through n8n-core's engine on the devnet, for EVM (31337) and Solana (901): Max
 * Per Execution counts every Signer node of an execution and holds where the execution resumes (a new
 * OS process reusing its ID), Max Per Day holds over executions and over OS processes racing on one
 * payout ledger (the folder, and PostgreSQL), and a UTC day boundary resets the daily budget while the rolling 30-day one
 * holds. With a folder the day is the signing host's (a test moves it with budgetClock); with PostgreSQL it
 * is the database server's, and the same tests show a moved host clock changes nothing. Each overspend is first carried out on the chain without the rule (the recipient's balance
 * gets more than the limit), then the Signer refuses, naming the period, what was spent and what is
 * left. Every signed transaction is sent, so balances show what left the wallet.
 */
import { mkdtempSync } from 'fs';
import { type IncomingMessage, type Server, createServer } from 'http';
import type { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';

import { address, generateKeyPairSigner } from '@solana/kit';
import { Wallet } from 'ethers';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../../devnet';
import { budgetClock } from '../../../packages/signer/nodes/ExpandSigner/ledger/clock';
import { expandSignerKeyTest, expandSolanaKeyTest } from '../../helpers/signerKeyTests';
import { useLegacyBudgets } from '../../helpers/legacyBudgets';
import {
	LEDGER_STORES,
	ledgerStores,
	type StoreKind,
	type TestLedger,
} from '../../helpers/ledgerStores';
import { ITEMS, SIGNER, runPipeline, type NodeSpec } from '../../helpers/n8n';
import { devnetAccount, devnetExpandApi, devnetSignerKey } from '../../helpers/devnetCredentials';
import { startSignerProcess } from '../../helpers/startSignerProcess';

const root = mkdtempSync(join(tmpdir(), 'expand-budgets-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows; the child processes get the same.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = root;
const newFolder = () => mkdtempSync(join(root, 'ledger-'));
const stores = ledgerStores(root);
/** The stores whose budgets count at each host's own clock (budgetClock): only there does a test move time. */
const HOST_CLOCK_STORES: StoreKind[] = ['folder'];

/** The UTC day the PostgreSQL server's clock is on. */
async function databaseDay(): Promise<string> {
	const [{ day }] = await stores
		.postgres()
		.sql<{ day: string }>(
			"SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day",
		);
	return day;
}

/**
 * Sets this host's clock to `time` and gives the UTC day budgets then count in: the host's with a
 * folder ledger (or none); with PostgreSQL the database server's, whatever the host's clock says.
 */
async function countingDay(kind: string, time: string): Promise<string> {
	budgetClock.now = () => new Date(time);
	if (kind !== 'postgres') return time.slice(0, 10);
	const day = await databaseDay();
	expect(day).not.toBe(time.slice(0, 10));
	return day;
}

let devnet: Devnet;
const proxies: Server[] = [];
const realClock = budgetClock.now;
beforeAll(async () => {
	devnet = await startDevnet();
});
afterEach(() => {
	budgetClock.now = realClock;
});
afterAll(async () => {
	for (const server of proxies) server.close();
	await devnet.stop();
});

/** What differs between the chain families: the key, the pay node, sending and balances. */
interface Family {
	name: string;
	chainId: string;
	keyCredential: string;
	key(): IDataObject;
	/** A Signer node paying the Items node's `amount` (whole units) to its `to`, from this account. */
	pay(name: string, account: number): NodeSpec;
	/** The refusal's words for a payment of that many whole units, up to the rule's own text. */
	payment(amount: string, smallest: string): string;
	send(raw: string): Promise<void>;
	balance(owner: string): Promise<bigint>;
	recipient(): Promise<string>;
	/** Parameters that fix what a signature depends on besides the payment (EVM: the nonce), so two processes sign one payout alike. */
	fixed(account: number): Promise<IDataObject>;
	/** The chain's JSON-RPC URL, and the request each item of a payment makes once, right before its checks. */
	rpcUrl(): string;
	lastRequest: string;
	/** Accounts: for the two-node test, the single executions, the resumed one, the race. */
	accounts: { a: number; b: number; race: number[] };
	keyTest: typeof expandSignerKeyTest;
	/** Smallest units per whole unit. */
	unit: bigint;
}

const item = (field: string) => `={{ $('Items').item.json.${field} }}`;

const evm: Family = {
	name: 'EVM',
	chainId: '31337',
	keyCredential: 'expandSignerApi',
	key: () => devnetSignerKey(),
	pay: (name, account) => ({
		name,
		type: SIGNER,
		continueOnFail: true,
		parameters: {
			operation: 'signTransaction',
			source: 'fields',
			accountIndex: account,
			chainId: '31337',
			to: item('to'),
			amountFormat: 'decimal',
			amount: item('amount'),
			decimals: 18,
		},
	}),
	payment: (amount, smallest) =>
		`value of ${amount} (${smallest} in the smallest unit) of the native asset`,
	send: async (raw) => {
		await devnet.rpc('31337', 'eth_sendRawTransaction', [raw]);
	},
	balance: async (owner) =>
		BigInt(await devnet.rpc<string>('31337', 'eth_getBalance', [owner, 'latest'])),
	recipient: async () => Wallet.createRandom().address,
	fixed: async (account) => ({
		additionalFields: {
			nonce: String(
				BigInt(
					await devnet.rpc<string>('31337', 'eth_getTransactionCount', [
						devnetAccount(account).address,
						'pending',
					]),
				),
			),
		},
	}),
	rpcUrl: () => devnet.chains.find((chain) => String(chain.chainId) === '31337')?.rpcUrl as string,
	lastRequest: 'eth_estimateGas',
	accounts: { a: 15, b: 16, race: [17, 18, 19] },
	keyTest: expandSignerKeyTest,
	unit: 10n ** 18n,
};

const solana: Family = {
	name: 'Solana',
	chainId: '901',
	keyCredential: 'expandSolanaKeyApi',
	key: () => ({ keyType: 'mnemonic', mnemonic: devnet.solana.mnemonic }),
	pay: (name, account) => ({
		name,
		type: SIGNER,
		continueOnFail: true,
		parameters: {
			chainFamily: 'solana',
			operation: 'transferSol',
			solanaChainId: '901',
			accountIndex: account,
			recipient: item('to'),
			amountFormat: 'decimal',
			amount: item('amount'),
		},
	}),
	payment: (amount, smallest) =>
		`System transfer of ${amount} (${smallest} in the smallest unit) of the native asset`,
	send: async (raw) => {
		devnet.solana.chain.sendBase64(raw);
	},
	balance: async (owner) => devnet.solana.chain.balance(address(owner)),
	recipient: async () => (await generateKeyPairSigner()).address,
	fixed: async () => ({}),
	rpcUrl: () => devnet.solana.rpcUrl,
	lastRequest: 'getLatestBlockhash',
	accounts: { a: 0, b: 1, race: [2, 3, 4] },
	keyTest: expandSolanaKeyTest,
	unit: 10n ** 9n,
};

/** Whole units (a decimal string) in the family's smallest unit. */
const units = (family: Family, amount: string) => {
	const [whole, fraction = ''] = amount.split('.');
	const digits = family.unit.toString().length - 1;
	return BigInt(whole) * family.unit + BigInt(fraction.padEnd(digits, '0'));
};

interface Run {
	items: IDataObject[];
	parameters: INodeParameters;
	credentials: Record<string, IDataObject>;
	executionId?: string;
	now?: string;
	legacyBudgets?: boolean;
}

function credentials(family: Family, policy: IDataObject, baseUrl = devnet.baseUrl) {
	return {
		expandApi: devnetExpandApi(devnet, { baseUrl }),
		[family.keyCredential]: { ...family.key(), ...policy },
	};
}

/** Runs Items → the pay nodes as one execution here; the outputs by node name. */
async function pay(
	family: Family,
	nodes: NodeSpec[],
	items: IDataObject[],
	policy: IDataObject,
	executionId?: string,
	baseUrl?: string,
): Promise<Record<string, IDataObject[]>> {
	const result = await runPipeline(
		[{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } }, ...nodes],
		credentials(family, policy, baseUrl) as never,
		executionId,
	);
	expect(result.error).toBeUndefined();
	return Object.fromEntries(
		nodes.map((node) => [node.name, result.output(node.name).map((output) => output.json)]),
	);
}

/** One execution of one Sign node paying the items from `account`. */
async function payOnce(
	family: Family,
	account: number,
	items: IDataObject[],
	policy: IDataObject,
	executionId?: string,
	baseUrl?: string,
	extra: IDataObject = {},
): Promise<IDataObject[]> {
	const node = family.pay('Sign', account);
	const sign = { ...node, parameters: { ...node.parameters, ...extra } as INodeParameters };
	return (await pay(family, [sign], items, policy, executionId, baseUrl)).Sign;
}

const otherProcess = (run: Run) => startSignerProcess(run, 90_000);

function processRun(
	family: Family,
	account: number,
	items: IDataObject[],
	policy: IDataObject,
	executionId?: string,
	baseUrl?: string,
	extra: IDataObject = {},
): Run {
	return {
		items,
		parameters: { ...family.pay('Sign', account).parameters, ...extra } as INodeParameters,
		credentials: credentials(family, policy, baseUrl),
		executionId,
	};
}

/**
 * One API per racing process in front of the devnet chain (its getpublicrpc points at itself): the
 * k-th `family.lastRequest` of each process is answered only once every process has made its k-th,
 * so the processes reach the budget of each item's payment together (after 5 s it is answered anyway).
 */
async function lockstepApis(family: Family, processes: number): Promise<string[]> {
	const rounds = new Map<number, { arrived: number; open: () => void; opened: Promise<void> }>();
	const arrive = (round: number) => {
		let entry = rounds.get(round);
		if (!entry) {
			let open!: () => void;
			const opened = new Promise<void>((resolve) => (open = resolve));
			entry = { arrived: 0, open, opened };
			rounds.set(round, entry);
		}
		if (++entry.arrived >= processes) entry.open();
		return Promise.race([
			entry.opened,
			new Promise((resolve) => setTimeout(resolve, 5000).unref()),
		]);
	};
	const body = (request: IncomingMessage) =>
		new Promise<string>((resolve) => {
			let text = '';
			request.on('data', (chunk: Buffer) => (text += chunk.toString()));
			request.on('end', () => resolve(text));
		});
	return await Promise.all(
		Array.from({ length: processes }, async () => {
			let calls = 0;
			const server: Server = createServer((request, response) => {
				void (async () => {
					response.setHeader('content-type', 'application/json');
					if (request.url?.startsWith('/chain/getpublicrpc')) {
						response.end(
							JSON.stringify({ status: 200, msg: 'success', data: { rpc: `${url}/rpc` } }),
						);
						return;
					}
					const text = await body(request);
					const answer = await (
						await fetch(family.rpcUrl(), {
							method: 'POST',
							headers: { 'content-type': 'application/json' },
							body: text,
						})
					).text();
					if ((JSON.parse(text) as { method?: string }).method === family.lastRequest)
						await arrive(++calls);
					response.end(answer);
				})();
			});
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
			proxies.push(server);
			const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
			return url;
		}),
	);
}

/** Sends every signed item (refused ones carry no transaction); the count sent. */
async function sendSigned(family: Family, items: IDataObject[]): Promise<number> {
	const signed = items.filter((entry) => typeof entry.rawTransaction === 'string');
	for (const entry of signed) await family.send(entry.rawTransaction as string);
	return signed.length;
}

/** What the items' recipients hold together: every payment goes to a new address, so no two transactions are alike. */
async function received(family: Family, items: IDataObject[]): Promise<bigint> {
	let total = 0n;
	for (const to of new Set(items.map((entry) => String(entry.to))))
		total += await family.balance(to);
	return total;
}

/**
 * The spending log entries in the ledger, oldest first: of every log, or of the logs of one kind
 * (`periods`: each credential's days, `periods-by-account`: each signing account's).
 */
async function spendingEntries(
	ledger: TestLedger,
	kind?: string,
): Promise<Array<{ name: string; entry: IDataObject }>> {
	const entries = await Promise.all(
		(await ledger.names())
			.filter((name) => /^expand-spending-\w+-\d+\.json$/.test(name))
			.map(async (name) => ({
				name,
				entry: JSON.parse(String(await ledger.read(name))) as IDataObject,
			})),
	);
	return entries
		.filter(({ entry }) => kind === undefined || (entry.log as string[])[0] === kind)
		.sort((a, b) => Number(a.entry.seq) - Number(b.entry.seq));
}

const outcome = (items: IDataObject[]) =>
	items.map((entry) => (entry.error ? String(entry.error) : 'signed'));

describe.each([evm, solana])('$name', (family) => {
	const amountText = (amount: string) =>
		`${amount} (${units(family, amount)} in the smallest unit)`;

	test('two Signer nodes of one execution together stay within Max Per Execution (in the folder, and in memory without one)', async () => {
		const nodes = [family.pay('Pay A', family.accounts.a), family.pay('Pay B', family.accounts.b)];
		// Without the rule: each node pays 0.6, 1.2 leaves the treasury.
		const unlimited = await family.recipient();
		const free = await pay(family, nodes, [{ to: unlimited, amount: '0.6' }], {});
		expect([...outcome(free['Pay A']), ...outcome(free['Pay B'])]).toEqual(['signed', 'signed']);
		await sendSigned(family, [...free['Pay A'], ...free['Pay B']]);
		expect(await family.balance(unlimited)).toBe(units(family, '1.2'));

		const refusal = `Refused by the rule "maxPerExecution": ${family.payment('0.6', units(family, '0.6').toString())} would bring this execution's total on chain ${family.chainId} to 1.2, above the limit of 1; nothing was signed (item 0)`;
		for (const policy of [
			{ maxPerExecution: 'native = 1', payoutLedgerFolder: newFolder() },
			{ maxPerExecution: 'native = 1' },
		]) {
			const limited = await family.recipient();
			const paid = await pay(family, nodes, [{ to: limited, amount: '0.6' }], policy);
			expect(outcome(paid['Pay A'])).toEqual(['signed']);
			expect(outcome(paid['Pay B'])).toEqual([refusal]);
			await sendSigned(family, [...paid['Pay A'], ...paid['Pay B']]);
			expect(await family.balance(limited)).toBe(units(family, '0.6'));
		}
	}, 60_000);

	test('five executions stay within Max Per Day, each within Max Per Execution; the refusal names the day, what was spent and what is left', async () => {
		budgetClock.now = () => new Date('2026-03-10T12:00:00Z');
		const executions = async (policy: IDataObject) => {
			const payments: IDataObject[] = [];
			const outcomes: string[] = [];
			for (let run = 0; run < 5; run++) {
				const payment = { to: await family.recipient(), amount: '0.3' };
				payments.push(payment);
				const items = await payOnce(family, family.accounts.a, [payment], policy);
				await sendSigned(family, items);
				outcomes.push(...outcome(items));
			}
			return { payments, outcomes };
		};
		const perExecution = { maxPerExecution: 'native = 0.5', payoutLedgerFolder: newFolder() };
		// Without a daily budget: five executions of 0.3 each, 1.5 leaves.
		const free = await executions(perExecution);
		expect(free.outcomes).toEqual(Array(5).fill('signed'));
		expect(await received(family, free.payments)).toBe(units(family, '1.5'));

		// A ledger of its own: in the first one the account's day already holds the 1.5 signed without a daily budget.
		const limited = await executions({
			...perExecution,
			payoutLedgerFolder: newFolder(),
			maxPerDay: 'native = 1',
		});
		const refusal = (spent: string, left: string) =>
			`Refused by the rule "maxPerDay": ${family.payment('0.3', units(family, '0.3').toString())} is more than what is left of the limit of ${amountText('1')} per UTC day on chain ${family.chainId}: ${amountText(spent)} spent on 2026-03-10 (UTC), ${amountText(left)} left; nothing was signed (item 0)`;
		expect(limited.outcomes).toEqual([
			'signed',
			'signed',
			'signed',
			refusal('0.9', '0.1'),
			refusal('0.9', '0.1'),
		]);
		expect(await received(family, limited.payments)).toBe(units(family, '0.9'));
	}, 90_000);

	test('an execution resumed in another OS process keeps its Max Per Execution total in the folder (in memory, documented, it does not)', async () => {
		const resume = async (policy: IDataObject, executionId: string) => {
			const payments = [
				{ to: await family.recipient(), amount: '0.6' },
				{ to: await family.recipient(), amount: '0.6' },
			];
			const first = await payOnce(family, family.accounts.b, [payments[0]], policy, executionId);
			await sendSigned(family, first);
			// The same execution continues in a new process, as after a Wait node on another worker or a restart.
			const other = await otherProcess(
				processRun(family, family.accounts.b, [payments[1]], policy, executionId),
			);
			const resumed = await other.go();
			await sendSigned(family, resumed);
			return { payments, outcomes: [...outcome(first), ...outcome(resumed)] };
		};
		const inMemory = await resume(
			{ maxPerExecution: 'native = 1' },
			`resumed-memory-${family.name}`,
		);
		expect(inMemory.outcomes).toEqual(['signed', 'signed']);
		expect(await received(family, inMemory.payments)).toBe(units(family, '1.2'));

		const inFolder = await resume(
			{ maxPerExecution: 'native = 1', payoutLedgerFolder: newFolder() },
			`resumed-folder-${family.name}`,
		);
		expect(inFolder.outcomes).toEqual([
			'signed',
			`Refused by the rule "maxPerExecution": ${family.payment('0.6', units(family, '0.6').toString())} would bring this execution's total on chain ${family.chainId} to 1.2, above the limit of 1; nothing was signed (item 0)`,
		]);
		expect(await received(family, inFolder.payments)).toBe(units(family, '0.6'));
	}, 180_000);

	test.each(LEDGER_STORES)(
		'three OS processes racing on one %s ledger never pass Max Per Day together',
		async (kind) => {
			const items = async (count: number) =>
				await Promise.all(
					Array.from({ length: count }, async () => ({
						to: await family.recipient(),
						amount: '0.15',
					})),
				);
			// Without the rule: nine payments of 0.15, 1.35 leaves.
			const unlimited = await items(9);
			const free = await payOnce(family, family.accounts.race[0], unlimited, {});
			expect(await sendSigned(family, free)).toBe(9);
			expect(await received(family, unlimited)).toBe(units(family, '1.35'));

			const ledger = await stores.newLedger(kind);
			const policy = { maxPerDay: 'native = 1', ...ledger.fields };
			const batches = [await items(3), await items(3), await items(3)];
			const [accountHere, ...accountsThere] = family.accounts.race;
			const apis = await lockstepApis(family, 3);
			const others = await Promise.all(
				accountsThere.map((account, index) =>
					otherProcess(
						processRun(
							family,
							account,
							batches[index + 1],
							policy,
							`race-${family.name}-${index}`,
							apis[index + 1],
						),
					),
				),
			);
			const outcomes = await Promise.all([
				...others.map((other) => other.go()),
				payOnce(family, accountHere, batches[0], policy, undefined, apis[0]),
			]);
			const all = outcomes.flat();
			expect(all.filter((entry) => !entry.error)).toHaveLength(6);
			for (const entry of all.filter((refused) => refused.error)) {
				expect(entry.error).toMatch(
					new RegExp(
						`^Refused by the rule "maxPerDay": .* is more than what is left of the limit of 1 \\(\\d+ in the smallest unit\\) per UTC day on chain ${family.chainId}: 0\\.9 \\(\\d+ in the smallest unit\\) spent on \\d{4}-\\d\\d-\\d\\d \\(UTC\\), 0\\.1 \\(\\d+ in the smallest unit\\) left; nothing was signed \\(item \\d\\)$`,
					),
				);
				expect(entry.rawTransaction).toBeUndefined();
			}
			expect(await sendSigned(family, all)).toBe(6);
			expect(await received(family, batches.flat())).toBe(units(family, '0.9'));
			// The credential's log (each account has one of its own besides): each total is the one before plus its change.
			const entries = (await spendingEntries(ledger, 'periods')).map(({ entry }) => entry);
			// In lockstep, each round's three reservations were decided together: one of each process, in some order.
			const executions = (round: IDataObject[]) =>
				new Set(round.map((entry) => entry.executionId)).size;
			expect([executions(entries.slice(0, 3)), executions(entries.slice(3, 6))]).toEqual([3, 3]);
			expect(entries).toHaveLength(6);
			let total = 0n;
			for (const entry of entries) {
				total += BigInt(entry.change as string);
				const totals = Object.values(entry.totals as Record<string, string>);
				expect(totals.reduce((sum, amount) => sum + BigInt(amount), 0n)).toBe(total);
			}
			expect(total).toBe(units(family, '0.9'));
		},
		180_000,
	);

	test('a UTC day boundary resets Max Per Day while the rolling Max Per 30 Days holds', async () => {
		const policy = {
			maxPerDay: 'native = 1',
			maxPer30Days: 'native = 1.5',
			payoutLedgerFolder: newFolder(),
		};
		const payments: IDataObject[] = [];
		const at = async (time: string, amounts: string[]) => {
			budgetClock.now = () => new Date(time);
			const outcomes: string[] = [];
			for (const amount of amounts) {
				const payment = { to: await family.recipient(), amount };
				payments.push(payment);
				const items = await payOnce(family, family.accounts.a, [payment], policy);
				await sendSigned(family, items);
				outcomes.push(...outcome(items));
			}
			return outcomes;
		};
		const payment = (amount: string) => family.payment(amount, units(family, amount).toString());

		expect(await at('2026-01-31T23:59:00Z', ['0.6', '0.4', '0.1'])).toEqual([
			'signed',
			'signed',
			`Refused by the rule "maxPerDay": ${payment('0.1')} is more than what is left of the limit of ${amountText('1')} per UTC day on chain ${family.chainId}: ${amountText('1')} spent on 2026-01-31 (UTC), ${amountText('0')} left; nothing was signed (item 0)`,
		]);
		// A new UTC day (and month): the daily budget is new, the 30 days still hold January 31.
		expect(await at('2026-02-01T00:01:00Z', ['0.4', '0.2'])).toEqual([
			'signed',
			`Refused by the rule "maxPer30Days": ${payment('0.2')} is more than what is left of the limit of ${amountText('1.5')} per 30 days on chain ${family.chainId} (rolling: the UTC days 2026-01-03 to 2026-02-01): ${amountText('1.4')} spent in them, ${amountText('0.1')} left; nothing was signed (item 0)`,
		]);
		// 30 days on, January 31 has left the window: 0.9 more is signed (with it, the 30 days would hold 2.3).
		expect(await at('2026-03-02T08:00:00Z', ['0.9'])).toEqual(['signed']);
		expect(await received(family, payments)).toBe(units(family, '2.3'));
	}, 90_000);

	test('a payout ID signed in two OS processes at once counts once: the signature given up is given back, and a repeat counts nothing', async () => {
		const ledger = await stores.newLedger('folder');
		const policy = { maxPerDay: 'native = 1.5', ...ledger.fields };
		const payment = { to: await family.recipient(), amount: '0.6' };
		const account = family.accounts.b;
		const extra = { payoutId: `invoice-${family.name}`, ...(await family.fixed(account)) };
		// Both are signing (past the ledger's first read) before either records the payout ID.
		const apis = await lockstepApis(family, 2);
		const other = await otherProcess(
			processRun(family, account, [payment], policy, `payout-${family.name}`, apis[1], extra),
		);
		const [[there], [here]] = await Promise.all([
			other.go(),
			payOnce(family, account, [payment], policy, undefined, apis[0], extra),
		]);
		expect([there.error, here.error]).toEqual([undefined, undefined]);
		expect([there.repeat, here.repeat].sort()).toEqual([false, true]);
		expect(here.rawTransaction).toBe(there.rawTransaction);
		await family.send(here.rawTransaction as string);
		const [again] = await payOnce(family, account, [payment], policy, undefined, undefined, extra);
		expect([again.repeat, again.rawTransaction]).toEqual([true, here.rawTransaction]);
		// 0.9 more is within 1.5 only if the payout counted once: neither the signature given up nor the repeats count.
		const more = { to: await family.recipient(), amount: '0.9' };
		const last = await payOnce(family, account, [more], policy);
		expect(outcome(last)).toEqual(['signed']);
		await sendSigned(family, last);
		expect(await received(family, [payment, more])).toBe(units(family, '1.5'));
		const changes = (await spendingEntries(ledger, 'periods')).map(({ entry }) =>
			BigInt(entry.change as string),
		);
		expect(changes.reduce((sum, change) => sum + change, 0n)).toBe(units(family, '1.5'));
	}, 120_000);

	/** A Signer node paying from `account` with the credential of this ID and name (n8n's node credentials). */
	const payingAs = (name: string, account: number, credential: { id: string; name: string }) => ({
		...family.pay(name, account),
		credentials: {
			expandApi: { id: 'expandApi', name: 'Expand' },
			[family.keyCredential]: credential,
		},
	});
	const PAYROLL = { id: 'payroll', name: 'Payroll' };
	const REFUNDS = { id: 'refunds', name: 'Refunds' };

	test.each(LEDGER_STORES)(
		"two credentials holding one key and one %s ledger share its Max Per Day: 1.6 left the wallet under two budgets of 1 before (and what each spent then still counts after the upgrade), now the second payment is refused; where they differ, the lower limit binds, named in the refusal; a credential's latest limits replace its earlier ones, and lapse 30 days after it last signed",
		async (kind) => {
			const HOST_TIME = '2026-04-10T12:00:00Z';
			const today = await countingDay(kind, HOST_TIME);
			const account = family.accounts.a;
			const payAs = async (
				credential: { id: string; name: string },
				policy: IDataObject,
				amount: string,
			) => {
				const payment = { to: await family.recipient(), amount };
				const items = (
					await pay(family, [payingAs('Sign', account, credential)], [payment], policy)
				).Sign;
				await sendSigned(family, items);
				return { payment, item: items[0], outcome: outcome(items)[0] };
			};
			/** Payroll pays 0.8, then Refunds 0.8, from one wallet, each credential with a Max Per Day of 1. */
			const sharing = async (ledger: TestLedger) => {
				const policy = { maxPerDay: 'native = 1', ...ledger.fields };
				return [await payAs(PAYROLL, policy, '0.8'), await payAs(REFUNDS, policy, '0.8')];
			};
			// As budgets were counted before (per credential): each credential spends a full budget of its own.
			const upgraded = await stores.newLedger(kind);
			// Counted before at the host's clock, then on the ledger's day.
			budgetClock.now = () => new Date(`${today}T12:00:00Z`);
			const restore = useLegacyBudgets();
			const before = await sharing(upgraded).finally(restore);
			budgetClock.now = () => new Date(HOST_TIME);
			expect(before.map((paid) => paid.outcome)).toEqual(['signed', 'signed']);
			expect(
				await received(
					family,
					before.map((paid) => paid.payment),
				),
			).toBe(units(family, '1.6'));
			// Upgraded on the same day and ledger: what each credential spent before still counts against its own limit.
			const afterUpgrade = await payAs(
				PAYROLL,
				{ maxPerDay: 'native = 1', ...upgraded.fields },
				'0.3',
			);
			expect(afterUpgrade.outcome).toBe(
				`Refused by the rule "maxPerDay": ${family.payment('0.3', units(family, '0.3').toString())} is more than what is left of the limit of ${amountText('1')} per UTC day on chain ${family.chainId}: ${amountText('0.8')} spent on ${today} (UTC), ${amountText('0.2')} left; nothing was signed (item 0)`,
			);

			const where = kind === 'folder' ? 'the Payout Ledger Folder' : 'the PostgreSQL payout ledger';
			const shared = await sharing(await stores.newLedger(kind));
			const wallet = String(shared[0].item.from);
			const refusal = (amount: string, limit: string, spent: string, left: string) =>
				`Refused by the rule "maxPerDay": ${family.payment(amount, units(family, amount).toString())} is more than what is left of the limit of ${amountText(limit)} per UTC day on chain ${family.chainId} for the account ${wallet}, over every credential signing for it in ${where}: ${amountText(spent)} spent on ${today} (UTC), ${amountText(left)} left`;
			expect(shared.map((paid) => paid.outcome)).toEqual([
				'signed',
				`${refusal('0.8', '1', '0.8', '0.2')}; nothing was signed (item 0)`,
			]);
			expect(
				await received(
					family,
					shared.map((paid) => paid.payment),
				),
			).toBe(units(family, '0.8'));

			// Payroll 0.5 a day, Refunds 2: Payroll's limit binds Refunds too, which is told whose it is.
			const ledger = await stores.newLedger(kind);
			const payroll = { maxPerDay: 'native = 0.5', ...ledger.fields };
			const refunds = { maxPerDay: 'native = 2', ...ledger.fields };
			const differing = [
				await payAs(PAYROLL, payroll, '0.3'),
				await payAs(REFUNDS, refunds, '0.3'),
				await payAs(REFUNDS, refunds, '0.2'),
			];
			expect(differing.map((paid) => paid.outcome)).toEqual([
				'signed',
				`${refusal('0.3', '0.5', '0.3', '0.2')} (the lower limit of the credential "Payroll" (ID payroll), which also signs for the account: of the credentials signing for it, the lowest limit binds); nothing was signed (item 0)`,
				'signed',
			]);
			expect(
				await received(
					family,
					differing.map((paid) => paid.payment),
				),
			).toBe(units(family, '0.5'));

			// A credential's latest limits replace its earlier ones: Payroll raised to 2 lets Refunds go on.
			const payrollAt = (limit: string) => ({ maxPerDay: `native = ${limit}`, ...ledger.fields });
			const boundByPayroll =
				' (the lower limit of the credential "Payroll" (ID payroll), which also signs for the account: of the credentials signing for it, the lowest limit binds); nothing was signed (item 0)';
			const raised = [
				await payAs(PAYROLL, payrollAt('2'), '0.1'),
				await payAs(REFUNDS, refunds, '0.5'),
			];
			expect(raised.map((paid) => paid.outcome)).toEqual(['signed', 'signed']);
			// Lowered to 1, Payroll is refused (1.1 spent today), and its limit binds Refunds from then on.
			const lowered = [
				await payAs(PAYROLL, payrollAt('1'), '0.1'),
				await payAs(REFUNDS, refunds, '0.1'),
			];
			expect(lowered.map((paid) => paid.outcome)).toEqual([
				`${refusal('0.1', '1', '1.1', '0')}; nothing was signed (item 0)`,
				`${refusal('0.1', '1', '1.1', '0')}${boundByPayroll}`,
			]);
			if (kind === 'postgres') {
				// This host's clock 29 and 30 days on moves nothing: the database's day holds Payroll's limit and its 1.1.
				for (const time of ['2026-05-09T12:00:00Z', '2026-05-10T12:00:00Z']) {
					budgetClock.now = () => new Date(time);
					expect((await payAs(REFUNDS, refunds, '0.5')).outcome).toBe(
						`${refusal('0.5', '1', '1.1', '0')}${boundByPayroll}`,
					);
				}
				expect(
					await received(
						family,
						[...raised, ...lowered].map((paid) => paid.payment),
					),
				).toBe(units(family, '0.6'));
				return;
			}
			// Payroll no longer signs (deleted, say): its limit binds for 30 days after it last signed, then lapses.
			budgetClock.now = () => new Date('2026-05-09T12:00:00Z');
			const lastDay = await payAs(REFUNDS, refunds, '1.5');
			expect(lastDay.outcome).toBe(
				`${refusal('1.5', '1', '0', '1').replace('2026-04-10', '2026-05-09')}${boundByPayroll}`,
			);
			budgetClock.now = () => new Date('2026-05-10T12:00:00Z');
			const lapsed = await payAs(REFUNDS, refunds, '1.5');
			expect(lapsed.outcome).toBe('signed');
			expect(
				await received(
					family,
					[...raised, ...lowered, lastDay, lapsed].map((paid) => paid.payment),
				),
			).toBe(units(family, '2.1'));
		},
		120_000,
	);

	test.each(LEDGER_STORES)(
		"a lowered limit binds the account from its first use even when the credential's own total refuses it first: Payroll lowered to 0.4 (0.5 spent) is refused, and Refunds (2) is then held to 0.4, not to Payroll's earlier 1 (%s ledger)",
		async (kind) => {
			const today = await countingDay(kind, '2026-07-07T12:00:00Z');
			const ledger = await stores.newLedger(kind);
			const limit = (amount: string) => ({ maxPerDay: `native = ${amount}`, ...ledger.fields });
			const payAs = async (
				credential: { id: string; name: string },
				policy: IDataObject,
				amount: string,
			) => {
				const payment = { to: await family.recipient(), amount };
				const items = (
					await pay(family, [payingAs('Sign', family.accounts.b, credential)], [payment], policy)
				).Sign;
				await sendSigned(family, items);
				return { payment, item: items[0], outcome: outcome(items)[0] };
			};
			const paid = [
				await payAs(PAYROLL, limit('1'), '0.5'),
				await payAs(PAYROLL, limit('0.4'), '0.1'),
				await payAs(REFUNDS, limit('2'), '0.4'),
			];
			const wallet = String(paid[0].item.from);
			const where = kind === 'folder' ? 'the Payout Ledger Folder' : 'the PostgreSQL payout ledger';
			const refusal = (amount: string, words: string) =>
				`Refused by the rule "maxPerDay": ${family.payment(amount, units(family, amount).toString())} is more than what is left of the limit of ${amountText('0.4')} per UTC day on chain ${family.chainId}${words}: ${amountText('0.5')} spent on ${today} (UTC), ${amountText('0')} left`;
			expect(paid.map((one) => one.outcome)).toEqual([
				'signed',
				`${refusal('0.1', '')}; nothing was signed (item 0)`,
				`${refusal('0.4', ` for the account ${wallet}, over every credential signing for it in ${where}`)} (the lower limit of the credential "Payroll" (ID payroll), which also signs for the account: of the credentials signing for it, the lowest limit binds); nothing was signed (item 0)`,
			]);
			expect(
				await received(
					family,
					paid.map((one) => one.payment),
				),
			).toBe(units(family, '0.5'));
		},
		120_000,
	);

	test.each(LEDGER_STORES)(
		"a credential's Max Per Execution binds the account's other executions too, where it does not sign: Payroll (1) signed for the account, then an execution of Refunds alone (no limit) is refused its second 0.8 (%s ledger)",
		async (kind) => {
			budgetClock.now = () => new Date('2026-08-08T12:00:00Z');
			const ledger = await stores.newLedger(kind);
			const account = family.accounts.b;
			const first = (
				await pay(
					family,
					[payingAs('Sign', account, PAYROLL)],
					[{ to: await family.recipient(), amount: '0.1' }],
					{ maxPerExecution: 'native = 1', ...ledger.fields },
				)
			).Sign;
			await sendSigned(family, first);
			expect(outcome(first)).toEqual(['signed']);
			const payments = [
				{ to: await family.recipient(), amount: '0.8' },
				{ to: await family.recipient(), amount: '0.8' },
			];
			const node = payingAs('Sign', account, REFUNDS);
			const refunds = (await pay(family, [node], [payments[0]], ledger.fields, 'refunds-alone'))
				.Sign;
			await sendSigned(family, refunds);
			const again = (await pay(family, [node], [payments[1]], ledger.fields, 'refunds-alone')).Sign;
			await sendSigned(family, again);
			const wallet = String(first[0].from);
			const where = kind === 'folder' ? 'the Payout Ledger Folder' : 'the PostgreSQL payout ledger';
			expect([...outcome(refunds), ...outcome(again)]).toEqual([
				'signed',
				`Refused by the rule "maxPerExecution": ${family.payment('0.8', units(family, '0.8').toString())} would bring this execution's total on chain ${family.chainId} for the account ${wallet}, over every credential signing for it in ${where} to 1.6, above the limit of 1 (the lower limit of the credential "Payroll" (ID payroll), which also signs for the account: of the credentials signing for it, the lowest limit binds); nothing was signed (item 0)`,
			]);
			expect(await received(family, payments)).toBe(units(family, '0.8'));
		},
		120_000,
	);

	test('two Signer nodes of one execution with two credentials holding one key stay within Max Per Execution together (in the ledger, and in memory without one)', async () => {
		const account = family.accounts.b;
		/** Pay B pays `to2`, so its transaction is not Pay A's (an EVM one takes the nonce after Pay A's). */
		const nodes = async () => {
			const nonce = Number(
				((await family.fixed(account)).additionalFields as IDataObject | undefined)?.nonce,
			);
			const node = (name: string, credential: typeof PAYROLL, next: number, to: string) => {
				const spec = payingAs(name, account, credential);
				const fixed =
					family.name === 'EVM'
						? { to: item(to), additionalFields: { nonce: String(nonce + next) } }
						: { recipient: item(to) };
				return { ...spec, parameters: { ...spec.parameters, ...fixed } as INodeParameters };
			};
			return [node('Pay A', PAYROLL, 0, 'to'), node('Pay B', REFUNDS, 1, 'to2')];
		};
		const run = async (policy: IDataObject) => {
			const payment = {
				to: await family.recipient(),
				to2: await family.recipient(),
				amount: '0.6',
			};
			const paid = await pay(family, await nodes(), [payment], policy);
			await sendSigned(family, [...paid['Pay A'], ...paid['Pay B']]);
			return {
				outcomes: [...outcome(paid['Pay A']), ...outcome(paid['Pay B'])],
				received: (await family.balance(payment.to)) + (await family.balance(payment.to2)),
				wallet: String(paid['Pay A'][0].from),
			};
		};
		// Counted per credential as before: each credential's Max Per Execution of 1 let its 0.6 through.
		const restore = useLegacyBudgets();
		const before = await run({
			maxPerExecution: 'native = 1',
			payoutLedgerFolder: newFolder(),
		}).finally(restore);
		expect(before.outcomes).toEqual(['signed', 'signed']);
		expect(before.received).toBe(units(family, '1.2'));

		for (const [policy, where] of [
			[
				{ maxPerExecution: 'native = 1', payoutLedgerFolder: newFolder() },
				'the Payout Ledger Folder',
			],
			[{ maxPerExecution: 'native = 1' }, "this n8n process's memory"],
		] as const) {
			const now = await run(policy);
			expect(now.outcomes).toEqual([
				'signed',
				`Refused by the rule "maxPerExecution": ${family.payment('0.6', units(family, '0.6').toString())} would bring this execution's total on chain ${family.chainId} for the account ${now.wallet}, over every credential signing for it in ${where} to 1.2, above the limit of 1; nothing was signed (item 0)`,
			]);
			expect(now.received).toBe(units(family, '0.6'));
		}
	}, 90_000);

	test.each([...LEDGER_STORES, 'memory'] as const)(
		'a credential without limits that signs for the account before any credential with a limit did is counted all the same: Refunds (no limit) pays 0.8, then Payroll (Max Per Day 1, Max Per Execution 1, same execution) is refused 0.8 (%s)',
		async (kind) => {
			const today = await countingDay(kind, '2026-06-10T12:00:00Z');
			const ledger = kind === 'memory' ? undefined : await stores.newLedger(kind);
			const fields = ledger?.fields ?? {};
			const executionId = `unlimited-first-${family.name}-${kind}`;
			const payAs = async (credential: { id: string; name: string }, policy: IDataObject) => {
				const payment = { to: await family.recipient(), amount: '0.8' };
				const items = (
					await pay(
						family,
						[payingAs('Sign', family.accounts.a, credential)],
						[payment],
						{ ...policy, ...fields },
						executionId,
					)
				).Sign;
				await sendSigned(family, items);
				return { payment, item: items[0], outcome: outcome(items)[0] };
			};
			const refunds = await payAs(REFUNDS, {});
			const payroll = await payAs(
				PAYROLL,
				kind === 'memory'
					? { maxPerExecution: 'native = 1' }
					: { maxPerExecution: 'native = 1', maxPerDay: 'native = 1' },
			);
			const wallet = String(refunds.item.from);
			const where =
				kind === 'folder'
					? 'the Payout Ledger Folder'
					: kind === 'postgres'
						? 'the PostgreSQL payout ledger'
						: "this n8n process's memory";
			expect([refunds.outcome, payroll.outcome]).toEqual([
				'signed',
				`Refused by the rule "maxPerExecution": ${family.payment('0.8', units(family, '0.8').toString())} would bring this execution's total on chain ${family.chainId} for the account ${wallet}, over every credential signing for it in ${where} to 1.6, above the limit of 1; nothing was signed (item 0)`,
			]);
			expect(await received(family, [refunds.payment, payroll.payment])).toBe(units(family, '0.8'));
			if (!ledger) return;
			// In another execution the day holds it: Refunds' 0.8 counts against Payroll's Max Per Day.
			const [later] = (
				await pay(
					family,
					[payingAs('Sign', family.accounts.a, PAYROLL)],
					[{ to: await family.recipient(), amount: '0.3' }],
					{ maxPerDay: 'native = 1', ...fields },
				)
			).Sign;
			expect(outcome([later])).toEqual([
				`Refused by the rule "maxPerDay": ${family.payment('0.3', units(family, '0.3').toString())} is more than what is left of the limit of ${amountText('1')} per UTC day on chain ${family.chainId} for the account ${wallet}, over every credential signing for it in ${where}: ${amountText('0.8')} spent on ${today} (UTC), ${amountText('0.2')} left; nothing was signed (item 0)`,
			]);
		},
		120_000,
	);

	test('the credential Test says which budgets apply and where they are counted; a budget without a payout ledger is refused, nothing signed', async () => {
		const test = async (data: IDataObject) =>
			await family.keyTest.call({} as never, {
				id: '1',
				name: 'k',
				type: family.keyCredential,
				data: { ...family.key(), ...data } as never,
			});
		const counted = await test({
			maxPerExecution: 'native = 1',
			maxPerDay: 'native = 2',
			maxPer30Days: 'native = 10',
			payoutLedgerFolder: '/srv/ledger',
		});
		expect(counted.status).toBe('OK');
		expect(counted.message).toContain(
			'per execution at most 1 of the native asset (counted in the Payout Ledger Folder over every Signer node of the execution with this credential, wherever it resumes); per UTC day (calendar day, from 00:00 UTC) at most 2 of the native asset; per 30 days (rolling: today and the 29 UTC days before) at most 10 of the native asset; these budgets are counted in the Payout Ledger Folder over every execution and process using it, per chain, from just before signing, and given back when a signature does not leave the node; each of these totals also counts per signing account (for Propose to Safe, the Safe) over every credential that signs for it with the Payout Ledger Folder, and the lowest of their limits binds;',
		);
		const inMemory = await test({ maxPerExecution: 'native = 1' });
		expect(inMemory.message).toContain(
			"per execution at most 1 of the native asset (counted in this n8n process's memory only, with no payout ledger: an execution resumed after a restart or on another worker, or after 10000 later executions in this process, counts from zero);",
		);
		expect(inMemory.message).toContain(
			'each of these totals also counts per signing account (for Propose to Safe, the Safe) over every credential that signs for it in this n8n process, and the lowest of their limits binds;',
		);
		const message =
			'The policy fields "maxPerDay" and "maxPer30Days" need a payout ledger (folder or PostgreSQL), where the spending of every execution and process is counted; without it they cannot be counted, so nothing is signed. Set the Payout Ledger Folder or the PostgreSQL Ledger Store, or clear "maxPer30Days"';
		expect(await test({ maxPer30Days: 'native = 10' })).toEqual({ status: 'Error', message });
		const refused = await payOnce(
			family,
			family.accounts.a,
			[{ to: await family.recipient(), amount: '0.1' }],
			{ maxPer30Days: 'native = 10' },
		);
		expect(refused).toEqual([{ error: `${message} (item 0)` }]);
	}, 60_000);

	test.each(LEDGER_STORES)(
		"a spending log cleaned of old entries counts on from the newest; one whose newest entry is gone or no longer reads as the log's is refused, nothing signed; one edited into another well-formed entry is believed (%s ledger)",
		async (kind) => {
			const today = await countingDay(kind, '2026-05-05T10:00:00Z');
			const ledger = await stores.newLedger(kind);
			const policy = { maxPerDay: 'native = 1', ...ledger.fields };
			const payOne = async (amount: string) => {
				const items = await payOnce(
					family,
					family.accounts.a,
					[{ to: await family.recipient(), amount }],
					policy,
				);
				await sendSigned(family, items);
				return outcome(items)[0];
			};
			for (let run = 0; run < 3; run++) expect(await payOne('0.3')).toBe('signed');
			// The credential's log; the account's is alike.
			const numbered = async () =>
				(await spendingEntries(ledger, 'periods')).map(({ name }) => name);
			const [first, second, newest] = await numbered();
			await ledger.remove(first);
			await ledger.remove(second);
			// A new process (no memory of the log) counts on from the newest entry the log recorded.
			const fresh = await otherProcess({
				...processRun(
					family,
					family.accounts.a,
					[{ to: await family.recipient(), amount: '0.3' }],
					policy,
				),
				now: '2026-05-05T10:00:00Z',
			});
			const [counted] = await fresh.go();
			expect(counted.error).toBe(
				`Refused by the rule "maxPerDay": ${family.payment('0.3', units(family, '0.3').toString())} is more than what is left of the limit of ${amountText('1')} per UTC day on chain ${family.chainId}: ${amountText('0.9')} spent on ${today} (UTC), ${amountText('0.1')} left; nothing was signed (item 0)`,
			);
			expect(await payOne('0.1')).toBe('signed');

			const [latest] = (await numbered()).slice(-1);
			const saved = String(await ledger.read(latest));
			await ledger.remove(latest);
			const broken = (why: string) =>
				`Refused by the rule "maxPerDay": the spending log entry ${ledger.where(latest)} ${why}, so what was spent cannot be known; check ${ledger.place} by hand; nothing was signed (item 0)`;
			expect(await payOne('0.01')).toBe(broken('is gone, though the log had reached it'));
			await ledger.write(
				latest,
				saved.replace(new RegExp(`"totals":\\{"${today}":"\\d+"\\}`), `"totals":{"${today}":"-1"}`),
			);
			expect(await payOne('0.01')).toBe(broken('holds a total that is not a whole number'));
			expect(newest).not.toBe(latest);

			// An entry edited into another well-formed one is believed: nothing tells it from the Signer's own
			// (docs/signer.md, "Budgets over time"). With the newest entries rewritten to nothing spent today, 0.9 more
			// is signed: whoever may write the ledger is trusted with the budgets.
			await ledger.write(
				latest,
				saved.replace(new RegExp(`"totals":\\{"${today}":"\\d+"\\}`), `"totals":{"${today}":"0"}`),
			);
			const [account] = (await spendingEntries(ledger, 'periods-by-account')).slice(-1);
			await ledger.write(
				account.name,
				JSON.stringify({ ...account.entry, totals: { [today]: '0' } }),
			);
			expect(await payOne('0.9')).toBe('signed');
		},
		60_000,
	);
});

describe('EVM: budgets at UTC midnight', () => {
	const family = evm;
	const amountText = (amount: string) =>
		`${amount} (${units(family, amount)} in the smallest unit)`;
	const payment = (amount: string) => family.payment(amount, units(family, amount).toString());
	const policyOf = (ledger: TestLedger) => ({
		maxPerDay: 'native = 1',
		maxPer30Days: 'native = 1.5',
		...ledger.fields,
	});
	const windowFull = (amount: string) =>
		`Refused by the rule "maxPer30Days": ${payment(amount)} is more than what is left of the limit of ${amountText('1.5')} per 30 days on chain 31337 (rolling: the UTC days 2026-01-03 to 2026-02-01): ${amountText('1.5')} spent in them, ${amountText('0')} left; nothing was signed (item 0)`;

	const dayFull = (amount: string, spent: string, left: string) =>
		`Refused by the rule "maxPerDay": ${payment(amount)} is more than what is left of the limit of ${amountText('1')} per UTC day on chain 31337: ${amountText(spent)} spent on 2026-02-01 (UTC), ${amountText(left)} left; nothing was signed (item 0)`;

	test.each(HOST_CLOCK_STORES)(
		'two OS processes whose clocks are seconds apart at UTC midnight: the one behind counts into the newest day and never deletes it; 2.01 left under 1 a day and 1.5 per 30 days before, now 1.5 (%s ledger)',
		async (kind) => {
			const AHEAD = '2026-02-01T00:00:03Z';
			const BEHIND = '2026-01-31T23:59:58Z';
			const account = family.accounts.b;
			const run = async (legacy: boolean) => {
				const ledger = await stores.newLedger(kind);
				const policy = policyOf(ledger);
				const payments: IDataObject[] = [];
				const outcomes: string[] = [];
				const paid = async (items: IDataObject[]) => {
					await sendSigned(family, items);
					outcomes.push(...outcome(items));
				};
				// The worker whose clock is behind: another OS process.
				const behind = async (amount: string) => {
					const one = { to: await family.recipient(), amount };
					payments.push(one);
					const other = await otherProcess({
						...processRun(family, account, [one], policy),
						now: BEHIND,
						legacyBudgets: legacy,
					});
					await paid(await other.go());
				};
				// The worker whose clock is ahead: this process.
				const ahead = async (amount: string) => {
					const one = { to: await family.recipient(), amount };
					payments.push(one);
					budgetClock.now = () => new Date(AHEAD);
					const restore = legacy ? useLegacyBudgets() : () => undefined;
					await paid(await payOnce(family, account, [one], policy).finally(restore));
				};
				await behind('0.99');
				await ahead('0.51');
				await behind('0.01');
				await ahead('0.5');
				return { outcomes, received: await received(family, payments), ledger };
			};

			const before = await run(true);
			expect(before.outcomes).toEqual(['signed', 'signed', 'signed', 'signed']);
			expect(before.received).toBe(units(family, '2.01'));
			// What let it through: the entry of the process behind kept only its own window, without February 1.
			const deleting = (await spendingEntries(before.ledger)).find(
				({ entry }) => entry.change === units(family, '0.01').toString(),
			);
			expect(deleting?.entry.totals).toEqual({ '2026-01-31': units(family, '1').toString() });

			const now = await run(false);
			// 0.01 more would pass the 30 days; 0.5 more both the 30 days and February 1 (0.51 already spent on it).
			expect(now.outcomes).toEqual([
				'signed',
				'signed',
				windowFull('0.01'),
				dayFull('0.5', '0.51', '0.49'),
			]);
			expect(now.received).toBe(units(family, '1.5'));
			for (const { entry } of (await spendingEntries(now.ledger)).slice(-2))
				expect(entry.totals).toEqual({
					'2026-01-31': units(family, '0.99').toString(),
					'2026-02-01': units(family, '0.51').toString(),
				});
		},
		300_000,
	);

	test.each(HOST_CLOCK_STORES)(
		"documented limit of a folder ledger: the budgets trust every signing host's clock; a host 31 days ahead opens a new day and a new 30 days (2.5 paid under 1.5 per 30 days), and the log's day then stays on its day, refusing the hosts whose clocks are right until then (%s ledger)",
		async (kind) => {
			const ledger = await stores.newLedger(kind);
			const policy = policyOf(ledger);
			const payments: IDataObject[] = [];
			const payAt = async (time: string, amount: string) => {
				budgetClock.now = () => new Date(time);
				const one = { to: await family.recipient(), amount };
				payments.push(one);
				const items = await payOnce(family, family.accounts.a, [one], policy);
				await sendSigned(family, items);
				return outcome(items)[0];
			};
			expect(await payAt('2026-01-20T12:00:00Z', '0.5')).toBe('signed');
			expect(await payAt('2026-02-01T12:00:00Z', '1')).toBe('signed');
			// The day is spent, and so are the 30 days (1.5).
			expect(await payAt('2026-02-01T12:01:00Z', '0.01')).toBe(dayFull('0.01', '1', '0'));
			// A host whose clock is 31 days ahead: its day and its 30 days hold nothing yet.
			expect(await payAt('2026-03-04T12:02:00Z', '1')).toBe('signed');
			expect(await received(family, payments)).toBe(units(family, '2.5'));
			// The hosts whose clocks are right count into March 4 from now on: its budget is spent.
			expect(await payAt('2026-02-01T12:03:00Z', '0.01')).toBe(
				dayFull('0.01', '1', '0').replace('2026-02-01', '2026-03-04'),
			);
		},
		120_000,
	);

	test.each(LEDGER_STORES)(
		"hosts whose clocks are a year ahead and a year behind (other OS processes) sign after one whose clock is right spent the day: with a folder the one ahead gets a day of its own (2 paid under 1 a day); with PostgreSQL the database's clock decides the day for every host, and both are refused (%s ledger)",
		async (kind) => {
			const ledger = await stores.newLedger(kind);
			const policy = policyOf(ledger);
			const account = family.accounts.b;
			const YEAR_MS = 365 * 86_400_000;
			const ahead = new Date(Date.now() + YEAR_MS).toISOString();
			const behind = new Date(Date.now() - YEAR_MS).toISOString();
			const payments: IDataObject[] = [];
			/** Pays from this process (its clock is right), or from another whose clock says `now`. */
			const payAt = async (now: string | undefined, amount: string) => {
				const one = { to: await family.recipient(), amount };
				payments.push(one);
				const run = processRun(family, account, [one], policy);
				const items = now
					? await (await otherProcess({ ...run, now })).go()
					: await payOnce(family, account, [one], policy);
				await sendSigned(family, items);
				return outcome(items)[0];
			};
			const spent = (amount: string, day: string) =>
				dayFull(amount, '1', '0').replace('2026-02-01', day);

			expect(await payAt(undefined, '1')).toBe('signed');
			if (kind === 'folder') {
				// The host ahead opens a day and 30 days of its own, which the host behind then counts into.
				expect(await payAt(ahead, '1')).toBe('signed');
				expect(await payAt(behind, '0.5')).toBe(spent('0.5', ahead.slice(0, 10)));
				expect(await received(family, payments)).toBe(units(family, '2'));
			} else {
				const today = await databaseDay();
				expect(await payAt(ahead, '1')).toBe(spent('1', today));
				expect(await payAt(behind, '0.5')).toBe(spent('0.5', today));
				expect(await received(family, payments)).toBe(units(family, '1'));
				// Every entry of the day logs is on the database's day: no host's clock wrote another.
				for (const { entry } of await spendingEntries(ledger))
					if (String((entry.log as string[])[0]).startsWith('periods'))
						expect(Object.keys(entry.totals as IDataObject)).toEqual([today]);
			}
		},
		180_000,
	);

	test.each(HOST_CLOCK_STORES)(
		'with synchronised clocks, an append that read the totals before midnight and retries after it counts into the new day: the entry another worker wrote for it in between is kept (%s ledger)',
		async (kind) => {
			const account = family.accounts.a;
			const run = async (legacy: boolean) => {
				const ledger = await stores.newLedger(kind);
				const policy = policyOf(ledger);
				const restore = legacy ? useLegacyBudgets() : () => undefined;
				try {
					const payments: IDataObject[] = [];
					const outcomes: string[] = [];
					const payAt = async (amount: string) => {
						const one = { to: await family.recipient(), amount };
						payments.push(one);
						const items = await payOnce(family, account, [one], policy);
						await sendSigned(family, items);
						outcomes.push(...outcome(items));
					};
					budgetClock.now = () => new Date('2026-01-31T23:50:00Z');
					await payAt('0.9');
					// What another worker appends to each budget log at 00:00:00.1: 0.6 on February 1.
					const others = (await spendingEntries(ledger))
						.filter(({ entry }) => String((entry.log as string[])[0]).startsWith('periods'))
						.map(({ name, entry }) => ({
							name: name.replace(/-1\.json$/, '-2.json'),
							text: JSON.stringify({
								...entry,
								seq: 2,
								at: '2026-02-01T00:00:00.100Z',
								executionId: 'another-worker',
								change: units(family, '0.6').toString(),
								totals: {
									...(entry.totals as IDataObject),
									'2026-02-01': units(family, '0.6').toString(),
								},
								credentials: Object.fromEntries(
									Object.entries((entry.credentials ?? {}) as Record<string, IDataObject>).map(
										([id, record]) => [id, { ...record, day: '2026-02-01' }],
									),
								),
							}),
						}));
					expect(others).toHaveLength(legacy ? 1 : 2);
					// This process reads the time at 23:59:59.9, then the other worker appends, then it is past midnight.
					let readings = 0;
					budgetClock.now = () => {
						if (readings++ > 0) return new Date('2026-02-01T00:00:00.100Z');
						for (const other of others) ledger.createNow(other.name, other.text);
						return new Date('2026-01-31T23:59:59.900Z');
					};
					await payAt('0.1');
					budgetClock.now = () => new Date('2026-02-01T00:00:01Z');
					await payAt('0.5');
					return { outcomes, received: await received(family, payments), ledger };
				} finally {
					restore();
				}
			};

			// The day read once before the retries: the entry keeps January 31 only, and February 1's 0.6 is gone.
			const before = await run(true);
			expect(before.outcomes).toEqual(['signed', 'signed', 'signed']);
			// 1.5 sent from here, with the other worker's 0.6: 2.1 under 1 a day and 1.5 per 30 days.
			expect(before.received).toBe(units(family, '1.5'));
			const retried = (await spendingEntries(before.ledger)).find(({ entry }) => entry.seq === 3);
			expect(retried?.entry.totals).toEqual({ '2026-01-31': units(family, '1').toString() });

			const now = await run(false);
			expect(now.outcomes).toEqual(['signed', windowFull('0.1'), dayFull('0.5', '0.6', '0.4')]);
			expect(now.received).toBe(units(family, '0.9'));
			expect(
				(await spendingEntries(now.ledger)).filter(({ entry }) => Number(entry.seq) > 2),
			).toEqual([]);
		},
		180_000,
	);
});
