/**
 * A TON transfer signed with @ton/ton's wallet contracts reads back as the same transfer (W5 and v4R2,
 * both chains), and the reader refuses what is not a plain transfer signed by the account for its chain.
 */
import {
	Address,
	beginCell,
	Cell,
	external,
	internal,
	loadMessage,
	SendMode,
	storeMessage,
	storeMessageRelaxed,
} from '@ton/core';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';

import {
	commentBody,
	readComment,
	readSignedTransfer,
	signTonTransfer,
	type TonAccount,
	type TonTransfer,
	UndecodableTonTransaction,
} from '../../../../packages/signer/nodes/ExpandSigner/families/ton';
import { devnetKeyring, tonMnemonicKeyring } from './fixtures';

const RECIPIENT = '0:' + '11'.repeat(32);
const OTHER = '0:' + '22'.repeat(32);
const VALID_UNTIL = 1_900_000_000;

const transferOf = (account: TonAccount, seqno = 7): TonTransfer => ({
	chainId: account.chainId,
	seqno,
	validUntil: VALID_UNTIL,
	messages: [
		{ to: RECIPIENT, value: 1_500_000_000n, bounce: false, mode: 3 },
		{
			to: OTHER,
			value: 1n,
			bounce: true,
			mode: 3,
			body: commentBody('payout 42 ' + 'é'.repeat(200)),
		},
	],
});

/** What a transfer reads as, with cells as their hashes. */
const shape = (transfer: TonTransfer) => ({
	...transfer,
	messages: transfer.messages.map(({ body, stateInit, ...message }) => ({
		...message,
		body: body?.hash().toString('hex'),
		stateInit: stateInit?.hash().toString('hex'),
	})),
});

const externalTo = (wallet: Address, body: Cell, init?: { code: Cell; data: Cell }) =>
	beginCell()
		.store(storeMessage(external({ to: wallet, body, init })))
		.endCell()
		.toBoc()
		.toString('base64');

const bodyOf = (raw: string) =>
	loadMessage(Cell.fromBoc(Buffer.from(raw, 'base64'))[0].beginParse()).body;

/** TEP-467's normalized message, built here from its definition: ext_in_msg_info, no source or state init, the body in a reference. */
const normalized = (account: TonAccount, raw: string) =>
	beginCell()
		.storeUint(0b10, 2)
		.storeUint(0b00, 2)
		.storeAddress(Address.parse(account.address))
		.storeCoins(0)
		.storeUint(0b01, 2)
		.storeRef(bodyOf(raw))
		.endCell()
		.hash()
		.toString('hex');

const refusal = (raw: string, account: TonAccount) => {
	try {
		readSignedTransfer(raw, account);
	} catch (error) {
		expect(error).toBeInstanceOf(UndecodableTonTransaction);
		return (error as Error).message;
	}
	throw new Error('read');
};

test('a signed transfer reads back as the transfer, for W5 and v4R2 on both chains, with its hashes', () => {
	for (const version of ['W5', 'v4R2'] as const) {
		for (const chainId of ['1100', '1101']) {
			const account = devnetKeyring(version).account(1, chainId);
			const transfer = transferOf(account);
			const signed = signTonTransfer(account, transfer);
			const read = readSignedTransfer(signed.rawTransaction, account);
			expect(shape(read)).toEqual({
				...shape(transfer),
				transactionHash: signed.transactionHash,
				bodyHash: signed.bodyHash,
			});
			expect(readComment(read.messages[1].body as Cell)).toBe('payout 42 ' + 'é'.repeat(200));
			expect(signed.bodyHash).toBe(bodyOf(signed.rawTransaction).hash().toString('hex'));
			expect(signed.transactionHash).toBe(normalized(account, signed.rawTransaction));
		}
	}
});

