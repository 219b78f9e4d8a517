/**
 * A repeat is believed only as far as its signed bytes, on the devnet: a ledger file edited to carry
 * a transaction the wallet signed for someone else (a refund to the outsider, signed for review and
 * never approved) under an unchanged description is refused; the bytes in the file, which a Signer
 * without the rule returned as a harmless repeat, pay the outsider when sent. Solana the same; and a
 * durable-nonce Solana transaction is not signed under a payout ID. The edits are made in the folder
 * and in the PostgreSQL ledger store: a row edited in the database is judged as a file is.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { getTransferSolInstruction } from '@solana-program/system';
import {
	type Nonce,
	address,
	appendTransactionMessageInstructions,
	createNoopSigner,
	createTransactionMessage,
	generateKeyPairSigner,
	pipe,
	setTransactionMessageFeePayer,
	setTransactionMessageLifetimeUsingDurableNonce,
} from '@solana/kit';
import { id } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../devnet';
import { LEDGER_STORES, ledgerStores, type TestLedger } from '../../helpers/ledgerStores';
import { ITEMS, SIGNER, runPipeline } from '../../helpers/n8n';
import { devnetAccount, devnetExpandApi, devnetSignerKey } from '../../helpers/devnetCredentials';
import { unsignedWire } from '../../helpers/solanaMessages';
import { devnetPerStore } from '../../helpers/devnetPerStore';

const ACCOUNT = 7;
const sender = devnetAccount(ACCOUNT);
const OUTSIDER = '0x' + 'be'.repeat(20);
const root = mkdtempSync(join(tmpdir(), 'expand-ledger-integrity-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = root;
const stores = ledgerStores(root);

let devnet: Devnet;
let ledger: TestLedger;

const ledgerRecord = (chainId: string, from: string, payoutId: string) =>
	`expand-payout-${chainId}-${from.toLowerCase()}-${id(payoutId).slice(2)}.json`;

/** The attacker's edit: the other transaction's signed bytes and description, under the payout's own content. */
async function swapSigned(record: string, other: IDataObject): Promise<IDataObject> {
	const entry = JSON.parse(String(await ledger.read(record))) as IDataObject;
	const { payoutId, repeat, alreadySent, ...signed } = other;
	(void payoutId, void repeat, void alreadySent);
	const edited = { ...entry, signed };
	await ledger.write(record, JSON.stringify(edited));
	return edited;
}

async function run(signer: IDataObject, items: IDataObject[], key: Record<string, IDataObject>) {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{ name: 'Sign', type: SIGNER, parameters: signer as never, continueOnFail: true },
		],
		{
			expandApi: devnetExpandApi(devnet),
			...key,
		} as never,
	);
	expect(result.error).toBeUndefined();
	return result.output('Sign').map((item) => item.json);
}

const evmSign = (items: IDataObject[]) =>
	run(
		{
			operation: 'signTransaction',
			source: 'input',
			accountIndex: ACCOUNT,
			payoutId: '={{ $json.payoutId }}',
		},
		items.map((item) => ({ chainId: '31337', ...item })),
		{
			expandSignerApi: devnetSignerKey(ledger.fields),
		},
	);
const evmBalance = async (account: string) =>
	BigInt(await devnet.rpc<string>('31337', 'eth_getBalance', [account, 'latest']));

