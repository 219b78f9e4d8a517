/**
 * Check Payouts and Speed Up Payout on Tron, on the devnet (the stand-in of chain 1001, Nile): a
 * landed USDT payout reads mined with its block and fee, one that ran out of energy reads failed (its
 * fee spent, nothing moved) and neither is signed again. A payout whose send the API answered 429
 * without processing reads unsent while it can land and is not re-signed; once its expiration is past
 * and the solidified chain shows it never landed it reads dropped, Speed Up Payout re-signs it once on a
 * new reference block, the new transaction lands through chain/sendtransaction and the old one is
 * refused as expired: the recipient is paid once. Without the rule, a copy signed while the original
 * could still land lands beside it. A pinned node
 * that hides a landed transaction ({} for its ID) or names a wrong block for it does not get a
 * re-sign, and its rows read unknown, never dropped.
 *
 * Time passes by moving this process's clock (Date.now), which the Signer and the devnet's chain both
 * read: the chain's next block carries the later time, as on a live chain.
 */
import { writeFileSync } from 'fs';
import { join } from 'path';

import { id } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet, DevnetTron } from '../../../../devnet';
import { TransactionIdBindings } from '../../../../packages/signer/nodes/ExpandSigner/ledger/transactionIds';
import { call } from '../../../devnet/client';
import { startLyingFront } from '../../../helpers/lyingFront';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { ledgerFolder } from '../../../helpers/ledgerFolder';
import { movedClock } from '../../../helpers/movedClock';
import { rowsOf, signerSteps } from '../../../helpers/signerSteps';
import { useDevnet } from '../../../helpers/useDevnet';

const CHAIN = '1001';
/** The Signer's transactions stay valid 5 minutes; a little more makes every one signed before it expire. */
const PAST_EXPIRY_MS = 6 * 60 * 1000;

const root = ledgerFolder('expand-tron-payouts-');

let devnet: Devnet;
let nile: DevnetTron;
useDevnet((started) => {
	devnet = started;
	nile = started.tron.find((chain) => chain.chainId === CHAIN) as DevnetTron;
});

const clock = movedClock();
const passTime = (ms: number) => clock.pass(ms);

/** Runs the Signer (and `then` after it) on `items`, with wallet 1's key; `rpcUrl` pinned in RPC URLs unless undefined. */
async function signer(
	parameters: IDataObject,
	options: { items?: IDataObject[]; then?: IDataObject; rpcUrl?: string | null } = {},
): Promise<IDataObject[]> {
	const rpcUrl = options.rpcUrl === undefined ? nile.rpcUrl : options.rpcUrl;
	return await signerSteps(
		{ chainFamily: 'tron', tronChainId: CHAIN },
		{
			...devnetCredentials(devnet),
			expandTronKeyApi: {
				keyType: 'privateKey',
				privateKey: nile.wallets[1].privateKey,
				payoutLedgerFolder: root,
				...(rpcUrl ? { rpcUrls: `${CHAIN} = ${rpcUrl}` } : {}),
			},
		},
		parameters,
		options,
	);
}

const pay = async (
	payoutId: string,
	recipient: string,
	amount: string,
	feeLimit = '30',
	rpcUrl?: string,
) =>
	(
		await signer(
			{
				operation: 'transferTrc20',
				payoutId,
				tokenAddress: nile.usdt.address,
				recipient,
				amount,
				feeLimit,
			},
			{ rpcUrl },
		)
	)[0];
const speedUp = async (payoutId: string, rpcUrl?: string | null) =>
	(await signer({ operation: 'speedUpPayout', payoutId }, { rpcUrl }))[0];
/** List Payouts → Check Payouts: the row of each transaction ID asked. */
async function checked(txIDs: unknown[], rpcUrl?: string | null): Promise<IDataObject[]> {
	const rows = await signer(
		{ operation: 'listPayouts', status: 'signed' },
		{ then: { operation: 'checkPayouts' }, rpcUrl },
	);
	return rowsOf(rows, txIDs);
}

/** Sends a signed output to the node as chain/sendtransaction hands it on: the JSON inside rawTransaction. */
async function broadcast(signed: IDataObject): Promise<Record<string, unknown>> {
	const json = Buffer.from(String(signed.rawTransaction), 'base64').toString('utf8');
	const reply = await fetch(`${nile.rpcUrl}/wallet/broadcasttransaction`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: json,
	});
	return (await reply.json()) as Record<string, unknown>;
}
const usdt = (wallet: number) => nile.chain.usdt.balanceOf(nile.wallets[wallet].hexAddress);
const landed = (txID: unknown) => nile.chain.transaction(String(txID));

