/**
 * Safe proposals in the payout journal, on the devnet's Safe and its service stand-in: two payouts
 * proposed through the Signer and one refused are journaled as `safeProposal` (the Safe as account,
 * the delegate as proposer, the safeTxHash and the Safe's nonce, no fee ceiling); after the owners
 * execute one, Check Payouts says executed (the chain's execution hash, block and fee) and proposed,
 * also for a row that lost its `kind` or had it edited. Get Safe Proposal shows the execution the
 * chain confirms; a lying Safe API's "executed" at 0 of 2 confirmations is only its claim. Without
 * the Safe API credential Check Payouts says what the chain alone tells; a Safe API that names another
 * transaction as the execution, or holds nothing, makes no proposal executed. Every row has the same
 * text columns whatever its status.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { getAddress, Interface } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../../../devnet';
import { DEVNET_MNEMONIC } from '../../../../devnet/fixtures';
import { expectStableColumns } from '../../../helpers/checkColumns';
import { startLyingFront } from '../../../helpers/lyingFront';
import { ITEMS, SIGNER, expandCredentials, runPipeline } from '../../../helpers/n8n';
import { startScriptedApi } from '../../../helpers/scriptedApi';
import { startTamperingProxy } from '../../../trigger/tamperingProxy';

const CHAIN = '31337';
/** The delegate's index on the devnet mnemonic (devnet/safe/deploy.ts). */
const DELEGATE_INDEX = 20;
const RECIPIENT = getAddress('0x' + 'c5'.repeat(20));
const OTHER = getAddress('0x' + 'c6'.repeat(20));

const ledger = mkdtempSync(join(tmpdir(), 'safe-journal-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledger;

let devnet: Devnet;
let proxy: Awaited<ReturnType<typeof startTamperingProxy>>;
beforeAll(async () => {
	devnet = await startDevnet();
	proxy = await startTamperingProxy(new URL(devnet.safe.serviceUrl).origin);
});
afterAll(async () => {
	await proxy.close();
	await devnet.stop();
	rmSync(ledger, { recursive: true, force: true });
});

const usdc = () => devnet.chains.find((chain) => chain.chainId === CHAIN)!.tokens.USDC.address;
const transfer = (to: string, amount: bigint) => ({
	chainId: CHAIN,
	to: usdc(),
	value: '0',
	data: new Interface(['function transfer(address,uint256)']).encodeFunctionData('transfer', [
		to,
		amount,
	]),
});
const serviceUrl = (viaProxy: boolean) =>
	viaProxy ? `${proxy.url}${new URL(devnet.safe.serviceUrl).pathname}` : devnet.safe.serviceUrl;

interface SignerOptions {
	/** false: no Safe API credential. */
	safeApi?: boolean;
	/** The Safe API through the tampering proxy. */
	viaProxy?: boolean;
	/** Another Safe API. */
	service?: string;
	/** The Expand API at this URL names the chain's node; RPC URLs pins none. */
	api?: string;
}

/** The Signer (delegate key, the ledger folder, the pinned RPC) on `items`. */
async function signer(
	parameters: IDataObject,
	items: IDataObject[] = [{}],
	options: SignerOptions = {},
): Promise<IDataObject[]> {
	const rpcUrl = devnet.chains.find((chain) => chain.chainId === CHAIN)!.rpcUrl;
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: { accountIndex: DELEGATE_INDEX, ...parameters } as never,
				continueOnFail: true,
			},
		],
		{
			expandSignerApi: {
				keyType: 'mnemonic',
				mnemonic: DEVNET_MNEMONIC,
				derivationPath: "m/44'/60'/0'/0/{index}",
				payoutLedgerFolder: ledger,
				requireIntent: 'never',
				...(options.api ? {} : { rpcUrls: `${CHAIN} = ${rpcUrl}` }),
			},
			...(options.api
				? expandCredentials({
						apiKey: devnet.apiKey,
						baseUrl: options.api,
						historicalUrl: devnet.historicalUrl,
					})
				: {}),
			...(options.safeApi === false
				? {}
				: {
						expandSafeApi: {
							serviceUrl: options.service ?? serviceUrl(options.viaProxy ?? false),
							apiKey: '',
							maxRequestsPerSecond: 0,
						},
					}),
		},
	);
	expect(result.error).toBeUndefined();
	return result.output('Sign').map((item) => item.json);
}

const safeEntries = async () =>
	(await signer({ operation: 'listPayouts' })).filter((entry) => entry.kind === 'safeProposal');
