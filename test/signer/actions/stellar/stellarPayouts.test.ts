/**
 * Payouts on Stellar, on the devnet (its ledger stand-in behind a Horizon, chain 1501): a payout
 * applied reads mined with its ledger and fee and is not signed again; the items of one execution take
 * the account's sequence numbers one after another; a USDC payout carries its memo; a payout never
 * sent reads pending and gets a fee bump of the same transaction (never a second transaction), then
 * reads dropped once its maxTime passed with the account's sequence below it, and Speed Up Payout
 * re-signs it once: the new transaction applies, the old one and its bump never can, the recipient is
 * paid once. A payout applied that the pinned Horizon no longer shows by its hash (a Horizon keeps
 * only so much history, or hides it) while the account's sequence passed it reads unknown, never
 * dropped, and is not signed again.
 *
 * Time passes by moving this process's clock (Date.now), which the Signer and the devnet's chain both
 * read.
 */
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import { Account, Asset, Operation, TransactionBuilder, xdr } from '@stellar/stellar-base';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet, DevnetStellar } from '../../../../devnet';
import { DEVNET_MNEMONIC } from '../../../../devnet/fixtures';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { ledgerFolder } from '../../../helpers/ledgerFolder';
import { movedClock } from '../../../helpers/movedClock';
import { rowsOf, signerSteps } from '../../../helpers/signerSteps';
import { useDevnet } from '../../../helpers/useDevnet';

const CHAIN = '1501';
/** Past the default Valid For (300 s). */
const PAST_MAX_TIME_MS = 6 * 60 * 1000;

const root = ledgerFolder('expand-stellar-payouts-');

let devnet: Devnet;
let testnet: DevnetStellar;
useDevnet((started) => {
	devnet = started;
	testnet = started.stellar.find((chain) => chain.chainId === CHAIN) as DevnetStellar;
});

/** The devnet mnemonic's account 2: the payee (the Signer pays from account 1). */
const payee = () => testnet.wallets[2].publicKey;

const clock = movedClock();

/** Runs the Signer (and `then` after it) on `items`, with the devnet mnemonic's account 1; the Horizon pinned unless null. */
async function signer(
	parameters: IDataObject,
	options: { items?: IDataObject[]; then?: IDataObject; horizonUrl?: string | null } = {},
): Promise<IDataObject[]> {
	const horizonUrl = options.horizonUrl === undefined ? testnet.rpcUrl : options.horizonUrl;
	return await signerSteps(
		{ chainFamily: 'stellar', stellarChainId: CHAIN, accountIndex: 1 },
		{
			...devnetCredentials(devnet),
			expandStellarKeyApi: {
				keyType: 'mnemonic',
				mnemonic: DEVNET_MNEMONIC,
				payoutLedgerFolder: root,
				...(horizonUrl ? { rpcUrls: `${CHAIN} = ${horizonUrl}` } : {}),
			},
		},
		parameters,
		{ ...options, paired: true },
	);
}

const pay = async (payoutId: string, xlm: string, items?: IDataObject[]) =>
	await signer({ operation: 'transferXlm', payoutId, recipient: payee(), amount: xlm }, { items });
const speedUp = async (payoutId: string, feePerOperation = '1000') =>
	(await signer({ operation: 'speedUpPayout', payoutId, feePerOperation }))[0];

/** List Payouts → Check Payouts: the row of each transaction hash asked. */
async function checked(hashes: unknown[]): Promise<IDataObject[]> {
	const rows = await signer(
		{ operation: 'listPayouts', status: 'signed' },
		{ then: { operation: 'checkPayouts' } },
	);
	return rowsOf(rows, hashes);
}

/** Submits a signed output as chain/sendtransaction hands it on: its envelope to Horizon's POST /transactions. */
async function send(
	signed: IDataObject,
): Promise<{ status: number; body: Record<string, unknown> }> {
	const reply = await fetch(`${testnet.rpcUrl}/transactions`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ tx: String(signed.rawTransaction) }).toString(),
	});
	return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
}

/** An account's balance of `asset` ('native' or CODE:ISSUER), in stroops, as Horizon shows it. */
async function balanceOf(address: string, asset: string): Promise<bigint> {
	const account = (await (await fetch(`${testnet.rpcUrl}/accounts/${address}`)).json()) as {
		balances: Array<{
			asset_type: string;
			asset_code?: string;
			asset_issuer?: string;
			balance: string;
		}>;
	};
	const line = account.balances.find((balance) =>
		asset === 'native'
			? balance.asset_type === 'native'
			: `${balance.asset_code}:${balance.asset_issuer}` === asset,
	);
	return BigInt((line?.balance ?? '0.0000000').replace('.', ''));
}

