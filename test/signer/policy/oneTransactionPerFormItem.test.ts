/**
 * One form item, one transaction (issue 32). An API that controls its answers answers one Fungible
 * Token Transfer form item (1 USDC) with five copies of the transaction: each copy matches the intent,
 * so a Signer that binds only what a transaction does signs all five (each with its own nonce) and the
 * recipient gets 5 USDC. Shown first as it was (the items an earlier Expand output: five copies of an
 * intent without a form item), then refused twice over: Expand refuses an answer of none or several
 * transactions for a form item, and the Signer (Sign Transaction on EVM and Solana, Propose to Safe)
 * signs at most one transaction per form item, also when the Expand side is bypassed (copies forged
 * with the same form item), in one execution and, with a payout ledger, across executions.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { getAddress, JsonRpcProvider } from 'ethers';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeExecutionData,
	INodeParameters,
} from 'n8n-workflow';

import type { Devnet } from '../../../devnet';
import { TransactionIdBindings } from '../../../packages/signer/nodes/ExpandSigner/ledger/transactionIds';
import { balanceOf } from '../../helpers/chainReads';
import { LEDGER_STORES, ledgerStores } from '../../helpers/ledgerStores';
import { EXPAND, ITEMS, SIGNER, runPipeline, runWorkflow } from '../../helpers/n8n';
import { startTamperingApi, type Tampering } from '../../helpers/tamperingApi';
import { devnetAccount, devnetExpandApi, devnetSignerKey } from '../../helpers/devnetCredentials';
import { useDevnet } from '../../helpers/useDevnet';

const TREASURY_INDEX = 1;
/** Another devnet wallet that holds USDC (devnet/fixtures.ts). */
const BOB_INDEX = 2;
/** The Safe's delegate (devnet/safe/deploy.ts SAFE_DELEGATE_INDEX). */
const DELEGATE_INDEX = 20;
const RECIPIENT = getAddress('0x' + 'c1'.repeat(20));
const SECOND = getAddress('0x' + 'c2'.repeat(20));
const SAFE_PAYEE = getAddress('0x' + 'c3'.repeat(20));
const LEDGER_PAYEE = getAddress('0x' + 'c4'.repeat(20));
const FIRST_RUN_PAYEE = getAddress('0x' + 'c5'.repeat(20));
const SECOND_RUN_PAYEE = getAddress('0x' + 'c6'.repeat(20));

const root = mkdtempSync(join(tmpdir(), 'expand-form-item-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = root;
const stores = ledgerStores(root);

let devnet: Devnet;
useDevnet((started) => (devnet = started));
afterAll(() => {
	rmSync(root, { recursive: true, force: true });
});

const chain = () => devnet.chains.find((entry) => entry.chainId === '31337')!;
const usdc = () => getAddress(chain().tokens.USDC.address);
const provider = () => new JsonRpcProvider(chain().rpcUrl, 31337, { staticNetwork: true });
const treasury = () => devnetAccount(TREASURY_INDEX).address;
const usdcOf = async (owner: string) => await balanceOf(devnet, '31337', owner, usdc());

/** The devnet's key, its chain node pinned: the decimals of amounts typed in whole units are checked there. */
const evmKey = (fields: IDataObject = {}): ICredentialDataDecryptedObject =>
	devnetSignerKey({
		rpcUrls: `${devnet.chains[0].chainId} = ${devnet.chains[0].rpcUrl}`,
		...fields,
	});

const credentials = (api: string, key: Record<string, ICredentialDataDecryptedObject>) => ({
	expandApi: devnetExpandApi(devnet, { baseUrl: api }),
	...key,
});

/** The form: a USDC transfer (in whole units) from `from` to each item's `to`. */
const transferForm = (from: string) => ({
	resource: 'fungibletoken',
	operation: 'transfer',
	chainId: '31337',
	from,
	to: '={{ $json.to }}',
	tokenAddress: chain().tokens.USDC.address,
	amount: '={{ $json.amount }}',
	gas: '80000',
});

/** Expand (version 2) on the form items through `api`, Continue On Fail: its output items. */
async function build(
	api: string,
	items: IDataObject[],
	from = treasury(),
	typeVersion = 2,
): Promise<INodeExecutionData[]> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{
				name: 'Build',
				type: EXPAND,
				typeVersion,
				parameters: transferForm(from),
				continueOnFail: true,
			},
		],
		credentials(api, {}),
	);
	if (result.error) throw result.error;
	return result.output('Build');
}