/** Every row Check Payouts gave, for the test of its columns. */
const checkedRows: IDataObject[] = [];
const check = async (entries: IDataObject[], options: SignerOptions = {}) => {
	const rows = await signer({ operation: 'checkPayouts' }, entries, options);
	checkedRows.push(...rows.filter((row) => row.error === undefined));
	return rows;
};
const getProposal = async (
	safeTxHash: unknown,
	options: SignerOptions = {},
	more: IDataObject = {},
) =>
	(
		await signer(
			{ operation: 'getSafeProposal', safeTxHash: String(safeTxHash), chainId: CHAIN, ...more },
			[{}],
			options,
		)
	)[0];

let proposed: IDataObject[];
let executed: Awaited<ReturnType<Devnet['safe']['confirmAndExecute']>>;

test('two proposals and a refused one are journaled as safeProposal: the Safe, the proposer, the safeTxHash, its nonce, no fee ceiling', async () => {
	proposed = await signer(
		{
			operation: 'proposeToSafe',
			safeAddress: devnet.safe.address,
			source: 'input',
			payoutId: '={{ $json.payoutId }}',
		},
		[
			{ ...transfer(RECIPIENT, 250_000_000n), payoutId: 'safe-journal-1' },
			{ ...transfer(OTHER, 1_500_000n), payoutId: 'safe-journal-2' },
			{ ...transfer(OTHER, 1n), operation: 1 },
		],
	);
	expect(proposed.map((item) => item.error)).toEqual([
		undefined,
		undefined,
		expect.stringMatching(/^Refused by the rule "operation"/),
	]);
	const entries = await safeEntries();
	expect(entries).toHaveLength(3);
	const [first, second, refused] = entries;
	for (const [entry, proposal, recipient, amount, whole] of [
		[first, proposed[0], RECIPIENT, '250000000', '250'],
		[second, proposed[1], OTHER, '1500000', '1.5'],
	] as const) {
		expect(entry).toMatchObject({
			outcome: 'signed',
			kind: 'safeProposal',
			operation: 'proposeToSafe',
			chainId: CHAIN,
			account: devnet.safe.address,
			proposer: devnet.safe.delegate.address,
			transactionHash: proposal.safeTxHash,
			nonce: proposal.nonce,
			decimals: '6',
			amount,
			amountWhole: whole,
			feeCeiling: '',
			feeCeilingWhole: '',
			payoutId: proposal.payoutId,
		});
		expect(String(entry.recipient)).toBe(recipient.toLowerCase());
		expect(String(entry.asset)).toBe(usdc().toLowerCase());
	}
	expect(BigInt(String(second.nonce))).toBe(BigInt(String(first.nonce)) + 1n);
	expect(refused).toMatchObject({
		outcome: 'refused',
		kind: 'safeProposal',
		account: devnet.safe.address,
		proposer: '',
		rule: 'operation',
		transactionHash: '',
	});
});

test("after the owners execute the first, Check Payouts says executed (the chain's hash, block and fee) and proposed", async () => {
	executed = await devnet.safe.confirmAndExecute(String(proposed[0].safeTxHash));
	const receipt = await devnet.rpc<{ gasUsed: string; effectiveGasPrice: string }>(
		CHAIN,
		'eth_getTransactionReceipt',
		[executed.transactionHash],
	);
	const [first, second, refused] = await check(await safeEntries());
	expect(first).toMatchObject({
		chainStatus: 'executed',
		executionTransactionHash: executed.transactionHash,
		block: String(executed.blockNumber),
		success: 'true',
		feePaid: (BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice)).toString(),
		replacedBy: '',
	});
	expect(second).toMatchObject({
		chainStatus: 'proposed',
		executionTransactionHash: '',
		block: '',
		feePaid: '',
	});
	expect(second.statusMessage).toMatch(/^Awaiting the Safe's owners: 0 of 2 confirmations/);
	expect(refused.chainStatus).toBe('refused');
});

test('Check Payouts takes the kind and every field it branches on from the journal: a row without `kind`, or with it edited, of the executed proposal is executed', async () => {
	const [first] = await safeEntries();
	const { kind, ...withoutKind } = first;
	expect(kind).toBe('safeProposal');
	const rows = await check([withoutKind, { ...first, kind: 'transaction' }, { seq: first.seq }]);
	for (const row of rows)
		expect(row).toMatchObject({
			kind: 'safeProposal',
			account: devnet.safe.address,
			transactionHash: first.transactionHash,
			chainStatus: 'executed',
			executionTransactionHash: executed.transactionHash,
			success: 'true',
		});
});

