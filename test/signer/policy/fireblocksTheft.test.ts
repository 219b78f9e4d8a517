/**
 * Thefts through Fireblocks (Custodian) in Expand Signer, tried against the devnet's stand-in by an
 * attacker who controls the Expand write's answer (the input item), Fireblocks' answers (a lookup that
 * returns another transaction), or the payout ledger folder. Each must be refused before any create
 * reaches Fireblocks (the stand-in's own request log counts them), or at the comparison of what
 * Fireblocks holds with the payout's create request; nothing moves on the chain. Then exactly once:
 * two executions of one payout ID at once create one transaction, a payout ID reused for other content
 * is refused, and a rerun after REJECTED creates nothing and says to use a new payout ID.
 */
import { createHash } from 'crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { getAddress, Interface, MaxUint256 } from 'ethers';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../../devnet';
import { signFireblocksRequest } from '../../../devnet/custody/fireblocks';
import { useDevnet } from '../../helpers/useDevnet';
import { createNative, runFireblocks } from '../actions/fireblocks/fireblocksRun';

const RECIPIENT = getAddress('0x' + 'd5'.repeat(20));
const OUTSIDER = getAddress('0x' + 'be'.repeat(20));
const erc20 = new Interface([
	'function transfer(address,uint256)',
	'function approve(address,uint256)',
]);