/** The Signer alone on `items` (Continue On Fail), as it gets them from whatever precedes it. */
async function sign(
	items: IDataObject[],
	parameters: INodeParameters,
	key: Record<string, ICredentialDataDecryptedObject>,
): Promise<IDataObject[]> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{ name: 'Sign', type: SIGNER, parameters, continueOnFail: true },
		],
		credentials(devnet.baseUrl, key),
	);
	if (result.error) throw result.error;
	return result.output('Sign').map((item) => item.json);
}

const SIGN_EVM = {
	operation: 'signTransaction',
	source: 'input',
	accountIndex: TREASURY_INDEX,
	payoutId: "={{ $json.payoutId ?? '' }}",
};

async function withApi<T>(tampering: Tampering, run: (url: string) => Promise<T>): Promise<T> {
	const api = await startTamperingApi(devnet.baseUrl, tampering);
	try {
		return await run(api.url);
	} finally {
		await api.close();
	}
}

/** The API answers the transfer to RECIPIENT with `count` copies of what it built. */
const copies = (count: number): Tampering => ({
	answer: (path, answer, asked) =>
		path === '/fungibletoken/transfer' && asked.to === RECIPIENT
			? { ...answer, data: Array.from({ length: count }, () => answer.data) }
			: undefined,
});

/** An intent as an Expand before form items wrote it. */
const withoutFormItem = (item: IDataObject): IDataObject => {
	const { formItem: _formItem, ...intent } = item.intent as IDataObject;
	return { ...item, intent };
};

const formItemOf = (item: IDataObject) => (item.intent as IDataObject).formItem as IDataObject;

/** The refusal of the 2nd and later copies of a form item, as the Signer words it. */
const secondRefusal = (built: IDataObject, first: string, itemIndex: number, payoutId?: string) =>
	new RegExp(
		`^Refused by the rule "oneTransactionPerFormItem": form item 0 of node "Build" in execution ${formItemOf(built).executionId} asked for one transaction and ${first} was signed for it on [0-9TZ:.-]+; this is another${payoutId ? ` \\(payout ID "${payoutId}"\\)` : ''}, which an API answering one form item with several transactions would make; nothing was signed \\(item ${itemIndex}\\)$`,
	);

/** The same refusal for a Safe proposal, which names the proposal by its safeTxHash. */
const secondProposalRefusal = (built: IDataObject, first: string, itemIndex: number) =>
	new RegExp(
		secondRefusal(built, first, itemIndex).source.replace(
			`${first} was signed for it`,
			`it was proposed to the Safe as safeTxHash ${first}`,
		),
	);

async function sendAll(signed: IDataObject[]): Promise<void> {
	for (const item of signed)
		await (await provider().broadcastTransaction(item.rawTransaction as string)).wait();
}