test("Get Safe Proposal shows the execution the chain confirms: the chain's hash, block and date", async () => {
	const block = await devnet.rpc<{ timestamp: string }>(CHAIN, 'eth_getBlockByNumber', [
		'0x' + executed.blockNumber.toString(16),
		false,
	]);
	expect(await getProposal(proposed[0].safeTxHash)).toEqual({
		safeTxHash: proposed[0].safeTxHash,
		safe: devnet.safe.address,
		nonce: proposed[0].nonce,
		confirmations: 2,
		confirmedBy: executed.confirmedBy.map((owner) => getAddress(owner)),
		threshold: 2,
		executed: true,
		successful: true,
		executionTransactionHash: executed.transactionHash,
		executionBlock: executed.blockNumber,
		executionDate: new Date(Number(BigInt(block.timestamp)) * 1000).toISOString(),
		// What it did, from fields that hash to the safeTxHash: a row's hash swapped for another
		// payout's shows that payout's recipient and amount.
		to: usdc(),
		value: '0',
		data: transfer(RECIPIENT, 250_000_000n).data,
		chainStatus: 'executed',
		statusMessage: '',
	});
});

test('a lying Safe API says the second proposal was executed, at 0 of 2 confirmations, with a made-up hash: Get Safe Proposal shows executed false and the claim apart, and Wait for Execution waits', async () => {
	const hash = String(proposed[1].safeTxHash);
	const madeUp = '0x' + 'ab'.repeat(32);
	const lie = (body: unknown) => ({
		...(body as IDataObject),
		isExecuted: true,
		isSuccessful: true,
		transactionHash: madeUp,
		blockNumber: executed.blockNumber + 1,
		executionDate: '2026-11-26T06:05:00Z',
	});
	const path = `${new URL(devnet.safe.serviceUrl).pathname}/api/v1/multisig-transactions/`;
	proxy.tamper(Infinity, path, lie);
	try {
		// What the service says, and what Get Safe Proposal reported as it was before it asked the chain.
		const claimed = (await (
			await fetch(`${serviceUrl(true)}/api/v1/multisig-transactions/${hash}/`)
		).json()) as IDataObject;
		expect(claimed).toMatchObject({
			isExecuted: true,
			isSuccessful: true,
			transactionHash: madeUp,
			confirmations: [],
		});
		const safeNonce = await devnet.rpc<string>(CHAIN, 'eth_call', [
			{ to: devnet.safe.address, data: '0xaffed0e0' },
			'latest',
		]);
		expect(BigInt(safeNonce)).toBe(BigInt(String(proposed[1].nonce)));
		const notBelieved = `the Safe's nonce on chain ${CHAIN} is ${BigInt(safeNonce)}: its nonce ${String(proposed[1].nonce)} has not been executed`;
		const shown = await getProposal(hash, { viaProxy: true });
		expect(shown).toMatchObject({
			safeTxHash: hash,
			confirmations: 0,
			threshold: 2,
			executed: false,
			successful: null,
			executionTransactionHash: null,
			executionBlock: null,
			executionDate: null,
			serviceClaims: {
				executed: true,
				successful: true,
				executionTransactionHash: madeUp,
				executionBlock: executed.blockNumber + 1,
				executionDate: '2026-11-26T06:05:00Z',
				notBelievedBecause: notBelieved,
			},
		});
		const waited = await getProposal(
			hash,
			{ viaProxy: true },
			{
				waitForExecution: true,
				timeoutSeconds: 6,
				onTimeout: 'output',
			},
		);
		expect(waited).toMatchObject({
			executed: false,
			timedOut: true,
			serviceClaims: { notBelievedBecause: notBelieved },
		});
		const [checked] = await check([(await safeEntries())[1]], { viaProxy: true });
		expect(checked.chainStatus).toBe('proposed');
	} finally {
		proxy.stop();
	}
}, 30_000);