test('a landed payout reads mined with its block and fee; Speed Up Payout refuses it', async () => {
	const paid = await pay('tron-landed', nile.wallets[2].address, '1500000');
	expect(paid).toMatchObject({ payoutId: 'tron-landed', repeat: false });
	expect(await broadcast(paid)).toMatchObject({ result: true });
	const onChain = landed(paid.transactionHash);
	expect(onChain?.contractRet).toBe('SUCCESS');

	const [row] = await checked([paid.transactionHash]);
	expect(row).toMatchObject({
		payoutId: 'tron-landed',
		chainStatus: 'mined',
		block: String(onChain?.blockNumber),
		success: 'true',
		feePaid: String(onChain?.fee),
		statusMessage: '',
	});
	expect(BigInt(String(row.feePaid))).toBeGreaterThan(0n);

	const refused = await speedUp('tron-landed');
	expect(refused.error).toBe(
		`Refused by the rule "payoutId": payout ID "tron-landed" has landed as ${String(paid.transactionHash)} in block ${String(onChain?.blockNumber)}, fee ${String(row.feePaidWhole)} TRX; there is nothing to speed up; nothing was signed (item 0)`,
	);
}, 60_000);

test('a payout that ran out of energy reads mined and failed: its fee spent, nothing moved; Speed Up Payout refuses it and says what to do', async () => {
	const before = usdt(3);
	const paid = await pay('tron-failed', nile.wallets[3].address, '2500000', '1');
	await broadcast(paid);
	const onChain = landed(paid.transactionHash);
	expect(onChain?.contractRet).toBe('OUT_OF_ENERGY');
	expect(usdt(3)).toBe(before);

	const [row] = await checked([paid.transactionHash]);
	expect(row).toMatchObject({
		chainStatus: 'mined',
		block: String(onChain?.blockNumber),
		success: 'false',
		feePaid: String(onChain?.fee),
	});
	expect(row.statusMessage).toMatch(
		/^It landed in block \d+ and failed on chain \(OUT_OF_ENERGY\): its fee of [\d.]+ TRX was spent and the transfer did not happen; its payout ID stays bound to this failed transaction .* then pay it under a new payout ID$/,
	);
	const refused = await speedUp('tron-failed');
	expect(refused.error).toMatch(
		/^Refused by the rule "payoutId": payout ID "tron-failed" has landed as [0-9a-f]{64} in block \d+ and failed on chain \(OUT_OF_ENERGY\): its fee of [\d.]+ TRX was spent and the transfer did not happen; it is not signed again: .*a higher Fee Limit.*; nothing was signed \(item 0\)$/,
	);
}, 60_000);