test('an API answers one 1 USDC form item with five copies: as an earlier Expand output them, the Signer signed all five and 5 USDC moved; Expand now refuses the answer naming the count and the item, and the other form item goes on', async () => {
	const [honest] = await build(devnet.baseUrl, [{ to: RECIPIENT, amount: '1' }]);
	expect(honest.json.error).toBeUndefined();
	// What an Expand before this rule output for the five-copy answer: five items, one intent without a form item.
	const earlier = Array.from({ length: 5 }, () => withoutFormItem(honest.json));
	const before = await usdcOf(RECIPIENT);
	const theft = await sign(earlier, SIGN_EVM, { expandSignerApi: evmKey() });
	expect(theft.map((item) => item.error)).toEqual([
		undefined,
		undefined,
		undefined,
		undefined,
		undefined,
	]);
	await sendAll(theft);
	expect((await usdcOf(RECIPIENT)) - before).toBe(5_000_000n);

	const built = await withApi(
		copies(5),
		async (url) =>
			await build(url, [
				{ to: RECIPIENT, amount: '1' },
				{ to: SECOND, amount: '1' },
			]),
	);
	expect(built).toHaveLength(2);
	expect(built[0]).toEqual({
		json: {
			error:
				'The API answered 5 unsigned transactions in 5 records to this Fungible Token Transfer form item, which asks for exactly one; nothing of the answer is output, so nothing of it can be signed (item 0)',
		},
		pairedItem: { item: 0 },
	});
	expect(built[1].pairedItem).toEqual({ item: 1 });
	expect(built[1].json.intent).toMatchObject({
		recipient: SECOND,
		amount: '1000000',
		formItem: { node: 'Build', item: 1, index: 0, count: 1 },
	});
});

test('an API answers a form item with no transaction: refused naming the count; version 1 of Expand refuses none and several too', async () => {
	const refusal = (count: number) => [
		{
			json: {
				error: `The API answered ${count} unsigned transactions in ${count} records to this Fungible Token Transfer form item, which asks for exactly one; nothing of the answer is output, so nothing of it can be signed (item 0)`,
			},
			pairedItem: { item: 0 },
		},
	];
	for (const version of [2, 1]) {
		// Version 1 takes the amount in the smallest unit.
		const form = [{ to: RECIPIENT, amount: version === 1 ? '1000000' : '1' }];
		for (const count of [0, 5])
			expect(
				await withApi(copies(count), async (url) => await build(url, form, treasury(), version)),
			).toEqual(refusal(count));
	}
});

test('Expand bypassed, five copies forged with the same form item: the Signer signs the first and refuses the 2nd to 5th naming the form item and the first; 1 USDC moves; a form item moved onto another intent is refused by its digest', async () => {
	const [built] = (await build(devnet.baseUrl, [{ to: RECIPIENT, amount: '1' }])).map(
		(item) => item.json,
	);
	expect(formItemOf(built)).toEqual({
		executionId: expect.stringMatching(/^test-execution-\d+$/),
		nodeId: 'node-1',
		node: 'Build',
		run: 0,
		item: 0,
		index: 0,
		count: 1,
		digest: expect.stringMatching(/^[0-9a-f]{64}$/),
	});
	const before = await usdcOf(RECIPIENT);
	const signed = await sign(
		Array.from({ length: 5 }, () => built),
		SIGN_EVM,
		{ expandSignerApi: evmKey() },
	);
	expect(signed[0].error).toBeUndefined();
	for (const [index, item] of signed.entries())
		if (index > 0)
			expect(item.error).toMatch(secondRefusal(built, String(signed[0].transactionHash), index));
	await sendAll(signed.slice(0, 1));
	expect((await usdcOf(RECIPIENT)) - before).toBe(1_000_000n);

	// The form item's digest is of what the intent asks: moved onto an intent for 5 USDC, it is refused.
	const moved = {
		...built,
		intent: { ...(built.intent as IDataObject), amount: '5000000', amountTyped: '5' },
	};
	const [refused] = await sign([moved], SIGN_EVM, { expandSignerApi: evmKey() });
	expect(refused.error).toMatch(
		/^Refused by the rule "intent": the intent's form item \(form item 0 of node "Build" in execution test-execution-\d+\) carries the digest [0-9a-f]{64}, but what the intent asks digests to [0-9a-f]{64}: the form item was written for another intent; nothing was signed \(item 0\)$/,
	);
});