test("a Safe API that hides the first proposal's execution never makes Get Safe Proposal say it was not executed: the Safe's nonce has passed it, so executedOrReplaced, and Wait for Execution stops", async () => {
	const hash = String(proposed[0].safeTxHash);
	const hidden = (body: unknown) => ({
		...(body as IDataObject),
		isExecuted: false,
		isSuccessful: null,
		transactionHash: null,
		blockNumber: null,
		executionDate: null,
	});
	const path = `${new URL(devnet.safe.serviceUrl).pathname}/api/v1/multisig-transactions/`;
	proxy.tamper(Infinity, path, hidden);
	try {
		const passed = new RegExp(
			`^The Safe's nonce on chain ${CHAIN} is \\d+, past this proposal's ${String(proposed[0].nonce)}: it was executed, or another transaction of its nonce was, and the Safe API shows no execution the chain confirms; check the Safe's history before paying it again$`,
		);
		const shown = await getProposal(hash, { viaProxy: true });
		expect(shown).toMatchObject({ executed: false, chainStatus: 'executedOrReplaced' });
		expect(shown.statusMessage).toMatch(passed);
		const started = Date.now();
		const [failed] = await signer(
			{
				operation: 'getSafeProposal',
				safeTxHash: hash,
				chainId: CHAIN,
				waitForExecution: true,
				timeoutSeconds: 20,
			},
			[{}],
			{ viaProxy: true },
		);
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(String(failed.error)).not.toMatch(/was not executed/);
		expect(String(failed.error)).toMatch(
			new RegExp(`^The Safe proposal ${hash}: The Safe's nonce on chain ${CHAIN} is \\d+, past`),
		);
		// The second, still awaiting its owners, is proposed.
		expect(await getProposal(proposed[1].safeTxHash, { viaProxy: true })).toMatchObject({
			executed: false,
			chainStatus: 'proposed',
			statusMessage: '',
		});
	} finally {
		proxy.stop();
	}
}, 30_000);

test('without the Safe API credential, Check Payouts says what the chain alone tells: executed or replaced, and proposed', async () => {
	const [first, second] = await check(await safeEntries(), { safeApi: false });
	expect(first).toMatchObject({ chainStatus: 'executedOrReplaced', executionTransactionHash: '' });
	expect(first.statusMessage).toMatch(/Add the Safe API credential to Check Payouts/);
	expect(second.chainStatus).toBe('proposed');
});

test('a Safe API that names another transaction as the execution makes neither proposal executed', async () => {
	const [first, second] = await safeEntries();
	// Another transaction on the chain: a plain transfer between two funded devnet accounts.
	const other = await devnet.rpc<string>(CHAIN, 'eth_sendTransaction', [
		{ from: getAddress(executed.confirmedBy[0]), to: RECIPIENT, value: '0x1' },
	]);
	const lie = (body: unknown) => ({
		...(body as IDataObject),
		isExecuted: true,
		isSuccessful: true,
		transactionHash: other,
		blockNumber: executed.blockNumber + 1,
	});
	const path = `${new URL(devnet.safe.serviceUrl).pathname}/api/v1/multisig-transactions/`;
	proxy.tamper(Infinity, path, lie);
	try {
		const [checkedFirst, checkedSecond] = await check([first, second], { viaProxy: true });
		expect(proxy.tampered).toBeGreaterThanOrEqual(2);
		expect(checkedFirst).toMatchObject({
			chainStatus: 'executedOrReplaced',
			executionTransactionHash: '',
		});
		expect(checkedFirst.statusMessage).toMatch(
			new RegExp(`the chain does not confirm it: transaction ${other} did not execute safeTxHash`),
		);
		expect(checkedSecond).toMatchObject({ chainStatus: 'proposed', executionTransactionHash: '' });
		const shown = await getProposal(first.transactionHash, { viaProxy: true });
		expect(shown).toMatchObject({
			executed: false,
			serviceClaims: { executionTransactionHash: other },
		});
		expect(String((shown.serviceClaims as IDataObject).notBelievedBecause)).toMatch(
			new RegExp(`^transaction ${other} did not execute safeTxHash`),
		);
	} finally {
		proxy.stop();
	}
});

test('a Safe API that holds neither proposal: the executed one is executedOrReplaced, never "it can no longer be executed"; the pending one notPosted; every row of every status has the same text columns', async () => {
	const service = await startScriptedApi(() => ({
		status: 404,
		body: { detail: 'No MultisigTransaction matches the given query.' },
	}));
	try {
		const [first, second] = await check((await safeEntries()).slice(0, 2), {
			service: service.url,
		});
		// The owners executed the first: a service that hides it must not make it read as never paid.
		expect(first.chainStatus).toBe('executedOrReplaced');
		expect(first.statusMessage).toMatch(
			/^The Safe API does not hold the proposal, but the Safe's nonce is \d+, past this proposal's \d+: it was executed, or another transaction of its nonce was/,
		);
		expect(first.statusMessage).not.toMatch(/can no longer be executed/);
		expect(second.chainStatus).toBe('notPosted');
		expect(second.statusMessage).toMatch(/run the payout again with the same payout ID/);
	} finally {
		await service.close();
	}
	expect(expectStableColumns(checkedRows)).toEqual([
		'executed',
		'executedOrReplaced',
		'notPosted',
		'proposed',
		'refused',
	]);
});

