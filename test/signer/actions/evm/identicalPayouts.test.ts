/**
 * Two payouts of the same amount to the same payee (two invoices of one supplier) on the devnet's chain
 * 31337. An EVM transaction names its nonce: two the Signer completes itself take two automatic nonces
 * and are two transactions. One handed in with its nonce, under two payout IDs (a sheet row copied, an
 * input replayed), is the same bytes, and ECDSA as ethers signs it (RFC 6979) makes the same signature:
 * one transaction hash, which the chain mines once while Check Payouts reads both payouts as mined.
 * Shown first with the binding of a transaction hash to one payout or item passed through; then the
 * second is refused (oneItemPerTransaction).
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { Wallet } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import {
	devnetAccount,
	devnetCredentials,
	devnetSignerKey,
} from '../../../helpers/devnetCredentials';
import { checkedPayouts } from '../../../helpers/checkedPayouts';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { signAndSend as signItemsAndSend } from '../../../helpers/signAndSend';
import { transactionIdBindingOff } from '../../../helpers/transactionIdBindingOff';
import { useDevnet } from '../../../helpers/useDevnet';

const CHAIN = '31337';
const ACCOUNT = 14;

const folder = mkdtempSync(join(tmpdir(), 'expand-evm-identical-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = folder;

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const credentials = () =>
	devnetCredentials(devnet, {
		signer: devnetSignerKey({ payoutLedgerFolder: folder, requireIntent: 'never' }),
	});

const balanceOf = async (address: string) =>
	BigInt(await devnet.rpc<string>(CHAIN, 'eth_getBalance', [address, 'latest']));
const nextNonce = async () =>
	Number(
		await devnet.rpc<string>(CHAIN, 'eth_getTransactionCount', [
			devnetAccount(ACCOUNT).address,
			'latest',
		]),
	);

/** Items (one per payout ID) → Expand Signer with `parameters` → Send, in one execution; both go on past an error. */
const signAndSend = async (items: IDataObject[], parameters: IDataObject) =>
	await signItemsAndSend(
		items,
		{
			accountIndex: ACCOUNT,
			operation: 'signTransaction',
			payoutId: '={{ $json.payoutId }}',
			...parameters,
		} as never,
		credentials(),
	);

/** Check Payouts of every payout the ledger holds: each payout ID's transaction hash and where it stands. */
const checked = async (payoutIds: string[]) =>
	await checkedPayouts('evm', credentials(), payoutIds);

const handedIn = [
	{
		given: 'every field',
		key: 'all-fields',
		fields: (to: string, nonce: number) => ({
			chainId: CHAIN,
			to,
			value: '1000',
			nonce,
			gas: '21000',
			gasPrice: '3000000000',
		}),
	},
	{
		given: 'the nonce (gas and fees filled in)',
		key: 'nonce-only',
		fields: (to: string, nonce: number) => ({ chainId: CHAIN, to, value: '1000', nonce }),
	},
];

describe.each(handedIn)('one transaction handed in with $given', ({ key, fields }) => {
	test('as two payout IDs: without the rule both are signed as one hash, the chain mines it once and both rows read mined; with it the second is refused naming the first, and reads refused', async () => {
		const payee = Wallet.createRandom().address;
		const run = async (rows: string[]) => {
			const transaction = fields(payee, await nextNonce());
			return await signAndSend(
				rows.map((payoutId) => ({ payoutId, ...transaction })),
				{ source: 'input' },
			);
		};
		const ids = (run: string) => [`${key}-${run}-1`, `${key}-${run}-2`];

		const restore = transactionIdBindingOff();
		try {
			const off = await run(ids('off'));
			const hash = off.signed[0].transactionHash;
			expect(off.signed.map((json) => json.transactionHash)).toEqual([hash, hash]);
			expect(await balanceOf(payee)).toBe(1000n);
			expect(await checked(ids('off'))).toEqual([
				[hash, 'mined'],
				[hash, 'mined'],
			]);
		} finally {
			restore();
		}

		const on = await run(ids('on'));
		const hash = String(on.signed[0].transactionHash);
		expect(on.signed[0]).toMatchObject({ payoutId: ids('on')[0], repeat: false });
		expect(on.signed[1].error).toMatch(
			new RegExp(
				`^Refused by the rule "oneItemPerTransaction": transaction ${hash} was signed for payout ID "${ids('on')[0]}" \\(item 0 of execution [^)]+\\) on [0-9T:.-]+Z; this is payout ID "${ids('on')[1]}", and the same transaction would land once while both read as paid; payout ID "${ids('on')[1]}" needs a transaction of its own: a transfer the Signer builds is built anew when run again, one handed in needs other bytes \\(another nonce, blockhash, reference block or seqno\\); nothing was signed \\(item 1\\)$`,
			),
		);
		expect(await balanceOf(payee)).toBe(2000n);
		expect(await checked(ids('on'))).toEqual([
			[hash, 'mined'],
			['', 'refused'],
		]);
	});
});