const ledger = mkdtempSync(join(tmpdir(), 'fireblocks-theft-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledger;

let devnet: Devnet;
useDevnet((started) => (devnet = started));
afterAll(() => rmSync(ledger, { recursive: true, force: true }));

const run = async (items: IDataObject[], parameters: INodeParameters, policy: IDataObject = {}) =>
	await runFireblocks(devnet, ledger, items, parameters, { policy });
const vault = () => devnet.fireblocks.addresses['31337'];
const usdc = () => devnet.fireblocks.assets.USDC_DEVNET.address as string;
const errorOf = (json: IDataObject) => String(json.error ?? '');
/** Every request the stand-in received, and the creates among them. */
const requestCount = () => devnet.fireblocks.requests.length;
const createRequests = () =>
	devnet.fireblocks.requests.filter(
		(request) => request.method === 'POST' && request.path === '/v1/transactions',
	).length;
const heldUnder = (payoutId: string) =>
	devnet.fireblocks.transactions().filter((tx) => tx.externalTxId === payoutId);

/** An Expand write's item: the transaction and the intent beside it. */
const expandWrite = (tx: IDataObject, intent: IDataObject) => ({
	chainId: '31337',
	from: vault(),
	data: '0x',
	value: '0',
	...tx,
	intent: {
		operation: 'transfer',
		effect: 'transfer',
		chainId: '31337',
		sender: vault(),
		token: 'native',
		...intent,
	},
});
const fromInput = (payoutId: string) => ({
	operation: 'createTransaction',
	source: 'input',
	payoutId,
});

beforeEach(() => {
	devnet.fireblocks.autoApprove = false;
	devnet.fireblocks.faults.tamperedAnswers.clear();
});

describe('the Expand write answer is the attacker', () => {
	it('a changed recipient, a multiplied amount, a token sent elsewhere, an approval, another sender or chain: refused, nothing sent to Fireblocks', async () => {
		const before = requestCount();
		const amount = 1000n;
		const items = [
			// The transaction pays an outsider; the intent names the recipient.
			expandWrite({ to: OUTSIDER, value: '1000' }, { recipient: RECIPIENT, amount: '1000' }),
			// The answer multiplied the amount by a thousand.
			expandWrite({ to: RECIPIENT, value: '1000000' }, { recipient: RECIPIENT, amount: '1000' }),
			// A token transfer whose call data pays an outsider.
			expandWrite(
				{ to: usdc(), data: erc20.encodeFunctionData('transfer', [OUTSIDER, amount]) },
				{ recipient: RECIPIENT, amount: amount.toString(), token: usdc() },
			),
			// A substituted transaction: an unlimited approval to the outsider for a transfer intent.
			expandWrite(
				{ to: usdc(), data: erc20.encodeFunctionData('approve', [OUTSIDER, MaxUint256]) },
				{ recipient: RECIPIENT, amount: amount.toString(), token: usdc() },
			),
			// The intent's chain is not the transaction's.
			expandWrite(
				{ to: RECIPIENT, value: '1000' },
				{ recipient: RECIPIENT, amount: '1000', chainId: '1' },
			),
		];
		const out = await run(items, fromInput('={{ "fbt-write-" + $itemIndex }}'));
		expect(errorOf(out[0])).toMatch(/recipient/);
		expect(errorOf(out[1])).toMatch(/amount/);
		expect(errorOf(out[2])).toMatch(/recipient/);
		expect(errorOf(out[3])).toMatch(/Refused/);
		expect(errorOf(out[4])).toMatch(/chain/);
		for (const [index, json] of out.entries()) {
			expect(errorOf(json)).toMatch(new RegExp(`\\(item ${index}\\)`));
			expect(json.fireblocksId).toBeUndefined();
		}
		expect(requestCount()).toBe(before);
	});

	it('a sender other than the vault, in the transaction or its intent: refused before any create', async () => {
		const creates = createRequests();
		const out = await run(
			[
				expandWrite(
					{ to: RECIPIENT, value: '1000', from: OUTSIDER },
					{ recipient: RECIPIENT, amount: '1000', sender: OUTSIDER },
				),
				expandWrite(
					{ to: RECIPIENT, value: '1000' },
					{ recipient: RECIPIENT, amount: '1000', sender: OUTSIDER },
				),
			],
			fromInput('={{ "fbt-sender-" + $itemIndex }}'),
		);
		for (const json of out)
			expect(errorOf(json)).toMatch(/not the Fireblocks vault account 0's address|sender/);
		expect(createRequests()).toBe(creates);
		expect(heldUnder('fbt-sender-0')).toHaveLength(0);
	});

	it('no intent under Require Intent, a recipient off the allowlist, an amount over the cap: refused with no request at all', async () => {
		const before = requestCount();
		const [bare] = await run(
			[{ chainId: '31337', to: RECIPIENT, value: '1000', data: '0x', from: vault() }],
			fromInput('fbt-bare'),
			{ requireIntent: true },
		);
		expect(errorOf(bare)).toMatch(/intent/i);
		const [off] = await run([{}], createNative('fbt-off', OUTSIDER, '1000'), {
			allowedRecipients: RECIPIENT,
		});
		expect(errorOf(off)).toMatch(/not on the allowed list/);
		const [over] = await run([{}], createNative('fbt-over', RECIPIENT, '3000000000000000000'), {
			maxPerTransaction: 'native = 2',
		});
		expect(errorOf(over)).toMatch(/Refused by the rule "maxPerTransaction"/);
		expect(requestCount()).toBe(before);
	});
});

describe("Fireblocks' answers are the attacker", () => {
	it('a lookup answering another destination, amount or asset under the payout ID: refused at the comparison, no create', async () => {
		const cases: Array<[string, Record<string, unknown>, RegExp]> = [
			[
				'fbt-lie-dest',
				{
					destinationAddress: OUTSIDER,
					destination: { type: 'ONE_TIME_ADDRESS', oneTimeAddress: { address: OUTSIDER } },
				},
				/destination|address/i,
			],
			[
				'fbt-lie-amount',
				{ amount: 1000, amountInfo: { amount: '1000', requestedAmount: '1000' } },
				/amount/i,
			],
			['fbt-lie-asset', { assetId: 'USDC_DEVNET' }, /asset/i],
		];
		for (const [payoutId, lie, field] of cases) {
			const [first] = await run([{}], createNative(payoutId, RECIPIENT, '1000'));
			expect(first).toMatchObject({ created: true, status: 'PENDING_AUTHORIZATION' });
			devnet.fireblocks.faults.tamperedAnswers.set(payoutId, lie);
			const creates = createRequests();
			const [again] = await run([{}], createNative(payoutId, RECIPIENT, '1000'));
			expect(errorOf(again)).toMatch(
				new RegExp(
					`Refused by the rule "payoutId": Fireblocks holds transaction ${String(first.fireblocksId)} under externalTxId "${payoutId}" with .*not the payout's.*check it at Fireblocks before anyone approves it`,
				),
			);
			expect(errorOf(again)).toMatch(field);
			expect(createRequests()).toBe(creates);
			expect(heldUnder(payoutId)).toHaveLength(1);
		}
	});

	it('a transaction someone else created under the payout ID, to an outsider: refused, never approved as the payout', async () => {
		// Created straight at Fireblocks under the payout ID the workflow will use.
		const body = JSON.stringify({
			operation: 'TRANSFER',
			assetId: 'ETH_DEVNET',
			amount: '0.000000000000001',
			source: { type: 'VAULT_ACCOUNT', id: '0' },
			destination: { type: 'ONE_TIME_ADDRESS', oneTimeAddress: { address: OUTSIDER } },
			externalTxId: 'fbt-planted',
		});
		const token = signFireblocksRequest({
			apiKey: devnet.fireblocks.apiKey,
			privateKeyPem: devnet.fireblocks.privateKeyPem,
			uri: '/v1/transactions',
			body,
		});
		const planted = await fetch(`${devnet.fireblocks.url}/v1/transactions`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-api-key': devnet.fireblocks.apiKey,
				authorization: `Bearer ${token}`,
			},
			body,
		});
		expect(planted.status).toBe(200);
		const creates = createRequests();
		const [out] = await run([{}], createNative('fbt-planted', RECIPIENT, '1000'));
		expect(errorOf(out)).toMatch(
			/Refused by the rule "payoutId": Fireblocks holds transaction .* under externalTxId "fbt-planted" with destination/,
		);
		expect(createRequests()).toBe(creates);
	});

	it('a create whose answer is lost, then a lookup answering another transaction: refused, one transaction', async () => {
		devnet.fireblocks.faults.dropCreateAnswers = 1;
		devnet.fireblocks.faults.tamperedAnswers.set('fbt-lost-lie', { destinationAddress: OUTSIDER });
		const [out] = await run([{}], createNative('fbt-lost-lie', RECIPIENT, '1000'));
		expect(errorOf(out)).toMatch(
			/Refused by the rule "payoutId": Fireblocks holds transaction .* under externalTxId "fbt-lost-lie" with destination/,
		);
		expect(heldUnder('fbt-lost-lie')).toHaveLength(1);
		devnet.fireblocks.faults.tamperedAnswers.clear();
		const creates = createRequests();
		const [rerun] = await run([{}], createNative('fbt-lost-lie', RECIPIENT, '1000'));
		expect(rerun).toMatchObject({ repeat: true, created: false, destinationAddress: RECIPIENT });
		expect(createRequests()).toBe(creates);
	});
});

/** The payout ledger's files that hold the create request of `payoutId`. */
function ledgerFilesOf(payoutId: string): string[] {
	const found: string[] = [];
	const walk = (dir: string) => {
		for (const name of readdirSync(dir)) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) walk(path);
			else if (readFileSync(path, 'utf8').includes(`"externalTxId\\":\\"${payoutId}\\"`))
				found.push(path);
		}
	};
	walk(ledger);
	return found;
}