test('a payout applied reads mined with its ledger and fee; a rerun returns it; Speed Up Payout refuses it', async () => {
	const [paid] = await pay('stellar-applied', '1.5');
	expect(paid).toMatchObject({ payoutId: 'stellar-applied', repeat: false, chainId: CHAIN });
	expect(await send(paid)).toMatchObject({ status: 200, body: { successful: true } });
	const [row] = await checked([paid.transactionHash]);
	expect(row).toMatchObject({ chainStatus: 'mined', success: 'true', feePaid: '100' });
	const [again] = await pay('stellar-applied', '1.5');
	expect(again).toMatchObject({
		repeat: true,
		alreadySent: true,
		transactionHash: paid.transactionHash,
	});
	expect(String((await speedUp('stellar-applied')).error)).toMatch(/was applied as/);
});

test("the items of one execution take the account's sequence numbers one after another, and all apply", async () => {
	const signed = await signer(
		{ operation: 'transferXlm', recipient: payee(), amount: '0.001' },
		{ items: [{}, {}, {}] },
	);
	const sequences = signed.map((item) => BigInt(String(item.sequence)));
	expect(sequences).toEqual([sequences[0], sequences[0] + 1n, sequences[0] + 2n]);
	for (const item of signed) expect(await send(item)).toMatchObject({ status: 200 });
});

test('Transfer Asset pays USDC with its memo', async () => {
	const usdc = testnet.usdc.asset;
	const before = await balanceOf(payee(), usdc);
	const [paid] = await signer({
		operation: 'transferAsset',
		asset: usdc,
		recipient: payee(),
		amount: '2.5',
		memoType: 'text',
		memo: 'invoice 1042',
	});
	expect(paid).toMatchObject({ amountRaw: '25000000', memoType: 'text', memo: 'invoice 1042' });
	expect(await send(paid)).toMatchObject({ status: 200 });
	expect(await balanceOf(payee(), usdc)).toBe(before + 25_000_000n);
});

test('a payout never sent gets a fee bump while pending, reads dropped once its maxTime passed, is re-signed once and paid once', async () => {
	const before = await balanceOf(payee(), 'native');
	const [first] = await pay('stellar-unsent', '2');
	expect((await checked([first.transactionHash]))[0]).toMatchObject({ chainStatus: 'pending' });
	const bump = await speedUp('stellar-unsent');
	expect(bump).toMatchObject({
		replaces: first.transactionHash,
		innerTransactionHash: first.transactionHash,
		sequence: first.sequence,
	});
	clock.pass(PAST_MAX_TIME_MS);
	expect(await checked([first.transactionHash, bump.transactionHash])).toMatchObject([
		{ chainStatus: 'dropped' },
		{ chainStatus: 'dropped' },
	]);
	const replacement = await speedUp('stellar-unsent', '100');
	expect(replacement).toMatchObject({ replaces: bump.transactionHash });
	expect(await send(first)).toMatchObject({ status: 400 });
	expect(await send(bump)).toMatchObject({ status: 400 });
	expect(await send(replacement)).toMatchObject({ status: 200 });
	expect(String((await speedUp('stellar-unsent')).error)).toMatch(/was applied as/);
	const [rerun] = await pay('stellar-unsent', '2');
	expect(rerun).toMatchObject({ repeat: true, transactionHash: replacement.transactionHash });
	expect(await balanceOf(payee(), 'native')).toBe(before + 20_000_000n);
});

