/**
 * Two payouts of the same amount to the same payee (two invoices of one supplier) on the devnet's chain
 * 901. Ed25519 makes the same signature of the same message, and a Solana transaction's ID is its fee
 * payer's signature: two transfers built on one blockhash, or one unsigned transaction handed in under
 * two payout IDs, are one transaction, which the chain lands once while Check Payouts reads both payouts
 * as landed. Shown first with the binding of a transaction ID to one payout or item passed through (and,
 * for the Signer's own transfers, no wait for another blockhash); then what the Signer does: its own
 * transfers wait for the chain's next blockhash (the test mines blocks as Solana makes them, every few
 * hundred milliseconds), and the same transaction for a second payout ID or item is refused
 * (oneItemPerTransaction). A durable-nonce transaction, which is never signed under a payout ID, is
 * bound to its first item of an execution as well (the devnet takes no durable-nonce transactions:
 * shown at the Signer).
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { getTransferSolInstruction, SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { AccountRole, address, createNoopSigner, generateKeyPairSigner } from '@solana/kit';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { checkedPayouts } from '../../../helpers/checkedPayouts';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { sendTransactionNode } from '../../../helpers/sendTransactionNode';
import { signAndSend as signItemsAndSend } from '../../../helpers/signAndSend';
import { solanaMessage, unsignedWire } from '../../../helpers/solanaMessages';
import { transactionIdBindingOff } from '../../../helpers/transactionIdBindingOff';
import { useDevnet } from '../../../helpers/useDevnet';

const folder = mkdtempSync(join(tmpdir(), 'expand-solana-identical-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = folder;

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const treasury = () => devnet.solana.wallets[1];
const credentials = () =>
	devnetCredentials(devnet, {
		solana: {
			keyType: 'secretKey',
			secretKey: treasury().secretKey,
			payoutLedgerFolder: folder,
		},
	});

async function usdcOf(owner: string): Promise<bigint> {
	const reply = await fetch(
		`${devnet.baseUrl}/chain/getbalance?chainId=901&address=${owner}&tokenAddress=${devnet.solana.usdc.address}`,
		{ headers: { 'x-api-key': devnet.apiKey } },
	);
	return BigInt(((await reply.json()) as { data: { balance: string } }).data.balance);
}

/** Items (one per payout ID) → Expand Signer with `parameters` → Send, in one execution; Send goes on past a refusal. */
const signAndSend = async (items: IDataObject[], parameters: IDataObject) =>
	await signItemsAndSend(
		items,
		{
			chainFamily: 'solana',
			solanaChainId: '901',
			payoutId: '={{ $json.payoutId }}',
			...parameters,
		} as INodeParameters,
		credentials(),
	);

/** Check Payouts of every payout the ledger holds: each payout ID's signature and where it stands. */
const checked = async (payoutIds: string[]) =>
	await checkedPayouts('solana', credentials(), payoutIds);

/** The binding of a transaction ID to one payout or item passed through: the Signer as it was before the rule. */
const bindingOff = () => transactionIdBindingOff({ ownBlockhashToo: true });

/** Solana makes a block every few hundred milliseconds; the devnet makes one only with a transaction unless mined. */
function blocksComing() {
	const timer = setInterval(() => devnet.solana.chain.mine(), 200);
	return () => clearInterval(timer);
}

const transfers = [
	{
		asset: 'SOL',
		parameters: () => ({
			operation: 'transferSol',
			recipient: devnet.solana.wallets[2].address,
			amount: '1000000',
		}),
		paid: async () => devnet.solana.chain.balance(address(devnet.solana.wallets[2].address)),
		amount: 1_000_000n,
	},
	{
		asset: 'USDC',
		parameters: () => ({
			operation: 'transferToken',
			mint: devnet.solana.usdc.address,
			recipient: devnet.solana.wallets[3].address,
			amountFormat: 'smallestUnit',
			amount: '2500',
		}),
		paid: async () => await usdcOf(devnet.solana.wallets[3].address),
		amount: 2500n,
	},
];