test('Require Intent = Always refuses an intent without a form item; Auto signs it as before, held to what it says', async () => {
	const [built] = (await build(devnet.baseUrl, [{ to: SECOND, amount: '1' }])).map(
		(item) => item.json,
	);
	const [always] = await sign([withoutFormItem(built)], SIGN_EVM, {
		expandSignerApi: evmKey({ requireIntent: 'always' }),
	});
	expect(always.error).toBe(
		`Refused by the rule "requireIntent": the intent names no form item (formItem), so the transaction cannot be held to one transaction per form item; sign what an Expand node 0.2.0 or later built, or set Require Intent to "When a Spending Rule Is Set" on the credential; nothing was signed (item 0)`,
	);
	const [auto] = await sign([withoutFormItem(built)], SIGN_EVM, { expandSignerApi: evmKey() });
	expect(auto.error).toBeUndefined();
	const [bound] = await sign([built], SIGN_EVM, {
		expandSignerApi: evmKey({ requireIntent: 'always' }),
	});
	expect(bound.error).toBeUndefined();
});

describe.each(LEDGER_STORES)('with a %s payout ledger', (kind) => {
	test('two executions signing copies of one form item at once: one is signed, the other refused', async () => {
		const ledger = await stores.newLedger(kind);
		const key = { expandSignerApi: evmKey(ledger.fields) };
		const [built] = (await build(devnet.baseUrl, [{ to: LEDGER_PAYEE, amount: '1' }])).map(
			(item) => item.json,
		);
		// An explicit nonce (not claimed), and the transaction hash's own binding (oneItemPerTransaction,
		// which refuses the same bytes too) passed through, so that only the form item's record stands between the two.
		const nonce = await provider().getTransactionCount(treasury(), 'pending');
		const hashBinding = jest
			.spyOn(TransactionIdBindings.prototype, 'once')
			.mockImplementation(async (_chainId, _hash, _itemIndex, _signedFor, sign) => await sign());
		const both = await Promise.all(
			['a', 'b'].map(
				async (row) =>
					(await sign([{ ...built, nonce, payoutId: `race-${row}-${kind}` }], SIGN_EVM, key))[0],
			),
		).finally(() => hashBinding.mockRestore());
		const signed = both.filter((item) => item.error === undefined);
		expect(signed).toHaveLength(1);
		const refused = both.find((item) => item.error !== undefined) as IDataObject;
		expect(refused.error).toMatch(
			/^Refused by the rule "oneTransactionPerFormItem": form item 0 of node "Build" in execution test-execution-\d+ asked for one transaction and /,
		);
		expect(
			(await ledger.names()).filter((name) => name.startsWith('expand-formitem-')),
		).toHaveLength(1);
	});

	test('one transaction per form item across executions: a copy under another payout ID is refused naming the first, the same payout ID is a repeat', async () => {
		const ledger = await stores.newLedger(kind);
		const key = { expandSignerApi: evmKey(ledger.fields) };
		const [built] = (await build(devnet.baseUrl, [{ to: LEDGER_PAYEE, amount: '1' }])).map(
			(item) => item.json,
		);
		const before = await usdcOf(LEDGER_PAYEE);
		// Execution 1 signs the first copy, as the workflow paired it with row 1.
		const [first] = await sign([{ ...built, payoutId: `row-1-${kind}` }], SIGN_EVM, key);
		expect(first).toMatchObject({ repeat: false, payoutId: `row-1-${kind}` });
		// Execution 2 (a rerun, another worker) gets the other copies paired with other rows.
		const second = await sign(
			[{ ...built, payoutId: `row-2-${kind}` }, { ...built, payoutId: `row-1-${kind}` }, built],
			SIGN_EVM,
			key,
		);
		expect(second[0].error).toMatch(
			new RegExp(
				secondRefusal(built, String(first.transactionHash), 0, `row-2-${kind}`).source.replace(
					'was signed for it on',
					`was signed for it under payout ID "row-1-${kind}" on`,
				),
			),
		);
		expect(second[1]).toMatchObject({
			repeat: true,
			transactionHash: first.transactionHash,
			payoutId: `row-1-${kind}`,
		});
		expect(second[2].error).toMatch(
			new RegExp(
				secondRefusal(built, String(first.transactionHash), 2).source.replace(
					'was signed for it on',
					`was signed for it under payout ID "row-1-${kind}" on`,
				),
			),
		);
		expect(
			(await ledger.names()).filter((name) => name.startsWith('expand-formitem-')),
		).toHaveLength(1);
		await sendAll([first]);
		expect((await usdcOf(LEDGER_PAYEE)) - before).toBe(1_000_000n);
	});

	test('a kept form item signed in later executions by two credentials holding one key: on the same ledger the second is refused; on another ledger it is signed again, so every credential must share one Ledger Store', async () => {
		const shared = await stores.newLedger(kind);
		const other = await stores.newLedger(kind);
		const payee = getAddress('0x' + (kind === 'folder' ? 'c7' : 'c8').repeat(20));
		const [built] = (await build(devnet.baseUrl, [{ to: payee, amount: '1' }])).map(
			(item) => item.json,
		);
		const before = await usdcOf(payee);
		const [payroll] = await sign([built], SIGN_EVM, {
			expandSignerApi: evmKey(shared.fields),
		});
		expect(payroll).toMatchObject({ repeat: false });
		await sendAll([payroll]);
		// "Refunds": the same key and the same ledger, another policy: the form item's record is the ledger's, not the credential's.
		const [refunds] = await sign([built], SIGN_EVM, {
			expandSignerApi: evmKey({ ...shared.fields, maxPerTransaction: `${usdc()}:6 = 5` }),
		});
		expect(refunds.error).toMatch(secondRefusal(built, String(payroll.transactionHash), 0));
		// The same key on another ledger does not see the record: the form item is paid twice.
		const [elsewhere] = await sign([built], SIGN_EVM, { expandSignerApi: evmKey(other.fields) });
		expect(elsewhere.error).toBeUndefined();
		await sendAll([elsewhere]);
		expect((await usdcOf(payee)) - before).toBe(2_000_000n);
	});
});