test('a payout whose send was dropped reads unsent and is not re-signed while it can land; once expired and absent it is re-signed once, the new one lands, the old one is refused as expired: paid once', async () => {
	const before = usdt(4);
	const original = await pay('tron-stuck', nile.wallets[4].address, '700000');
	expect(original.expiration).toEqual(expect.any(String));
	// Sent through the API, which answered 429 without processing it: the node never got it.
	devnet.faults.failNext('/chain/sendtransaction', 'rateLimit');
	const sent = await call(`${devnet.baseUrl}/chain/sendtransaction`, devnet.apiKey, {
		method: 'POST',
		body: { chainId: CHAIN, rawTransaction: original.rawTransaction },
	});
	expect(sent.status).toBe(429);
	expect(landed(original.transactionHash)).toBeUndefined();
	const [pending] = await checked([original.transactionHash]);
	expect(pending).toMatchObject({ chainStatus: 'unsent', block: '', success: '' });
	expect(pending.statusMessage).toBe(
		`It is not on the chain yet and can still land: it stays valid until ${String(original.expiration)}`,
	);
	const early = await speedUp('tron-stuck');
	expect(early.error).toBe(
		`Refused by the rule "payoutId": payout ID "tron-stuck" was signed as ${String(original.transactionHash)}, which is not on the chain but can still land: it stays valid until ${String(original.expiration)}. A new reference block would make a second transaction and both could land; speed it up after ${String(original.expiration)}, once the chain has solidified a block past it; nothing was signed (item 0)`,
	);

	passTime(PAST_EXPIRY_MS);
	const [dropped] = await checked([original.transactionHash]);
	expect(dropped.chainStatus).toBe('dropped');
	expect(dropped.statusMessage).toMatch(
		/^It is not on the chain and can never land: it expired at \S+, and none of the solidified blocks \d+ to \d+ \(the first at or past that time\) holds it\. Nothing was paid by it$/,
	);
	const rerun = await pay('tron-stuck', nile.wallets[4].address, '700000');
	expect(rerun.error).toMatch(
		/^Refused by the rule "payoutId": payout ID "tron-stuck" was signed on \S+ as [0-9a-f]{64}, which is not on the chain while its expiration has passed and the solidified chain shows it in no block; it can never land and is not signed again\. Nothing was paid by it: if it is still due, Speed Up Payout signs it again under the same payout ID; nothing was signed \(item 0\)$/,
	);
	// From the node the API names, "dropped" is not believed.
	const [unpinned] = await checked([original.transactionHash], null);
	expect(unpinned.chainStatus).toBe('droppedUnverified');
	expect((await speedUp('tron-stuck', null)).error).toMatch(
		/^Refused by the rule "rpcUrls": speeding up payout ID "tron-stuck" needs the chain's full node pinned/,
	);

	// Another worker signed the replacement's transaction ID for a payout of its own: refused, and the payout's history stays as it was.
	const bind = TransactionIdBindings.prototype.once;
	const taken = jest
		.spyOn(TransactionIdBindings.prototype, 'once')
		.mockImplementationOnce(async function (this: TransactionIdBindings, chainId, txID, ...rest) {
			const record = {
				chainId,
				transactionHash: txID,
				payoutId: 'tron-other',
				executionId: 'another-worker',
				node: 'Sign',
				itemIndex: 0,
				signedAt: '2026-11-26T12:00:00.000Z',
			};
			writeFileSync(
				join(root, `expand-txid-${chainId}-${id(txID).slice(2)}.json`),
				JSON.stringify(record),
				{ flag: 'wx' },
			);
			return await bind.call(this, chainId, txID, ...rest);
		});
	try {
		expect((await speedUp('tron-stuck')).error).toMatch(
			/^Refused by the rule "oneItemPerTransaction": transaction [0-9a-f]{64} was signed for payout ID "tron-other" \(item 0 of execution another-worker\) on 2026-11-26T12:00:00\.000Z; this is payout ID "tron-stuck", and the same transaction would land once while both read as paid; payout ID "tron-stuck" needs a transaction of its own: a transfer the Signer builds is built anew when run again, one handed in needs other bytes \(another nonce, blockhash, reference block or seqno\); nothing was signed \(item 0\)$/,
		);
	} finally {
		taken.mockRestore();
	}

	const replacement = await speedUp('tron-stuck');
	expect(replacement.error).toBeUndefined();
	expect(replacement).toMatchObject({
		payoutId: 'tron-stuck',
		repeat: false,
		replaces: original.transactionHash,
		replacements: 1,
		feeLimitSun: '30000000',
	});
	expect(replacement.transactionHash).not.toBe(original.transactionHash);
	expect(Date.parse(String(replacement.expiration))).toBeGreaterThan(Date.now());
	// The same transfer: the contract call's bytes are the original's.
	const contract = (signed: IDataObject) =>
		(
			JSON.parse(Buffer.from(String(signed.rawTransaction), 'base64').toString('utf8')) as {
				raw_data: { contract: unknown; fee_limit: number };
			}
		).raw_data;
	expect(contract(replacement).contract).toEqual(contract(original).contract);
	expect(contract(replacement).fee_limit).toBe(contract(original).fee_limit);
	// Once only: a second speed-up while the replacement can land is refused.
	expect((await speedUp('tron-stuck')).error).toMatch(
		new RegExp(
			`^Refused by the rule "payoutId": payout ID "tron-stuck" was signed as ${String(replacement.transactionHash)}, which is not on the chain but can still land`,
		),
	);

	const sentAgain = await call(`${devnet.baseUrl}/chain/sendtransaction`, devnet.apiKey, {
		method: 'POST',
		body: { chainId: CHAIN, rawTransaction: replacement.rawTransaction },
	});
	expect(sentAgain.body.data).toEqual({ transactionHash: replacement.transactionHash });
	expect(landed(replacement.transactionHash)?.contractRet).toBe('SUCCESS');
	expect(await broadcast(original)).toMatchObject({ code: 'TRANSACTION_EXPIRATION_ERROR' });
	expect(landed(original.transactionHash)).toBeUndefined();
	expect(usdt(4) - before).toBe(700_000n);

	const [old, fresh] = await checked([original.transactionHash, replacement.transactionHash]);
	expect(old).toMatchObject({
		chainStatus: 'replaced',
		replacedBy: replacement.transactionHash,
		block: String(landed(replacement.transactionHash)?.blockNumber),
	});
	expect(fresh).toMatchObject({ chainStatus: 'mined', success: 'true' });
	const landedRerun = await pay('tron-stuck', nile.wallets[4].address, '700000');
	expect(landedRerun).toMatchObject({
		repeat: true,
		alreadySent: true,
		transactionHash: replacement.transactionHash,
	});
	expect((await speedUp('tron-stuck')).error).toMatch(
		/^Refused by the rule "payoutId": payout ID "tron-stuck" has landed as /,
	);
	expect(usdt(4) - before).toBe(700_000n);
}, 90_000);