describe.each(transfers)(
	'$asset transfers the Signer builds',
	({ asset, parameters, paid, amount }) => {
		test(`two payout IDs paying the same payee the same ${asset} in one execution: without the rule they are one signature, the payee is paid once and both read landed; with it each is a transaction of its own on its own blockhash, paid and read landed as its own`, async () => {
			const items = (run: string) => [
				{ payoutId: `${asset}-${run}-1` },
				{ payoutId: `${asset}-${run}-2` },
			];
			const restore = bindingOff();
			let before = await paid();
			try {
				const off = await signAndSend(items('off'), parameters());
				const signature = off.signed[0].transactionHash;
				expect(off.signed.map((json) => json.transactionHash)).toEqual([signature, signature]);
				expect(off.signed[1].rawTransaction).toBe(off.signed[0].rawTransaction);
				expect((await paid()) - before).toBe(amount);
				expect(await checked([`${asset}-off-1`, `${asset}-off-2`])).toEqual([
					[signature, 'mined'],
					[signature, 'mined'],
				]);
			} finally {
				restore();
			}

			before = await paid();
			const stop = blocksComing();
			let on: Awaited<ReturnType<typeof signAndSend>>;
			try {
				on = await signAndSend(items('on'), parameters());
			} finally {
				stop();
			}
			expect(on.signed.map((json) => json.payoutId)).toEqual([`${asset}-on-1`, `${asset}-on-2`]);
			expect(on.signed[1].transactionHash).not.toBe(on.signed[0].transactionHash);
			expect(on.signed[1].blockhash).not.toBe(on.signed[0].blockhash);
			expect((await paid()) - before).toBe(2n * amount);
			expect(await checked([`${asset}-on-1`, `${asset}-on-2`])).toEqual([
				[on.signed[0].transactionHash, 'mined'],
				[on.signed[1].transactionHash, 'mined'],
			]);
		});
	},
);

/** One unsigned transfer of 1,000 lamports from the treasury to the payee, base64, as an API's answer holds it. */
const unsignedTransfer = (lamports: bigint) =>
	unsignedWire(
		solanaMessage(address(treasury().address), devnet.solana.chain.latestBlockhash().blockhash, [
			getTransferSolInstruction({
				source: createNoopSigner(address(treasury().address)),
				destination: address(devnet.solana.wallets[4].address),
				amount: lamports,
			}),
		]),
	);
const payeeBalance = () => devnet.solana.chain.balance(address(devnet.solana.wallets[4].address));

test('one unsigned transaction handed in as two payout IDs: without the rule both are signed as one signature, the chain lands it once and both rows read landed; with it the second is refused naming the first, and reads refused', async () => {
	const restore = bindingOff();
	let before = payeeBalance();
	try {
		const data = unsignedTransfer(1000n);
		const off = await signAndSend(
			[
				{ payoutId: 'row-twice-1', data },
				{ payoutId: 'row-twice-2', data },
			],
			{ operation: 'signTransaction' },
		);
		const signature = off.signed[0].transactionHash;
		expect(off.signed.map((json) => json.transactionHash)).toEqual([signature, signature]);
		expect(payeeBalance() - before).toBe(1000n);
		expect(await checked(['row-twice-1', 'row-twice-2'])).toEqual([
			[signature, 'mined'],
			[signature, 'mined'],
		]);
	} finally {
		restore();
	}

	before = payeeBalance();
	const data = unsignedTransfer(1001n);
	const on = await signAndSend(
		[
			{ payoutId: 'row-twice-3', data },
			{ payoutId: 'row-twice-4', data },
		],
		{ operation: 'signTransaction' },
	);
	const signature = String(on.signed[0].transactionHash);
	expect(on.signed[0]).toMatchObject({ payoutId: 'row-twice-3', repeat: false });
	expect(on.signed[1].error).toMatch(
		new RegExp(
			`^Refused by the rule "oneItemPerTransaction": transaction ${signature} was signed for payout ID "row-twice-3" \\(item 0 of execution [^)]+\\) on [0-9T:.-]+Z; this is payout ID "row-twice-4", and the same transaction would land once while both read as paid; payout ID "row-twice-4" needs a transaction of its own: a transfer the Signer builds is built anew when run again, one handed in needs other bytes \\(another nonce, blockhash, reference block or seqno\\); nothing was signed \\(item 1\\)$`,
		),
	);
	expect(on.sent[1].error).toBeDefined();
	expect(payeeBalance() - before).toBe(1001n);
	expect(await checked(['row-twice-3', 'row-twice-4'])).toEqual([
		[signature, 'mined'],
		['', 'refused'],
	]);
});