/** Every proposal the Safe Transaction Service stand-in holds for the Safe. */
async function storedProposals(): Promise<IDataObject[]> {
	const response = await fetch(
		`${devnet.safe.serviceUrl}/api/v1/safes/${devnet.safe.address}/multisig-transactions/?limit=100`,
	);
	return ((await response.json()) as { results: IDataObject[] }).results;
}

test('Propose to Safe: five copies of an intent without a form item were five proposals, each a 1 USDC payment once confirmed; five copies of one form item are one proposal and four refusals, and a later execution is refused too', async () => {
	const safe = devnet.safe.address;
	const [built] = (await build(devnet.baseUrl, [{ to: SAFE_PAYEE, amount: '1' }], safe)).map(
		(item) => item.json,
	);
	expect(built.error).toBeUndefined();
	const propose = {
		operation: 'proposeToSafe',
		safeAddress: safe,
		source: 'input',
		accountIndex: DELEGATE_INDEX,
	};
	const safeKey = {
		expandSignerApi: evmKey(),
		expandSafeApi: { serviceUrl: devnet.safe.serviceUrl, apiKey: '', maxRequestsPerSecond: 5 },
	};
	const stored = (await storedProposals()).length;
	const earlier = await sign(
		Array.from({ length: 5 }, () => withoutFormItem(built)),
		propose,
		safeKey,
	);
	expect(earlier.map((item) => item.error)).toEqual([
		undefined,
		undefined,
		undefined,
		undefined,
		undefined,
	]);
	expect(new Set(earlier.map((item) => item.safeTxHash)).size).toBe(5);
	expect((await storedProposals()).length).toBe(stored + 5);
	// Confirmed and executed by the owners, in nonce order, each pays: 5 USDC for a 1 USDC form item.
	const before = await usdcOf(SAFE_PAYEE);
	for (const item of earlier) await devnet.safe.confirmAndExecute(String(item.safeTxHash));
	expect((await usdcOf(SAFE_PAYEE)) - before).toBe(5_000_000n);

	// With a payout ledger, so that a later execution is bound too.
	const ledgerKey = {
		...safeKey,
		expandSignerApi: evmKey((await stores.newLedger('folder')).fields),
	};
	const bound = await sign(
		Array.from({ length: 5 }, () => built),
		propose,
		ledgerKey,
	);
	expect(bound[0].error).toBeUndefined();
	for (const [index, item] of bound.entries())
		if (index > 0)
			expect(item.error).toMatch(secondProposalRefusal(built, String(bound[0].safeTxHash), index));
	const [later] = await sign([built], propose, ledgerKey);
	expect(later.error).toMatch(secondProposalRefusal(built, String(bound[0].safeTxHash), 0));
	expect((await storedProposals()).length).toBe(stored + 6);
});

