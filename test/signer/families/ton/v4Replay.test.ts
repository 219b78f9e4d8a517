/**
 * v4R2's wallet_id (698983191) is the same on mainnet and testnet, and so is its address: a transfer
 * signed for chain 1101 is, byte for byte, a transfer of the same wallet on chain 1100. The real TVM
 * accepts a testnet-signed message on a mainnet wallet whose seqno matches, and the reader reads it as a
 * mainnet transfer. W5 puts the network's global ID in its wallet_id, so its testnet messages do not replay.
 */
import { Address, Cell, toNano } from '@ton/core';
import { Blockchain } from '@ton/sandbox';

import {
	readSignedTransfer,
	signTonTransfer,
	type TonWalletVersion,
	UndecodableTonTransaction,
} from '../../../../packages/signer/nodes/ExpandSigner/families/ton';
import { devnetKeyring } from './fixtures';

const NOW = 1_800_000_000;
const RECIPIENT = '0:' + '11'.repeat(32);

async function mainnetWith(address: string) {
	const blockchain = await Blockchain.create();
	blockchain.now = NOW;
	const treasury = await blockchain.treasury('funder');
	await treasury.send({ to: Address.parse(address), value: toNano('10'), bounce: false });
	return blockchain;
}

const signedOnTestnet = (version: TonWalletVersion) => {
	const testnet = devnetKeyring(version).account(0, '1101');
	return signTonTransfer(testnet, {
		chainId: '1101',
		seqno: 0,
		validUntil: NOW + 300,
		deployWallet: true,
		messages: [{ to: RECIPIENT, value: toNano('5'), bounce: false, mode: 3 }],
	});
};

test('a v4R2 transfer signed for testnet moves the same TON on mainnet', async () => {
	const mainnet = devnetKeyring('v4R2').account(0, '1100');
	expect(devnetKeyring('v4R2').account(0, '1101').address).toBe(mainnet.address);
	const signed = signedOnTestnet('v4R2');
	expect(readSignedTransfer(signed.rawTransaction, mainnet)).toMatchObject({
		chainId: '1100',
		seqno: 0,
	});
	const blockchain = await mainnetWith(mainnet.address);
	const result = await blockchain.sendMessage(
		Cell.fromBoc(Buffer.from(signed.rawTransaction, 'base64'))[0],
	);
	const paid = result.transactions.find(
		(transaction) =>
			transaction.inMessage?.info.dest?.toString() === Address.parse(RECIPIENT).toString(),
	);
	expect(paid?.inMessage?.info.type === 'internal' && paid.inMessage.info.value.coins).toBe(
		toNano('5'),
	);
});

test("a W5 transfer signed for testnet is not the mainnet wallet's", () => {
	const mainnet = devnetKeyring('W5').account(0, '1100');
	expect(() => readSignedTransfer(signedOnTestnet('W5').rawTransaction, mainnet)).toThrow(
		UndecodableTonTransaction,
	);
});
