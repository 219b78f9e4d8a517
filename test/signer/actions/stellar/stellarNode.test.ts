/**
 * The Stellar operations through n8n's engine against a Horizon on 127.0.0.1 (pinned in RPC URLs), with
 * a secret seed: items of one execution take the account's sequence numbers one after another; a
 * payout ID returns its transaction on a rerun; Check Payouts reads it pending, then dropped once the
 * chain's time passed its maxTime; Speed Up Payout makes a fee bump of the same transaction while it is
 * pending (same sequence) and signs it again once it can never apply; once Horizon shows the new one
 * applied, it reads mined, the others replaced, a rerun returns it and Speed Up Payout refuses. From
 * Input Item is held to its intent and to the form's account; a sequence an earlier item signed is
 * refused; Max Total Fee bounds the fee.
 *
 * Runs once the chain logic (families/stellar) replaces its stand-in.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import {
	Account,
	Asset,
	Keypair,
	Networks,
	Operation,
	TransactionBuilder,
} from '@stellar/stellar-base';
import type { IDataObject } from 'n8n-workflow';

import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import {
	type Horizon,
	horizonTransaction,
	startHorizon,
	TESTNET_PASSPHRASE,
} from '../../../helpers/horizonServer';

const CHAIN = '1501';
const root = mkdtempSync(join(tmpdir(), 'expand-stellar-node-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = root;

const key = Keypair.random();
const payee = Keypair.random().publicKey();
const realNow = Date.now.bind(Date);
let skew = 0;
const chainNow = () => Math.floor(Date.now() / 1000);

let horizon: Horizon;
beforeAll(async () => {
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + skew);
	horizon = await startHorizon({
		passphrase: TESTNET_PASSPHRASE,
		ledger: { sequence: 10, closedAt: chainNow() },
		accounts: new Map([[key.publicKey(), '4100']]),
		transactions: new Map(),
	});
});
afterAll(async () => {
	await horizon.close();
	jest.restoreAllMocks();
	rmSync(root, { recursive: true, force: true });
});

/** Runs the Signer (and `then` after it) on `items`; the API is never asked: the Horizon is pinned. */
async function signer(
	parameters: IDataObject,
	options: { items?: IDataObject[]; then?: IDataObject } = {},
): Promise<IDataObject[]> {
	const step = (name: string, stepParameters: IDataObject) => ({
		name,
		type: SIGNER,
		parameters: { chainFamily: 'stellar', stellarChainId: CHAIN, ...stepParameters } as never,
		continueOnFail: true,
	});
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(options.items ?? [{}]) } },
			step('Sign', parameters),
			...(options.then ? [step('Then', options.then)] : []),
		],
		{
			expandApi: {
				apiKey: 'unused',
				baseUrl: 'http://127.0.0.1:1',
				historicalUrl: '',
				streamUrl: '',
			},
			expandStellarKeyApi: {
				keyType: 'privateKey',
				privateKey: key.secret(),
				payoutLedgerFolder: root,
				rpcUrls: `${CHAIN} = ${horizon.url}`,
			},
		},
	);
	expect(result.error).toBeUndefined();
	return result.output(options.then ? 'Then' : 'Sign').map((item) => item.json);
}

const pay = async (payoutId: string) =>
	(await signer({ operation: 'transferXlm', payoutId, recipient: payee, amount: '2' }))[0];
const speedUp = async (payoutId: string, feePerOperation = '100') =>
	(await signer({ operation: 'speedUpPayout', payoutId, feePerOperation }))[0];
async function checked(hashes: unknown[]): Promise<IDataObject[]> {
	const rows = await signer(
		{ operation: 'listPayouts', status: 'signed' },
		{ then: { operation: 'checkPayouts' } },
	);
	return hashes.map(
		(hash) => rows.find((row) => row.transactionHash === hash) ?? { missing: String(hash) },
	);
}

/** An unsigned payment of the account with its next sequence, as the API builds one. */
function apiEnvelope(amount = '3'): string {
	const sequence = String(horizon.state.accounts.get(key.publicKey()));
	return new TransactionBuilder(new Account(key.publicKey(), sequence), {
		fee: '100',
		networkPassphrase: Networks.TESTNET,
		timebounds: { minTime: 0, maxTime: chainNow() + 300 },
	})
		.addOperation(Operation.payment({ destination: payee, asset: Asset.native(), amount }))
		.build()
		.toEnvelope()
		.toXDR('base64');
}

const intent = (amount: string) => ({
	effect: 'transfer',
	chainId: CHAIN,
	sender: key.publicKey(),
	recipient: payee,
	token: 'native',
	amount,
});