test("seqno 0 carries the wallet's state init only when asked, and reads back so", () => {
	const account = tonMnemonicKeyring('W5').account(0, '1101');
	const plain = signTonTransfer(account, transferOf(account, 0));
	expect(readSignedTransfer(plain.rawTransaction, account).deployWallet).toBeUndefined();
	const deploying = signTonTransfer(account, { ...transferOf(account, 0), deployWallet: true });
	expect(readSignedTransfer(deploying.rawTransaction, account).deployWallet).toBe(true);
	// The same signed body: the normalized hash leaves the state init out.
	expect(deploying.transactionHash).toBe(plain.transactionHash);
	expect(() => signTonTransfer(account, { ...transferOf(account, 3), deployWallet: true })).toThrow(
		'A TON wallet is deployed by its first transfer (seqno 0), not by seqno 3',
	);
	const stranger = tonMnemonicKeyring('v4R2').account(0, '1101').wallet().init;
	const body = bodyOf(plain.rawTransaction);
	expect(refusal(externalTo(account.wallet().address, body, stranger), account)).toBe(
		"The signed TON message cannot be read: its state init is not the account's wallet",
	);
});

test('a W5 message for the other chain, or of another key, is refused', () => {
	const testnet = tonMnemonicKeyring('W5').account(0, '1101');
	const mainnet = tonMnemonicKeyring('W5').account(0, '1100');
	const signed = signTonTransfer(testnet, transferOf(testnet));
	expect(refusal(signed.rawTransaction, mainnet)).toBe(
		`The signed TON message cannot be read: it is for ${testnet.address}, not the account's W5 wallet ${mainnet.address} on chain 1100`,
	);
	// Sent to the mainnet wallet, the testnet signature still names the testnet's wallet_id.
	const body = bodyOf(signed.rawTransaction);
	expect(refusal(externalTo(mainnet.wallet().address, body), mainnet)).toMatch(
		/^The signed TON message cannot be read: its wallet_id -?\d+ is not the one of chain 1100$/,
	);
	// Another key's body sent to this wallet: the signature does not verify.
	const other = devnetKeyring('W5').account(0, '1100');
	const foreign = signTonTransfer(other, transferOf(other));
	const foreignBody = bodyOf(foreign.rawTransaction);
	expect(refusal(externalTo(mainnet.wallet().address, foreignBody), mainnet)).toBe(
		`The signed TON message cannot be read: its signature is not of the key of ${mainnet.address}`,
	);
	const v4 = devnetKeyring('v4R2').account(0, '1100');
	const v4Other = devnetKeyring('v4R2').account(2, '1100');
	const v4Body = bodyOf(signTonTransfer(v4Other, transferOf(v4Other)).rawTransaction);
	expect(refusal(externalTo(v4.wallet().address, v4Body), v4)).toBe(
		`The signed TON message cannot be read: its signature is not of the key of ${v4.address}`,
	);
});

test('a tampered signature, an internal message and bytes that are no message are refused', () => {
	const account = devnetKeyring('W5').account(0, '1100');
	const signed = signTonTransfer(account, transferOf(account));
	const body = bodyOf(signed.rawTransaction);
	const bits = body.beginParse();
	const flipped = beginCell()
		.storeBits(bits.loadBits(body.bits.length - 1))
		.storeBit(!bits.loadBit());
	for (const ref of body.refs) flipped.storeRef(ref);
	expect(refusal(externalTo(account.wallet().address, flipped.endCell()), account)).toBe(
		`The signed TON message cannot be read: its signature is not of the key of ${account.address}`,
	);
	const asInternal = beginCell()
		.store(storeMessageRelaxed(internal({ to: account.wallet().address, value: 0n, body })))
		.endCell()
		.toBoc()
		.toString('base64');
	expect(refusal(asInternal, account)).toBe(
		'The signed TON message cannot be read: it is not a wallet transfer the signer can read',
	);
	for (const raw of ['', 'not base64!', Buffer.from('garbage').toString('base64')])
		expect(refusal(raw, account)).toBe(
			'The signed TON message cannot be read: it is not a wallet transfer the signer can read',
		);
});