test("a Safe API that hides the first proposal's execution and names a made-up one in its place, confirmed by the node the API names: executedOrReplaced, never replaced (not paid), unless a pinned node confirms it", async () => {
	const [first] = await safeEntries();
	const own = String(first.transactionHash);
	const nonce = String(first.nonce);
	const servicePath = new URL(devnet.safe.serviceUrl).pathname;
	const stored = (await (
		await fetch(`${devnet.safe.serviceUrl}/api/v1/multisig-transactions/${own}/`)
	).json()) as IDataObject;
	// The made-up transaction of the same nonce, hashed by the Safe itself so that its fields check out.
	const madeUp = { ...stored, ...transfer(OTHER, 1n), operation: 0 };
	const safeAbi = new Interface([
		'function getTransactionHash(address,uint256,bytes,uint8,uint256,uint256,uint256,address,address,uint256) view returns (bytes32)',
	]);
	const madeUpHash = await devnet.rpc<string>(CHAIN, 'eth_call', [
		{
			to: devnet.safe.address,
			data: safeAbi.encodeFunctionData('getTransactionHash', [
				madeUp.to,
				madeUp.value,
				madeUp.data,
				0,
				stored.safeTxGas,
				stored.baseGas,
				stored.gasPrice,
				stored.gasToken,
				stored.refundReceiver,
				nonce,
			]),
		},
		'latest',
	]);
	proxy.tamper(Infinity, `${servicePath}/api/v1/`, (body) => {
		const answer = body as IDataObject;
		if (Array.isArray(answer.results))
			return {
				count: 1,
				next: null,
				previous: null,
				results: [
					{
						...madeUp,
						safeTxHash: madeUpHash,
						isExecuted: true,
						isSuccessful: true,
						transactionHash: executed.transactionHash,
					},
				],
			};
		return answer.safeTxHash === own
			? { ...answer, isExecuted: false, isSuccessful: null, transactionHash: null }
			: answer;
	});
	// The node the API names: the execution's receipt, its Safe event naming the made-up safeTxHash.
	const receipt = await devnet.rpc<IDataObject>(CHAIN, 'eth_getTransactionReceipt', [
		executed.transactionHash,
	]);
	const lied = JSON.parse(
		JSON.stringify(receipt).replace(new RegExp(own.slice(2), 'gi'), madeUpHash.slice(2)),
	) as IDataObject;
	const rpcUrl = devnet.chains.find((chain) => chain.chainId === CHAIN)!.rpcUrl;
	const liar = await startLyingFront(rpcUrl, (_path, body) => {
		const { id, method, params } = body as { id: number; method: string; params: string[] };
		return method === 'eth_getTransactionReceipt' &&
			params[0].toLowerCase() === executed.transactionHash.toLowerCase()
			? { jsonrpc: '2.0', id, result: lied }
			: undefined;
	});
	const api = await startLyingFront(devnet.baseUrl, (path) =>
		path === '/chain/getpublicrpc'
			? { status: 200, msg: 'success', data: { rpc: liar.url } }
			: undefined,
	);
	try {
		const [viaApiNode] = await check([first], { viaProxy: true, api: api.url });
		expect(viaApiNode).toMatchObject({
			chainStatus: 'executedOrReplaced',
			replacedBy: '',
			statusMessage: `the Safe API names ${madeUpHash} as executed in this proposal's place, as the chain's JSON-RPC node the API names confirms (RPC URLs pins none for chain ${CHAIN}), and a node that lies can confirm an execution that never was: pin the chain's node in the credential's RPC URLs and check again; never read this as unpaid`,
		});
		// The pinned node confirms no such execution.
		const [viaPinned] = await check([first], { viaProxy: true });
		expect(viaPinned.chainStatus).toBe('executedOrReplaced');
		expect(viaPinned.statusMessage).toMatch(/the chain confirms no execution the Safe API names/);
	} finally {
		proxy.stop();
		await api.close();
		await liar.close();
	}
});