test('one unsigned transaction handed in as two items without payout IDs (no intent, Require Intent Never, no ledger): the second item is refused naming the first', async () => {
	const data = unsignedTransfer(1002n);
	const before = payeeBalance();
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{ data }, { data }]) } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: { chainFamily: 'solana', solanaChainId: '901', operation: 'signTransaction' },
				continueOnFail: true,
			},
			sendTransactionNode({}, true),
		],
		devnetCredentials(devnet, {
			solana: { keyType: 'secretKey', secretKey: treasury().secretKey, requireIntent: 'never' },
		}),
	);
	const signed = result.output('Sign').map((item) => item.json);
	expect(signed[1].error).toMatch(
		new RegExp(
			`^Refused by the rule "oneItemPerTransaction": transaction ${String(signed[0].transactionHash)} was signed for item 0 of execution [^;]+; this is another item, and the same transaction would land once while both read as paid; the earlier signature is byte for byte this transaction: send that one; this item needs a transaction of its own: a transfer the Signer builds is built anew when run again, one handed in needs other bytes \\(another nonce, blockhash, reference block or seqno\\); nothing was signed \\(item 1\\)$`,
		),
	);
	expect(payeeBalance() - before).toBe(1002n);
});

/** A 1,000-lamport transfer to wallet 4 led by AdvanceNonceAccount: a durable-nonce transaction, valid until its nonce account advances. */
async function durableNonceTransfer(): Promise<string> {
	const from = address(treasury().address);
	const nonceAccount = (await generateKeyPairSigner()).address;
	const advance = {
		programAddress: SYSTEM_PROGRAM_ADDRESS,
		accounts: [
			{ address: nonceAccount, role: AccountRole.WRITABLE },
			{
				address: address('SysvarRecentB1ockHashes11111111111111111111'),
				role: AccountRole.READONLY,
			},
			{ address: from, role: AccountRole.WRITABLE_SIGNER },
		],
		data: new Uint8Array([4, 0, 0, 0]),
	};
	return unsignedWire(
		solanaMessage(
			from,
			// The nonce account's stored value, which is no recent blockhash.
			'GfnhkazE7Sj1oPQ3KGuVrqzhoY4kJ8pETXcjvaj3gfoX',
			[
				advance,
				getTransferSolInstruction({
					source: createNoopSigner(from),
					destination: address(devnet.solana.wallets[4].address),
					amount: 1000n,
				}),
			],
			2n ** 64n - 1n,
		),
	);
}

test('a durable-nonce transaction (never under a payout ID) handed in as two items: signed for the first item only, the second refused naming it; in a later execution with a payout ledger it is signed again for its first item, the same signature, and refused for the second (no payout ID keeps anything exactly once across executions, and one transaction lands once)', async () => {
	const data = await durableNonceTransfer();
	const sign = async (items: IDataObject[]) => {
		const result = await runPipeline(
			[
				{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
				{
					name: 'Sign',
					type: SIGNER,
					parameters: { chainFamily: 'solana', solanaChainId: '901', operation: 'signTransaction' },
					continueOnFail: true,
				},
			],
			credentials(),
		);
		return result.output('Sign').map((item) => item.json);
	};
	const [first, second] = await sign([{ data }, { data }]);
	expect(first).toMatchObject({ blockhash: 'GfnhkazE7Sj1oPQ3KGuVrqzhoY4kJ8pETXcjvaj3gfoX' });
	const refused = new RegExp(
		`^Refused by the rule "oneItemPerTransaction": transaction ${String(first.transactionHash)} was signed for item 0 of execution [^;]+; this is another item, and the same transaction would land once while both read as paid; the earlier signature is byte for byte this transaction: send that one; this item needs a transaction of its own: a transfer the Signer builds is built anew when run again, one handed in needs other bytes \\(another nonce, blockhash, reference block or seqno\\); nothing was signed \\(item \\d\\)$`,
	);
	expect(second.error).toMatch(refused);
	const [later, laterSecond] = await sign([{ data }, { data }]);
	expect(later).toMatchObject({
		transactionHash: first.transactionHash,
		rawTransaction: first.rawTransaction,
	});
	expect(laterSecond.error).toMatch(refused);
});