describe('the ledger folder is the attacker', () => {
	it('a create request rewritten to an outsider (its hash recomputed) that Fireblocks never got: refused, nothing created', async () => {
		// Fireblocks fails every create: the request is kept in the ledger and never reaches it.
		devnet.fireblocks.faults.createServerErrors = 1000;
		const [down] = await run([{}], createNative('fbt-ledger', RECIPIENT, '1000'));
		devnet.fireblocks.faults.createServerErrors = 0;
		expect(errorOf(down)).toMatch(/holds no transaction under it: nothing was created/);
		expect(heldUnder('fbt-ledger')).toHaveLength(0);
		const files = ledgerFilesOf('fbt-ledger');
		expect(files.length).toBeGreaterThan(0);
		// Every mention of the recipient rewritten (the request, the call, the content it is bound
		// to), and the request's hash recomputed, as an attacker with the folder can.
		for (const path of files) {
			const text = readFileSync(path, 'utf8')
				.split(RECIPIENT)
				.join(OUTSIDER)
				.split(RECIPIENT.toLowerCase())
				.join(OUTSIDER.toLowerCase());
			const record = JSON.parse(text) as { signed: IDataObject };
			record.signed.transactionHash = createHash('sha256')
				.update(String(record.signed.rawTransaction))
				.digest('hex');
			writeFileSync(path, JSON.stringify(record));
		}
		const creates = createRequests();
		// The rerun of the payout as asked, and one whose input the attacker changed to match.
		const [rerun] = await run([{}], createNative('fbt-ledger', RECIPIENT, '1000'));
		const [matching] = await run([{}], createNative('fbt-ledger', OUTSIDER, '1000'), {
			allowedRecipients: RECIPIENT,
		});
		expect(errorOf(rerun)).toMatch(
			/^Refused by the rule "payoutId": payout ID "fbt-ledger" was already sent to Fireblocks .* for other content \(asset, amount, recipient or call data\)/,
		);
		expect(errorOf(matching)).toMatch(/not on the allowed list/);
		expect(createRequests()).toBe(creates);
		expect(heldUnder('fbt-ledger')).toHaveLength(0);
	});
});