test("items of one execution take the account's sequence numbers one after another, with the memo and fee asked", async () => {
	const signed = await signer(
		{ operation: 'transferXlm', recipient: payee, amount: '1.5', memoType: 'text', memo: 'hi' },
		{ items: [{}, {}, {}] },
	);
	expect(signed.map((item) => item.sequence)).toEqual(['4101', '4102', '4103']);
	expect(signed[0]).toMatchObject({
		from: key.publicKey(),
		chainId: CHAIN,
		memoType: 'text',
		memo: 'hi',
		fee: '100',
		amountRaw: '15000000',
		asset: 'native',
	});
});

test('a payout reads pending, gets a fee bump, reads dropped after its maxTime, is signed again once, and reads mined once applied', async () => {
	const first = await pay('p1');
	expect(first).toMatchObject({ sequence: '4101', repeat: false });
	expect(await pay('p1')).toMatchObject({ repeat: true, transactionHash: first.transactionHash });
	expect((await checked([first.transactionHash]))[0]).toMatchObject({ chainStatus: 'pending' });
	expect(String((await speedUp('p1', '100')).error)).toMatch(/does not raise it/);
	const bump = await speedUp('p1', '1000');
	expect(bump).toMatchObject({
		replaces: first.transactionHash,
		innerTransactionHash: first.transactionHash,
		sequence: '4101',
		fee: '2000',
	});
	skew += 6 * 60 * 1000;
	horizon.state.ledger.closedAt = chainNow();
	expect(await checked([first.transactionHash, bump.transactionHash])).toMatchObject([
		{ chainStatus: 'dropped' },
		{ chainStatus: 'dropped' },
	]);
	const again = await speedUp('p1');
	expect(again).toMatchObject({ replaces: bump.transactionHash, sequence: '4101', fee: '100' });
	expect(again.transactionHash).not.toBe(first.transactionHash);
	horizon.state.transactions.set(
		String(again.transactionHash),
		horizonTransaction(String(again.transactionHash), key.publicKey(), 4101n, 11, chainNow() - 1),
	);
	horizon.state.accounts.set(key.publicKey(), '4101');
	expect(
		await checked([first.transactionHash, bump.transactionHash, again.transactionHash]),
	).toMatchObject([
		{ chainStatus: 'replaced', replacedBy: again.transactionHash },
		{ chainStatus: 'replaced', replacedBy: again.transactionHash },
		{ chainStatus: 'mined', feePaid: '100', block: '11' },
	]);
	expect(await pay('p1')).toMatchObject({
		repeat: true,
		alreadySent: true,
		transactionHash: again.transactionHash,
	});
	expect(String((await speedUp('p1')).error)).toMatch(/was applied as .* in ledger 11/);
});

test("From Input Item is held to its intent and to the form's account; a sequence already signed is refused", async () => {
	const data = apiEnvelope();
	const next = String(BigInt(String(horizon.state.accounts.get(key.publicKey()))) + 1n);
	const answer = { chainId: CHAIN, from: key.publicKey(), gas: '100', data };
	const [good] = await signer(
		{ operation: 'signTransaction' },
		{ items: [{ ...answer, intent: intent('30000000') }] },
	);
	expect(good).toMatchObject({ sequence: next, from: key.publicKey() });
	const [lied] = await signer(
		{ operation: 'signTransaction' },
		{ items: [{ ...answer, intent: intent('1') }] },
	);
	expect(String(lied.error)).toMatch(/Refused by the rule "intent".*amount: asked 1/);
	const [other] = await signer(
		{ operation: 'signTransaction' },
		{ items: [{ ...answer, from: payee }] },
	);
	expect(String(other.error)).toMatch(`its from is ${payee}, not the account ${key.publicKey()}`);
	const twice = await signer({ operation: 'signTransaction' }, { items: [{ data }, { data }] });
	expect(twice[0]).toMatchObject({ sequence: next });
	expect(String(twice[1].error)).toMatch(
		`The transaction's sequence number ${next} is not past ${next}, which an earlier item of this execution signed`,
	);
	const [defined] = await signer({
		operation: 'signTransaction',
		source: 'fields',
		envelopeXdr: data,
	});
	expect(defined).toMatchObject({ sequence: next });
});

test('Transfer Asset pays CODE:ISSUER with an ID memo; Max Total Fee bounds the fee', async () => {
	const issuer = Keypair.random().publicKey();
	const [paid] = await signer({
		operation: 'transferAsset',
		asset: `USDC:${issuer}`,
		recipient: payee,
		amount: '2.5',
		memoType: 'id',
		memo: '42',
	});
	expect(paid).toMatchObject({
		asset: `USDC:${issuer}`,
		amountRaw: '25000000',
		memoType: 'id',
		memo: '42',
	});
	const [costly] = await signer({
		operation: 'transferXlm',
		recipient: payee,
		amount: '1',
		feePerOperation: '20000000',
	});
	expect(String(costly.error)).toMatch(/Refused by the rule "maxTotalFee"/);
});