test('two payout IDs paying the same payee the same value with automatic nonces (Define Below): two nonces, two transactions, the payee paid twice and each read mined as its own', async () => {
	const payee = Wallet.createRandom().address;
	const { signed } = await signAndSend([{ payoutId: 'auto-1' }, { payoutId: 'auto-2' }], {
		source: 'fields',
		chainId: CHAIN,
		to: payee,
		value: '1000',
	});
	expect(signed.map((json) => json.payoutId)).toEqual(['auto-1', 'auto-2']);
	expect(Number(signed[1].nonce)).toBe(Number(signed[0].nonce) + 1);
	expect(signed[1].transactionHash).not.toBe(signed[0].transactionHash);
	expect(await balanceOf(payee)).toBe(2000n);
	expect(await checked(['auto-1', 'auto-2'])).toEqual([
		[signed[0].transactionHash, 'mined'],
		[signed[1].transactionHash, 'mined'],
	]);
});

test('the refused second signature gives back what it counted: under Max Per Execution of 2,000 wei, one 1,000-wei transaction handed in twice and another 1,000-wei payout are two payments, not a refusal of the third', async () => {
	const [payee, other] = [Wallet.createRandom().address, Wallet.createRandom().address];
	const nonce = await nextNonce();
	const transaction = { chainId: CHAIN, value: '1000', gas: '21000', gasPrice: '3000000000' };
	const result = await runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: {
					items: JSON.stringify([
						{ ...transaction, to: payee, nonce, payoutId: 'counted-1' },
						{ ...transaction, to: payee, nonce, payoutId: 'counted-2' },
						{ ...transaction, to: other, nonce: nonce + 1, payoutId: 'counted-3' },
					]),
				},
			},
			{
				name: 'Sign',
				type: SIGNER,
				parameters: {
					accountIndex: ACCOUNT,
					operation: 'signTransaction',
					source: 'input',
					payoutId: '={{ $json.payoutId }}',
				} as never,
				continueOnFail: true,
			},
		],
		devnetCredentials(devnet, {
			signer: devnetSignerKey({
				payoutLedgerFolder: folder,
				requireIntent: 'never',
				maxPerExecution: 'native = 0.000000000000002',
			}),
		}),
	);
	const [first, second, third] = result.output('Sign').map((item) => item.json);
	expect(first.error).toBeUndefined();
	expect(second.error).toMatch(/^Refused by the rule "oneItemPerTransaction": /);
	expect(third).toMatchObject({ payoutId: 'counted-3', repeat: false });
	expect(third.error).toBeUndefined();
});

/** Expand Signer (Sign Transaction, From Input Item, the item's payout ID) alone, in an execution of its own. */
async function signOnly(
	items: IDataObject[],
	ledger: IDataObject = { payoutLedgerFolder: folder },
) {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: {
					accountIndex: ACCOUNT,
					operation: 'signTransaction',
					source: 'input',
					payoutId: '={{ $json.payoutId ?? "" }}',
				} as never,
				continueOnFail: true,
			},
		],
		devnetCredentials(devnet, {
			signer: devnetSignerKey({ ...ledger, requireIntent: 'never' }),
		}),
	);
	expect(result.error).toBeUndefined();
	return result.output('Sign').map((item) => item.json);
}

test('one transaction handed in with its nonce and no payout ID, its send failed, signed again in a later execution (a retry): the same hash, sent once, the payee paid once; under a payout ID it is refused, saying the earlier signature is this transaction', async () => {
	const payee = Wallet.createRandom().address;
	const transaction = {
		chainId: CHAIN,
		to: payee,
		value: '1000',
		nonce: await nextNonce(),
		gas: '21000',
		gasPrice: '3000000000',
	};
	const [first] = await signOnly([transaction]);
	expect(first.error).toBeUndefined();
	const [again] = await signOnly([transaction]);
	expect(again).toMatchObject({
		transactionHash: first.transactionHash,
		rawTransaction: first.rawTransaction,
		repeat: false,
	});
	const { sent } = await signAndSend([transaction], { source: 'input' });
	expect(sent[0].error).toBeUndefined();
	expect(await balanceOf(payee)).toBe(1000n);

	const [withId] = await signOnly([{ ...transaction, payoutId: 'late-id' }]);
	expect(withId.error).toMatch(
		new RegExp(
			`^Refused by the rule "oneItemPerTransaction": transaction ${String(first.transactionHash)} was signed for item 0 of execution [^ ]+ on [0-9T:.-]+Z; this is payout ID "late-id", and the same transaction would land once while both read as paid; the earlier signature, made without a payout ID, is byte for byte this transaction: if this is that payment, send it again .+; nothing was signed \\(item 0\\)$`,
		),
	);
	expect(await balanceOf(payee)).toBe(1000n);
});

test('one transaction handed in with its nonce as two items of one execution, no payout IDs and no payout ledger (a saved 0.1.0 workflow): the second is refused naming the first, so it never reads signed while its payment cannot happen', async () => {
	const transaction = {
		chainId: CHAIN,
		to: Wallet.createRandom().address,
		value: '1000',
		nonce: await nextNonce(),
		gas: '21000',
		gasPrice: '3000000000',
	};
	const [first, second] = await signOnly([transaction, transaction], {});
	expect(first.error).toBeUndefined();
	expect(second.error).toMatch(
		new RegExp(
			`^Refused by the rule "oneItemPerTransaction": transaction ${String(first.transactionHash)} was signed for item 0 of execution [^ ]+ on [0-9T:.-]+Z; this is another item, and the same transaction would land once while both read as paid; the earlier signature is byte for byte this transaction: send that one; .+; nothing was signed \\(item 1\\)$`,
		),
	);
});