describe('exactly once', () => {
	it('two executions with one payout ID at once create one transaction', async () => {
		const outs = await Promise.all([
			run([{}], createNative('fbt-race', RECIPIENT, '1000')),
			run([{}], createNative('fbt-race', RECIPIENT, '1000')),
		]);
		expect(heldUnder('fbt-race')).toHaveLength(1);
		const ids = outs.map(([json]) => json.fireblocksId).filter(Boolean);
		expect(ids.length).toBeGreaterThan(0);
		for (const id of ids) expect(id).toBe(heldUnder('fbt-race')[0].id);
		// Each execution either returns the one transaction or is refused naming the other's work.
		for (const [json] of outs) if (!json.fireblocksId) expect(errorOf(json)).toMatch(/fbt-race/);
	});

	it('a payout ID reused for another recipient or amount is refused before any request', async () => {
		await run([{}], createNative('fbt-reuse', RECIPIENT, '1000'));
		const before = requestCount();
		const [other] = await run([{}], createNative('fbt-reuse', OUTSIDER, '1000'));
		const [more] = await run([{}], createNative('fbt-reuse', RECIPIENT, '1001'));
		for (const json of [other, more])
			expect(errorOf(json)).toMatch(/payout ID "fbt-reuse" was already sent to Fireblocks/);
		expect(heldUnder('fbt-reuse')).toHaveLength(1);
		expect(
			devnet.fireblocks.requests.slice(before).filter((request) => request.method === 'POST'),
		).toEqual([]);
	});

	it('a rerun after REJECTED creates nothing and says to use a new payout ID', async () => {
		const [first] = await run([{}], createNative('fbt-rejected', RECIPIENT, '1000'));
		devnet.fireblocks.reject(String(first.fireblocksId), 'wrong invoice');
		const creates = createRequests();
		const [rerun] = await run([{}], createNative('fbt-rejected', RECIPIENT, '1000'));
		expect(rerun).toMatchObject({
			fireblocksId: first.fireblocksId,
			status: 'REJECTED',
			settlement: 'failed',
			repeat: true,
			created: false,
			statusMessage: expect.stringMatching(
				/ended at Fireblocks as REJECTED.*: nothing moved; payout ID "fbt-rejected" stays bound to Fireblocks transaction \S+ and is never created again: to pay it, run it under a new payout ID/,
			),
		});
		expect(createRequests()).toBe(creates);
		expect(heldUnder('fbt-rejected')).toHaveLength(1);
	});
});