describe.each(LEDGER_STORES)('%s ledger', (kind) => {
	// A devnet of its own per store: the same payouts are signed, and balances checked, in each.
	devnetPerStore(stores, kind, (started, created) => ([devnet, ledger] = [started, created]));

	test('EVM: a ledger file edited to carry a signed refund to the outsider is refused on the repeat; the bytes it carries pay the outsider when sent', async () => {
		const invoice = { payoutId: 'invoice-7', to: '0x' + 'd7'.repeat(20), value: '1000' };
		const [signed] = await evmSign([invoice]);
		expect(signed.repeat).toBe(false);
		// Signed for a review step that never approved it, and never sent (its nonce given, as a replacement of the invoice would be).
		const [refund] = await evmSign([
			{
				payoutId: 'refund-review-3',
				to: OUTSIDER,
				value: '5000000000000000000',
				nonce: String(signed.nonce),
			},
		]);
		expect(refund.error).toBeUndefined();
		const edited = await swapSigned(ledgerRecord('31337', sender.address, 'invoice-7'), refund);

		const [repeat] = await evmSign([invoice]);
		expect(repeat.error).toMatch(
			new RegExp(
				`^Refused by the rule "payoutId": the ledger entry of payout ID "invoice-7" states content \\["0x${'d7'.repeat(20)}","1000","0x"\\], but its signed bytes \\(${refund.transactionHash}\\) have \\["${OUTSIDER}","5000000000000000000","0x"\\]; it was changed outside the Signer: check it by hand, nothing is returned for it; nothing was signed \\(item 0\\)$`,
			),
		);
		expect(repeat.rawTransaction).toBeUndefined();

		// Without the rule the repeat was the file's signed transaction, marked not sent; sent, it pays the outsider.
		const before = await evmBalance(OUTSIDER);
		await devnet.rpc('31337', 'eth_sendRawTransaction', [
			(edited.signed as IDataObject).rawTransaction,
		]);
		expect((await evmBalance(OUTSIDER)) - before).toBe(5000000000000000000n);
	});

	test('EVM: a ledger entry whose stated hash is another, mined transaction (so the payout looks sent) is refused', async () => {
		const invoice = { payoutId: 'invoice-8', to: '0x' + 'd8'.repeat(20), value: '2000' };
		const [signed] = await evmSign([invoice]);
		const [paid] = await evmSign([
			{
				payoutId: 'invoice-9',
				to: '0x' + 'd9'.repeat(20),
				value: '1',
				nonce: String(signed.nonce),
			},
		]);
		await devnet.rpc('31337', 'eth_sendRawTransaction', [paid.rawTransaction]);
		const record = ledgerRecord('31337', sender.address, 'invoice-8');
		const entry = JSON.parse(String(await ledger.read(record))) as { signed: IDataObject };
		entry.signed.transactionHash = paid.transactionHash;
		await ledger.write(record, JSON.stringify(entry));
		const [repeat] = await evmSign([invoice]);
		expect(repeat.error).toMatch(
			/^Refused by the rule "payoutId": the ledger entry of payout ID "invoice-8" states transaction hash 0x[0-9a-f]{64}, but its signed bytes \(0x[0-9a-f]{64}\) have 0x[0-9a-f]{64}; it was changed outside the Signer/,
		);
	});

	const solanaKey = (index: number) => ({
		expandSolanaKeyApi: {
			keyType: 'secretKey',
			secretKey: devnet.solana.wallets[index].secretKey,
			...ledger.fields,
		},
	});
	const solanaSign = (parameters: IDataObject, items: IDataObject[]) =>
		run(
			{ chainFamily: 'solana', solanaChainId: '901', payoutId: '={{ $json.id }}', ...parameters },
			items,
			solanaKey(1),
		);

	test('Solana: a ledger file edited to carry a signed transfer to the outsider is refused on the repeat; the bytes it carries pay the outsider when sent', async () => {
		const outsider = (await generateKeyPairSigner()).address;
		const payout = {
			operation: 'transferSol',
			recipient: devnet.solana.wallets[4].address,
			amount: '3000',
		};
		await solanaSign(payout, [{ id: 'sol-7' }]);
		const [refund] = await solanaSign(
			{ operation: 'transferSol', recipient: outsider, amount: '2000000000' },
			[{ id: 'sol-refund-review' }],
		);
		const from = devnet.solana.wallets[1].address;
		const edited = await swapSigned(ledgerRecord('901', from, 'sol-7'), refund);

		const [repeat] = await solanaSign(payout, [{ id: 'sol-7' }]);
		expect(repeat.error).toMatch(
			/^Refused by the rule "payoutId": the ledger entry of payout ID "sol-7" states content .*, but its signed bytes \(\w+\) have .*; it was changed outside the Signer: check it by hand, nothing is returned for it; nothing was signed \(item 0\)$/,
		);
		expect(repeat.rawTransaction).toBeUndefined();

		devnet.solana.chain.sendBase64(String((edited.signed as IDataObject).rawTransaction));
		expect(await devnet.solana.chain.balance(address(outsider))).toBe(2000000000n);
	});

	/** An unsigned transfer of 1,000 lamports to wallet 4 whose lifetime is a durable nonce. */
	async function durableTransfer() {
		const from = devnet.solana.wallets[1].address;
		const nonceAccount = (await generateKeyPairSigner()).address;
		const message = pipe(
			createTransactionMessage({ version: 0 }),
			(draft) => setTransactionMessageFeePayer(address(from), draft),
			(draft) =>
				setTransactionMessageLifetimeUsingDurableNonce(
					{
						nonce: 'GfnhkazE7Sj1oPQ3KGuVrqzhoY4kJ8pETXcjvaj3gfoX' as Nonce,
						nonceAccountAddress: nonceAccount,
						nonceAuthorityAddress: address(from),
					},
					draft,
				),
			(draft) =>
				appendTransactionMessageInstructions(
					[
						getTransferSolInstruction({
							source: createNoopSigner(address(from)),
							destination: address(devnet.solana.wallets[4].address),
							amount: 1000n,
						}),
					],
					draft,
				),
		);
		const wire = unsignedWire(message);
		return { wire };
	}

	test('Solana: a durable-nonce transaction is not signed under a payout ID (it stays valid until its nonce account advances); without a payout ID it is signed as before', async () => {
		const { wire } = await durableTransfer();
		const parameters = { operation: 'signTransaction', serializedTransaction: wire };
		const [refused] = await solanaSign(parameters, [{ id: 'durable-1' }]);
		expect(refused.error).toBe(
			'Refused by the rule "payoutId": the transaction uses a durable nonce (GfnhkazE7Sj1oPQ3KGuVrqzhoY4kJ8pETXcjvaj3gfoX) instead of a recent blockhash: it stays valid until its nonce account advances, so the Signer cannot tell when a payout could be paid twice; a payout ID is signed only for a transaction with a recent blockhash; nothing was signed (item 0)',
		);
		const [signed] = await solanaSign(parameters, [{ id: '' }]);
		expect([signed.error, signed.repeat, typeof signed.rawTransaction]).toEqual([
			undefined,
			false,
			'string',
		]);
	});

	test('Solana: a payout an earlier version signed with a durable nonce is not called "can never land" on the rerun (its nonce value is no blockhash): refused, never re-signed', async () => {
		const recipient = devnet.solana.wallets[4].address;
		const { wire } = await durableTransfer();
		const [signed] = await solanaSign(
			{ operation: 'signTransaction', serializedTransaction: wire },
			[{ id: '' }],
		);
		// The entry as the earlier version wrote it, before payout IDs refused durable nonces.
		const from = devnet.solana.wallets[1].address;
		await ledger.write(
			ledgerRecord('901', from, 'durable-old'),
			JSON.stringify({
				payoutId: 'durable-old',
				chainId: '901',
				from,
				content: JSON.stringify([['native', recipient, '1000']]),
				signed: { ...signed, repeat: undefined },
				signedAt: new Date().toISOString(),
			}),
		);
		// The rerun builds a new transaction (a recent blockhash) for the same payment.
		const [rerun] = await solanaSign({ operation: 'transferSol', recipient, amount: '1000' }, [
			{ id: 'durable-old' },
		]);
		expect(rerun.error).toMatch(
			/^Refused by the rule "payoutId": payout ID "durable-old" was signed on .* as \w+, which is not on the chain and uses a durable nonce: it can still land for as long as its nonce account holds that nonce, so it is neither returned nor signed again\. .*never pay it under a new payout ID while the nonce account has not advanced; nothing was signed \(item 0\)$/,
		);
		expect(rerun.rawTransaction).toBeUndefined();
	});
});