test('without the rule, a transfer re-signed on a new reference block while the original can still land lands beside it: two payments', async () => {
	const before = usdt(3);
	const original = await pay('tron-twice', nile.wallets[3].address, '333000');
	expect((await speedUp('tron-twice')).error).toMatch(
		/^Refused by the rule "payoutId": payout ID "tron-twice" was signed as [0-9a-f]{64}, which is not on the chain but can still land: /,
	);
	// What a speed-up without the rule signs: the same transfer on a newer block, with another txID.
	await devnet.mine(CHAIN);
	const [copy] = await signer({
		operation: 'transferTrc20',
		tokenAddress: nile.usdt.address,
		recipient: nile.wallets[3].address,
		amount: '333000',
		feeLimit: '30',
	});
	expect(copy.transactionHash).not.toBe(original.transactionHash);
	expect(await broadcast(copy)).toMatchObject({ result: true });
	expect(await broadcast(original)).toMatchObject({ result: true });
	expect(usdt(3) - before).toBe(666_000n);
}, 60_000);

describe('a pinned node that lies about a landed payout', () => {
	let paid: IDataObject;
	beforeAll(async () => {
		paid = await pay('tron-hidden', nile.wallets[2].address, '100000');
		await broadcast(paid);
		passTime(PAST_EXPIRY_MS);
	});
	const txPath = /^\/wallet(solidity)?\/gettransaction(info)?byid$/;
	const asksFor = (body: unknown) =>
		String((body as { value?: unknown } | undefined)?.value ?? '') === paid.transactionHash;

	test.each([
		[
			'answers {} for its ID',
			(path: string, body: unknown) => (txPath.test(path) && asksFor(body) ? {} : undefined),
		],
		[
			'names a block that does not hold it',
			(path: string, body: unknown) => {
				if (!/gettransactioninfobyid$/.test(path) || !asksFor(body)) return undefined;
				const info = landed(paid.transactionHash);
				const other = nile.chain.block((info?.blockNumber ?? 1) - 1);
				return {
					id: paid.transactionHash,
					fee: Number(info?.fee),
					blockNumber: other?.number,
					blockTimeStamp: other?.timestamp,
					receipt: {},
				};
			},
		],
	])(
		'one that %s does not get a re-sign, and its row reads unknown',
		async (_, lie) => {
			expect(landed(paid.transactionHash)?.contractRet).toBe('SUCCESS');
			const liar = await startLyingFront(nile.rpcUrl, lie);
			try {
				const refused = await speedUp('tron-hidden', liar.url);
				expect(refused.error).toMatch(
					new RegExp(
						`^Refused by the rule "payoutId": payout ID "tron-hidden" (was signed as ${String(paid.transactionHash)}, and the chain's node cannot show that it can no longer land: The chain's node.*\\. It is not signed again: check it by hand; nothing was signed \\(item 0\\))$`,
					),
				);
				expect(refused.rawTransaction).toBeUndefined();
				const rerun = await pay('tron-hidden', nile.wallets[2].address, '100000', '30', liar.url);
				expect(rerun.error).toMatch(
					/^Refused by the rule "payoutId": payout ID "tron-hidden" was signed on \S+ as [0-9a-f]{64}, and the chain's node cannot show where it stands: The chain's node.*\. It is neither returned nor signed again: check it by hand; never pay it under a new payout ID on this refusal; nothing was signed \(item 0\)$/,
				);
				const [row] = await checked([paid.transactionHash], liar.url);
				expect(row.chainStatus).toBe('unknown');
				expect(row.statusMessage).toMatch(
					/^The chain's node cannot show where it stands: .*Never read this as unpaid$/,
				);
			} finally {
				await liar.close();
			}
		},
		60_000,
	);
});