/** The USDC a Solana wallet holds, through the devnet's API. */
async function solanaUsdcOf(owner: string): Promise<bigint> {
	const reply = await fetch(
		`${devnet.baseUrl}/chain/getbalance?chainId=${devnet.solana.chainId}&address=${owner}&tokenAddress=${devnet.solana.usdc.address}`,
		{ headers: { 'x-api-key': devnet.apiKey } },
	);
	return BigInt(((await reply.json()) as { data: { balance: string } }).data.balance);
}

test('Solana: five transfers answered for one 1 USDC form item (each on its own blockhash) were all signed and paid 5 USDC with an intent without a form item; with the form item, one is signed and four refused, and a later execution is refused too', async () => {
	const solana = devnet.solana;
	const payer = solana.wallets[2];
	const recipient = solana.wallets[3].address;
	const form = {
		resource: 'fungibletoken',
		operation: 'transfer',
		chainId: solana.chainId,
		token: solana.usdc.address,
		sender: payer.address,
		destination: recipient,
		feePayer: payer.address,
		decimals: '6',
		amount: '1000000',
		amountsIn: 'smallest',
	};
	/** Five transactions of the one transfer the API builds, a block apart: five signatures, five payments. */
	const fiveBuilt = async (): Promise<IDataObject[]> => {
		const built: IDataObject[] = [];
		for (let copy = 0; copy < 5; copy++) {
			const result = await runPipeline(
				[
					{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{}]) } },
					{ name: 'Build', type: EXPAND, typeVersion: 2, parameters: form },
				],
				credentials(devnet.baseUrl, {}),
			);
			if (result.error) throw result.error;
			built.push(result.output('Build')[0].json);
			solana.chain.mine();
		}
		return built;
	};
	const signSolana = {
		chainFamily: 'solana',
		solanaChainId: solana.chainId,
		operation: 'signTransaction',
	};
	const key = {
		expandSolanaKeyApi: {
			keyType: 'secretKey',
			secretKey: payer.secretKey,
			rpcUrls: `${solana.chainId} = ${solana.rpcUrl}`,
		},
	};

	// What a Signer holding each transaction to the intent alone signed: five of the first form item's.
	const earlier = await fiveBuilt();
	const asked = withoutFormItem(earlier[0]).intent;
	const before = await solanaUsdcOf(recipient);
	const theft = await sign(
		earlier.map((item) => ({ data: item.data, intent: asked })),
		signSolana,
		key,
	);
	expect(theft.map((item) => item.error)).toEqual([
		undefined,
		undefined,
		undefined,
		undefined,
		undefined,
	]);
	for (const item of theft) solana.chain.sendBase64(String(item.rawTransaction));
	expect((await solanaUsdcOf(recipient)) - before).toBe(5_000_000n);

	const copies = await fiveBuilt();
	const bound = copies[0];
	// With a payout ledger, so that a later execution is bound too.
	const ledgerKey = {
		expandSolanaKeyApi: { ...key.expandSolanaKeyApi, ...(await stores.newLedger('folder')).fields },
	};
	const forged = copies.map((item) => ({ data: item.data, intent: bound.intent }));
	const signed = await sign(forged, signSolana, ledgerKey);
	expect(signed[0].error).toBeUndefined();
	for (const [index, item] of signed.entries())
		if (index > 0)
			expect(item.error).toMatch(secondRefusal(bound, String(signed[0].transactionHash), index));
	const [later] = await sign(forged.slice(1, 2), signSolana, ledgerKey);
	expect(later.error).toMatch(secondRefusal(bound, String(signed[0].transactionHash), 0));
	const paid = await solanaUsdcOf(recipient);
	solana.chain.sendBase64(String(signed[0].rawTransaction));
	expect((await solanaUsdcOf(recipient)) - paid).toBe(1_000_000n);
});