test("W5's extended actions and out actions other than a message sent are refused", () => {
	const account = devnetKeyring('W5').account(0, '1100');
	const wallet = account.wallet() as WalletContractV5R1;
	const secretKey = account.secretKey();
	const base = { seqno: 1, timeout: VALID_UNTIL, secretKey };
	const extension = wallet.createAddExtension({ ...base, extensionAddress: Address.parse(OTHER) });
	expect(refusal(externalTo(wallet.address, extension), account)).toBe(
		'The signed TON message cannot be read: it holds extended actions (an extension added or removed, signature authentication switched), which hand the wallet to another key or contract',
	);
	const disable = wallet.createRequest({
		...base,
		actions: [{ type: 'setIsPublicKeyEnabled', isEnabled: false }],
	});
	expect(refusal(externalTo(wallet.address, disable), account)).toMatch(/extended actions/);
	const setCode = wallet.createRequest({
		...base,
		// @ton/ton's types leave set_code out of W5's actions; its serializer writes it as any out action.
		actions: [{ type: 'setCode', newCode: beginCell().endCell() }] as unknown as Parameters<
			typeof wallet.createRequest
		>[0]['actions'],
	});
	expect(refusal(externalTo(wallet.address, setCode), account)).toBe(
		'The signed TON message cannot be read: its out list holds an action that is not a message sent',
	);
	const extra = wallet.createTransfer({
		...base,
		sendMode: SendMode.PAY_GAS_SEPARATELY,
		messages: [internal({ to: RECIPIENT, value: 1n, extracurrency: { 100: 5n } })],
	});
	expect(refusal(externalTo(wallet.address, extra), account)).toBe(
		'The signed TON message cannot be read: an out message carries extra currencies',
	);
});

test("v4R2's plugin operations are refused", () => {
	const account = devnetKeyring('v4R2').account(0, '1101');
	const wallet = account.wallet() as WalletContractV4;
	const plugin = wallet.createRequest({
		seqno: 1,
		timeout: VALID_UNTIL,
		secretKey: account.secretKey(),
		action: {
			type: 'addPlugin',
			address: Address.parse(OTHER),
			forwardAmount: 1n,
		},
	});
	expect(refusal(externalTo(wallet.address, plugin), account)).toBe(
		'The signed TON message cannot be read: its op 2 is a plugin operation, not a simple send',
	);
});

test('what a wallet cannot send is not signed', () => {
	const v4 = devnetKeyring('v4R2').account(0, '1100');
	const five = { ...transferOf(v4), messages: Array(5).fill(transferOf(v4).messages[0]) };
	expect(() => signTonTransfer(v4, five)).toThrow(
		new UndecodableTonTransaction(
			'A v4R2 wallet sends at most 4 messages at once; the transfer has 5',
		),
	);
	const w5 = devnetKeyring('W5').account(0, '1100');
	const mode1 = transferOf(w5);
	mode1.messages = mode1.messages.map((message) => ({ ...message, mode: 1 }));
	expect(() => signTonTransfer(w5, mode1)).toThrow(
		"A W5 wallet sends an external message's transfers only with mode +2 (ignore errors); the mode is 1",
	);
	const mixed = transferOf(w5);
	mixed.messages[1] = { ...mixed.messages[1], mode: 2 };
	expect(() => signTonTransfer(w5, mixed)).toThrow(/different send modes/);
	expect(() => signTonTransfer(w5, { ...transferOf(w5), chainId: '1101' })).toThrow(
		"The TON transfer is for chain 1101, the account's wallet is on chain 1100",
	);
	expect(() => signTonTransfer(w5, { ...transferOf(w5), validUntil: 0 })).toThrow(
		"The TON transfer's valid until 0 is not a time in unix seconds",
	);
});