/** A Horizon in front of the devnet's that answers 404 for one transaction, as one whose history no longer holds it. */
async function horizonWithout(hash: unknown): Promise<{ url: string; close: () => Promise<void> }> {
	const server = createServer((request, response) => {
		const path = request.url ?? '/';
		if (path.startsWith(`/transactions/${String(hash)}`)) {
			response.writeHead(404, { 'content-type': 'application/problem+json' });
			response.end(
				JSON.stringify({
					type: 'https://stellar.org/horizon-errors/not_found',
					title: 'Resource Missing',
					status: 404,
				}),
			);
			return;
		}
		void fetch(`${testnet.rpcUrl}${path}`).then(async (reply) => {
			response.writeHead(reply.status, { 'content-type': 'application/json' });
			response.end(await reply.text());
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

test('a payout applied that the pinned Horizon no longer shows, the account sequence past it, reads unknown, never dropped, and is not signed again: paid once', async () => {
	const before = await balanceOf(payee(), 'native');
	const [paid] = await pay('stellar-unshown', '1');
	expect(await send(paid)).toMatchObject({ status: 200, body: { successful: true } });
	const pruned = await horizonWithout(paid.transactionHash);
	try {
		clock.pass(PAST_MAX_TIME_MS);
		const [again] = await signer(
			{ operation: 'speedUpPayout', payoutId: 'stellar-unshown', feePerOperation: '1000' },
			{ horizonUrl: pruned.url },
		);
		if (again.rawTransaction) await send(again);
		expect(await balanceOf(payee(), 'native')).toBe(before + 10_000_000n);
		expect(String(again.error)).toMatch(/Horizon cannot show that it can never apply/);
		const rows = await signer(
			{ operation: 'listPayouts', status: 'signed' },
			{ then: { operation: 'checkPayouts' }, horizonUrl: pruned.url },
		);
		expect(rows.find((row) => row.transactionHash === paid.transactionHash)).toMatchObject({
			chainStatus: 'unknown',
			statusMessage: expect.stringMatching(/reached its sequence .*Never read this as unpaid$/),
		});
	} finally {
		await pruned.close();
	}
});

test("a pending payout returned by a rerun holds its sequence: the execution's next new payout takes the one after it, and both apply", async () => {
	const before = await balanceOf(payee(), 'native');
	const [held] = await pay('stellar-held', '1');
	const [again, next] = await signer(
		{
			operation: 'transferXlm',
			payoutId: '={{ $json.id }}',
			recipient: payee(),
			amount: '={{ $json.xlm }}',
		},
		{
			items: [
				{ id: 'stellar-held', xlm: '1' },
				{ id: 'stellar-after-held', xlm: '2' },
			],
		},
	);
	expect(again).toMatchObject({ repeat: true, transactionHash: held.transactionHash });
	expect(next).toMatchObject({ repeat: false });
	expect(BigInt(String(next.sequence))).toBe(BigInt(String(held.sequence)) + 1n);
	expect(await send(again)).toMatchObject({ status: 200 });
	expect(await send(next)).toMatchObject({ status: 200 });
	expect(await balanceOf(payee(), 'native')).toBe(before + 30_000_000n);
});

/** A payment of `xlm` from the Signer's account 1 to the payee as an envelope of version 0 (the pre-protocol-13 form stellar-core still takes), unsigned. */
function v0Payment(xlm: string): string {
	const source = testnet.wallets[1].publicKey;
	const sequence = testnet.chain.account(source)?.sequence ?? 0n;
	const v1 = new TransactionBuilder(new Account(source, sequence.toString()), {
		fee: '100',
		networkPassphrase: testnet.passphrase,
		timebounds: { minTime: 0, maxTime: Math.floor(Date.now() / 1000) + 300 },
	})
		.addOperation(Operation.payment({ destination: payee(), asset: Asset.native(), amount: xlm }))
		.build()
		.toEnvelope()
		.v1()
		.tx();
	const tx = new xdr.TransactionV0({
		sourceAccountEd25519: v1.sourceAccount().ed25519(),
		fee: v1.fee(),
		seqNum: v1.seqNum(),
		timeBounds: v1.cond().timeBounds(),
		memo: v1.memo(),
		operations: v1.operations(),
		ext: new xdr.TransactionV0Ext(0),
	});
	return xdr.TransactionEnvelope.envelopeTypeTxV0(
		new xdr.TransactionV0Envelope({ tx, signatures: [] }),
	).toXDR('base64');
}

test('a payout signed From Input Item as a version 0 envelope is signed again once its maxTime passed, and paid once', async () => {
	const before = await balanceOf(payee(), 'native');
	const [first] = await signer(
		{ operation: 'signTransaction', source: 'input', payoutId: 'stellar-v0' },
		{
			items: [
				{ chainId: CHAIN, from: testnet.wallets[1].publicKey, gas: '100', data: v0Payment('1') },
			],
		},
	);
	expect(first).toMatchObject({ repeat: false, chainId: CHAIN });
	clock.pass(PAST_MAX_TIME_MS);
	const again = await speedUp('stellar-v0', '100');
	expect(again).toMatchObject({ replaces: first.transactionHash });
	expect(await send(first)).toMatchObject({ status: 400 });
	expect(await send(again)).toMatchObject({ status: 200 });
	expect(await balanceOf(payee(), 'native')).toBe(before + 10_000_000n);
});