test("a node that runs twice in one execution (two branches into it, a loop) binds each run's form items apart: both payments are signed", async () => {
	const bob = devnetAccount(BOB_INDEX).address;
	const node = (name: string, type: string, parameters: IDataObject, index: number) => ({
		id: `node-${index}`,
		name,
		type,
		typeVersion: type === EXPAND ? 2 : 1,
		position: [index * 200, 0] as [number, number],
		parameters: parameters as INodeParameters,
		credentials: Object.fromEntries(
			['expandApi', 'expandSignerApi'].map((type) => [type, { id: type, name: type }]),
		),
	});
	const to = (target: string) => ({ main: [[{ node: target, type: 'main' as const, index: 0 }]] });
	const result = await runWorkflow(
		[
			node('Start', ITEMS, { items: '[{}]' }, 0),
			node('First', ITEMS, { items: JSON.stringify([{ to: FIRST_RUN_PAYEE, amount: '1' }]) }, 1),
			node(
				'Second',
				ITEMS,
				{ items: JSON.stringify([{ to: SECOND_RUN_PAYEE, amount: '1', from: bob }]) },
				2,
			),
			node('Build', EXPAND, transferForm(`={{ $json.from ?? '${treasury()}' }}`), 3),
			// Each branch pays from its own wallet, so the two Signer runs' automatic nonces do not meet.
			node(
				'Sign',
				SIGNER,
				{
					...SIGN_EVM,
					accountIndex: `={{ $json.from === '${bob}' ? ${BOB_INDEX} : ${TREASURY_INDEX} }}`,
				},
				4,
			),
		],
		{
			Start: {
				main: [
					[
						{ node: 'First', type: 'main', index: 0 },
						{ node: 'Second', type: 'main', index: 0 },
					],
				],
			},
			First: to('Build'),
			Second: to('Build'),
			Build: to('Sign'),
		},
		credentials(devnet.baseUrl, { expandSignerApi: evmKey() }),
	);
	expect(result.error).toBeUndefined();
	const runs = result.run.data.resultData.runData;
	const built = runs.Build.map((run) => run.data?.main?.[0]?.[0]?.json as IDataObject);
	expect(built.map((item) => [formItemOf(item).run, formItemOf(item).item])).toEqual([
		[0, 0],
		[1, 0],
	]);
	const signed = runs.Sign.map((run) => run.data?.main?.[0]?.[0]?.json as IDataObject);
	expect(signed.map((item) => item.error)).toEqual([undefined, undefined]);
	const before = [await usdcOf(FIRST_RUN_PAYEE), await usdcOf(SECOND_RUN_PAYEE)];
	await sendAll(signed);
	expect([
		(await usdcOf(FIRST_RUN_PAYEE)) - before[0],
		(await usdcOf(SECOND_RUN_PAYEE)) - before[1],
	]).toEqual([1_000_000n, 1_000_000n]);
});

