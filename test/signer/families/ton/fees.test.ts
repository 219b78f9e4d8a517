/**
 * The fee a TON transfer can cost counts the forwarding of its messages, which the wallet pays on top of
 * their values (mode +1) and which grows with their size: many messages sharing one large comment make a
 * small external message whose forwarding costs the wallet TON, on the real TVM as in the effect.
 */
import { Address, Cell, toNano } from '@ton/core';
import { Blockchain } from '@ton/sandbox';

import {
	commentBody,
	signTonTransfer,
	TON_POLICY_FORMAT,
	tonEffect,
	type TonAccount,
	type TonTransfer,
} from '../../../../packages/signer/nodes/ExpandSigner/families/ton';
import { transactionRefusal } from '../../../../packages/signer/nodes/ExpandSigner/policy/check';
import { readPolicy } from '../../../../packages/signer/nodes/ExpandSigner/policy/policy';
import { devnetKeyring } from './fixtures';

const NOW = 1_800_000_000;
const RECIPIENT = '0:' + '11'.repeat(32);
const account = devnetKeyring('W5').account(0, '1100');

/** What the wallet paid beyond the messages' values and its own gas and storage: the forwarding fees. */
async function forwardingPaid(
	transfer: TonTransfer,
	signer: TonAccount = account,
): Promise<bigint> {
	const account = signer;
	const blockchain = await Blockchain.create();
	blockchain.now = NOW;
	const treasury = await blockchain.treasury('funder');
	const wallet = Address.parse(account.address);
	await treasury.send({ to: wallet, value: toNano('100'), bounce: false });
	const before = (await blockchain.getContract(wallet)).balance;
	const signed = signTonTransfer(account, transfer);
	const result = await blockchain.sendMessage(
		Cell.fromBoc(Buffer.from(signed.rawTransaction, 'base64'))[0],
	);
	const walletTransaction = result.transactions.find(
		(transaction) => transaction.inMessage?.info.type === 'external-in',
	);
	const description = walletTransaction?.description;
	if (description?.type !== 'generic' || description.computePhase.type !== 'vm')
		throw new Error('the wallet did not run');
	expect(walletTransaction?.outMessagesCount).toBe(transfer.messages.length);
	const after = (await blockchain.getContract(wallet)).balance;
	const values = transfer.messages.reduce((sum, message) => sum + message.value, 0n);
	const storage = description.storagePhase?.storageFeesCollected ?? 0n;
	return before - after - values - description.computePhase.gasFees - storage;
}

const transferOf = (count: number, comment: string): TonTransfer => ({
	chainId: '1100',
	seqno: 0,
	validUntil: NOW + 300,
	deployWallet: true,
	messages: Array.from({ length: count }, () => ({
		to: RECIPIENT,
		value: 1n,
		bounce: false,
		mode: 3,
		body: commentBody(comment),
	})),
});

test('32 messages of one nanoton sharing a 30 KB comment cost the wallet TON in forwarding: the fee counts it, and Max Total Fee refuses it', async () => {
	const transfer = transferOf(32, 'x'.repeat(30_000));
	const effect = tonEffect(transfer, account, new Map());
	const paid = await forwardingPaid(transfer);
	expect(paid).toBeGreaterThan(toNano('3'));
	expect(effect.maxFee).toBeGreaterThanOrEqual(paid);
	expect(effect.maxFee).toBeLessThan(paid + toNano('0.05'));
	const policy = readPolicy({ allowedRecipients: RECIPIENT }, TON_POLICY_FORMAT, undefined);
	expect(transactionRefusal(policy, effect, false)?.rule).toBe('maxTotalFee');
});

for (const version of ['W5', 'v4R2'] as const)
	test(`a ${version} payment with a short comment costs what a wallet app's does, within the fee counted`, async () => {
		const signer = devnetKeyring(version).account(1, '1100');
		const transfer = transferOf(1, 'payout 7');
		const effect = tonEffect(transfer, signer, new Map());
		const paid = await forwardingPaid(transfer, signer);
		expect(effect.maxFee).toBeGreaterThanOrEqual(paid);
		expect(effect.maxFee).toBeLessThan(toNano('0.01'));
	});
