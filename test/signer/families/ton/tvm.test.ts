/**
 * The real TVM (@ton/sandbox) accepts what the Signer signs: a W5 and a v4R2 wallet, deployed by their
 * first signed transfer, send exactly the messages the effect reads (value, destination, comment, the
 * jetton transfer body to the jetton wallet), and refuse the same message twice or after valid_until.
 */
import { Address, Cell, loadMessage, toNano } from '@ton/core';
import { Blockchain } from '@ton/sandbox';

import {
	commentBody,
	decodeJettonBody,
	jettonTransferBody,
	readComment,
	readSignedTransfer,
	signTonTransfer,
	type TonAccount,
	tonEffect,
	type TonTransfer,
} from '../../../../packages/signer/nodes/ExpandSigner/families/ton';
import { devnetKeyring, tonMnemonicKeyring } from './fixtures';

const NOW = 1_800_000_000;
const RECIPIENT = '0:' + '11'.repeat(32);
const MASTER = '0:' + '3a'.repeat(32);
const JETTON_WALLET = '0:' + '4b'.repeat(32);

/** The wallets' exit codes: a seqno not the wallet's, a valid_until passed (W5's 133 and 136, v4R2's 33 and 36). */
const SEQNO_REFUSED = { W5: 133, v4R2: 33 };
const EXPIRED = { W5: 136, v4R2: 36 };

async function fundedChain(account: TonAccount) {
	const blockchain = await Blockchain.create();
	blockchain.now = NOW;
	const treasury = await blockchain.treasury('funder');
	await treasury.send({ to: Address.parse(account.address), value: toNano('10'), bounce: false });
	return blockchain;
}

const cellOf = (raw: string) => Cell.fromBoc(Buffer.from(raw, 'base64'))[0];

for (const [version, chainId, keyring] of [
	['W5', '1100', tonMnemonicKeyring('W5')],
	['v4R2', '1101', devnetKeyring('v4R2')],
] as const) {
	test(`a ${version} wallet on chain ${chainId} accepts its first signed transfer and sends what the effect reads`, async () => {
		const account = keyring.account(0, chainId);
		const blockchain = await fundedChain(account);
		const transfer: TonTransfer = {
			chainId,
			seqno: 0,
			validUntil: NOW + 300,
			deployWallet: true,
			messages: [
				{
					to: RECIPIENT,
					value: toNano('1.5'),
					bounce: false,
					mode: 3,
					body: commentBody('payout 9'),
				},
				{
					to: JETTON_WALLET,
					value: toNano('0.05'),
					bounce: true,
					mode: 3,
					body: jettonTransferBody({
						queryId: 0n,
						amount: 1_000_000n,
						destination: RECIPIENT,
						responseDestination: account.address,
						forwardTonAmount: 1n,
						comment: 'payout 9',
					}),
				},
			],
		};
		const signed = signTonTransfer(account, transfer);
		const read = readSignedTransfer(signed.rawTransaction, account);
		const effect = tonEffect(read, account, new Map([[JETTON_WALLET, MASTER]]));
		expect(effect.movements.filter((movement) => !movement.cost)).toEqual([
			{
				asset: 'native',
				recipient: RECIPIENT,
				amount: toNano('1.5'),
				via: 'TON transfer',
				action: 'transfer',
				memo: 'payout 9',
			},
			{
				asset: MASTER,
				recipient: RECIPIENT,
				amount: 1_000_000n,
				via: 'jetton transfer',
				action: 'transfer',
				contract: MASTER,
				memo: 'payout 9',
			},
		]);

		const result = await blockchain.sendMessage(cellOf(signed.rawTransaction));
		const walletTransaction = result.transactions.find(
			(transaction) => transaction.inMessage?.info.type === 'external-in',
		);
		const description = walletTransaction?.description;
		expect(
			description?.type === 'generic' && [
				description.aborted,
				description.computePhase.type === 'vm' && description.computePhase.exitCode,
			],
		).toEqual([false, 0]);
		// The wallet's transaction carries the signed body the Signer finds it by.
		expect(walletTransaction?.inMessage?.body.hash().toString('hex')).toBe(signed.bodyHash);
		const sent = walletTransaction?.outMessages.values() ?? [];
		expect(sent).toHaveLength(2);
		const [payment, jetton] = sent;
		expect(
			payment.info.type === 'internal' && [
				payment.info.dest.toRawString(),
				payment.info.value.coins,
				payment.info.bounce,
			],
		).toEqual([RECIPIENT, toNano('1.5'), false]);
		expect(readComment(payment.body)).toBe('payout 9');
		expect(
			jetton.info.type === 'internal' && [
				jetton.info.dest.toRawString(),
				jetton.info.value.coins,
				jetton.info.bounce,
			],
		).toEqual([JETTON_WALLET, toNano('0.05'), true]);
		expect(decodeJettonBody(jetton.body)).toMatchObject({
			kind: 'transfer',
			amount: 1_000_000n,
			destination: RECIPIENT,
			responseDestination: account.address,
			comment: 'payout 9',
		});
		const state = await blockchain.getContract(Address.parse(account.address));
		expect(state.accountState?.type).toBe('active');
		expect(
			(
				await blockchain.runGetMethod(Address.parse(account.address), 'seqno')
			).stackReader.readNumber(),
		).toBe(1);

		// The same message again: its seqno is spent, so the wallet refuses it.
		await expect(blockchain.sendMessage(cellOf(signed.rawTransaction))).rejects.toThrow(
			`exit code ${SEQNO_REFUSED[version]}`,
		);
		// The next seqno after valid_until: refused too.
		const late = signTonTransfer(account, {
			chainId,
			seqno: 1,
			validUntil: NOW - 1,
			messages: [{ to: RECIPIENT, value: 1n, bounce: false, mode: 3 }],
		});
		await expect(blockchain.sendMessage(cellOf(late.rawTransaction))).rejects.toThrow(
			`exit code ${EXPIRED[version]}`,
		);
		// In time, it is accepted.
		const next = signTonTransfer(account, {
			chainId,
			seqno: 1,
			validUntil: NOW + 60,
			messages: [{ to: RECIPIENT, value: 1n, bounce: false, mode: 3 }],
		});
		const accepted = await blockchain.sendMessage(cellOf(next.rawTransaction));
		expect(
			accepted.transactions.some(
				(transaction) => transaction.inMessage?.body.hash().toString('hex') === next.bodyHash,
			),
		).toBe(true);
		expect(loadMessage(cellOf(next.rawTransaction).beginParse()).info.type).toBe('external-in');
	});
}