test('a swap per DEX (Swap Aggregator without Best Swap) is alternatives: each answer record comes out with its index and the count, and the Signer signs one of them; a record nesting two transactions is refused', async () => {
	const usdcAddress = usdc();
	const dai = getAddress(chain().tokens.DAI.address);
	// A call the Signer cannot read (to an account without code, so it succeeds): each DEX's "swap".
	const swapOn = (nonce: number) => ({
		chainId: '31337',
		from: treasury(),
		to: getAddress('0x' + 'c7'.repeat(20)),
		value: '0',
		gas: '300000',
		data: `0x${nonce.toString(16).padStart(8, '0')}`,
	});
	const form = {
		resource: 'dex',
		operation: 'swapaggregator',
		chainId: '31337',
		from: treasury(),
		path: `${usdcAddress},${dai}`,
		amountIn: '1',
		to: treasury(),
		gas: '300000',
	};
	const buildSwap = async (data: unknown) =>
		await withApi(
			{
				answer: (path) =>
					path === '/dex/swapaggregator' ? { status: 200, msg: 'success', data } : undefined,
			},
			async (url) => {
				const result = await runPipeline(
					[
						{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{}]) } },
						{ name: 'Build', type: EXPAND, typeVersion: 2, parameters: form, continueOnFail: true },
					],
					credentials(url, {}),
				);
				if (result.error) throw result.error;
				return result.output('Build');
			},
		);
	const alternatives = await buildSwap([
		{ dexId: '1000', transactionPayload: swapOn(1) },
		{ dexId: '1100', transactionPayload: swapOn(2) },
	]);
	expect(alternatives.map((item) => [item.json.dexId, formItemOf(item.json)])).toEqual([
		['1000', expect.objectContaining({ item: 0, index: 0, count: 2 })],
		['1100', expect.objectContaining({ item: 0, index: 1, count: 2 })],
	]);
	const signed = await sign(
		alternatives.map((item) => item.json),
		{ ...SIGN_EVM, transactionField: 'transactionPayload' },
		{ expandSignerApi: evmKey() },
	);
	expect(signed[0].error).toBeUndefined();
	expect(signed[1].error).toMatch(
		secondRefusal(alternatives[0].json, String(signed[0].transactionHash), 1),
	);

	// One alternative to each of two Signer nodes of one execution: the second node refuses its own.
	const signedApart = await runPipeline(
		[
			{ name: 'First', type: ITEMS, parameters: { items: JSON.stringify([alternatives[0].json]) } },
			{
				name: 'Sign 1',
				type: SIGNER,
				parameters: { ...SIGN_EVM, transactionField: 'transactionPayload' },
			},
			{
				name: 'Second',
				type: ITEMS,
				parameters: { items: JSON.stringify([alternatives[1].json]) },
			},
			{
				name: 'Sign 2',
				type: SIGNER,
				parameters: { ...SIGN_EVM, transactionField: 'transactionPayload' },
				continueOnFail: true,
			},
		],
		credentials(devnet.baseUrl, { expandSignerApi: evmKey() }),
	);
	expect(signedApart.error).toBeUndefined();
	const firstNode = signedApart.output('Sign 1')[0].json;
	expect(firstNode.rawTransaction).toEqual(expect.any(String));
	expect(signedApart.output('Sign 2')[0].json.error).toMatch(
		secondRefusal(alternatives[0].json, String(firstNode.transactionHash), 0),
	);

	const nested = await buildSwap({ dexId: '1000', transactionPayload: [swapOn(3), swapOn(4)] });
	expect(nested).toEqual([
		{
			json: {
				error:
					'The API answered 2 unsigned transactions in 1 record to this DEX Swap Aggregator form item, which asks for one transaction per answer record and at least one; nothing of the answer is output, so nothing of it can be signed (item 0)',
			},
			pairedItem: { item: 0 },
		},
	]);
});
