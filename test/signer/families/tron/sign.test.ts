/**
 * Signing a Tron transaction and a message. The signed transaction is what chain/sendtransaction takes
 * (base64 of tronweb's JSON); its txID is SHA-256 of its raw_data bytes, computed here with node's
 * crypto, and its signature recovers, with ethers, to the account. A TIP-191 message signature recovers
 * to the account from the hash written here from the TIP's words.
 */
import { createHash } from 'crypto';

import { concat, keccak256, recoverAddress, Signature, toUtf8Bytes } from 'ethers';
import { txCheck } from 'tronweb/utils';

import {
	decodeRawDataHex,
	describeTronError,
	messageBytes,
	messageKind,
	NotASigner,
	recoveredAddress,
	referenceBlock,
	signTronMessage,
	signTronTransaction,
	tronKeyring,
	transferTrc20Transaction,
	transferTrxTransaction,
} from '../../../../packages/signer/nodes/ExpandSigner/families/tron';

const PHRASE =
	'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const keyring = tronKeyring({ keyType: 'mnemonic', mnemonic: PHRASE });
const account = keyring.account(0);
const RECIPIENT = keyring.account(1).address;
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const BLOCK = referenceBlock(
	{ number: 77, blockID: `${'00'.repeat(6)}004d${'a1'.repeat(24)}`, timestamp: NOW },
	60_000,
);

/** The address (hex 41…) whose key made a 65-byte signature over a 32-byte hash, by ethers. */
function signerOf(hash: string, signature: string): string {
	return `41${recoverAddress(hash, Signature.from(`0x${signature.replace(/^0x/, '')}`))
		.slice(2)
		.toLowerCase()}`;
}

test.each([
	[
		'TRX transfer',
		() =>
			transferTrxTransaction({
				from: account.address,
				to: RECIPIENT,
				amount: 1_000_000n,
				block: BLOCK,
				timestamp: NOW,
			}),
	],
	[
		'TRC-20 transfer',
		() =>
			transferTrc20Transaction({
				from: account.address,
				token: USDT,
				to: RECIPIENT,
				amount: 5n,
				feeLimit: 10_000_000n,
				block: BLOCK,
				timestamp: NOW,
			}),
	],
])(
	'a %s is signed: base64 JSON whose txID is SHA-256 of its bytes, signed by the account',
	(_, build) => {
		const built = build();
		const decoded = decodeRawDataHex(built.raw_data_hex, NOW);
		const signed = signTronTransaction(account, decoded, '1000');
		const sent = JSON.parse(Buffer.from(signed.rawTransaction, 'base64').toString('utf8'));
		const txID = createHash('sha256').update(Buffer.from(built.raw_data_hex, 'hex')).digest('hex');
		expect(signed).toMatchObject({ transactionHash: txID, from: account.address, chainId: '1000' });
		expect(sent).toEqual({
			visible: false,
			txID,
			raw_data: decoded.rawData,
			raw_data_hex: built.raw_data_hex,
			signature: [signed.signature],
		});
		// tronweb's own check that the JSON's raw_data encodes to its txID (as the node re-encodes it).
		expect(txCheck(sent)).toBe(true);
		expect(signerOf(`0x${txID}`, signed.signature)).toBe(account.hexAddress);
		expect(recoveredAddress(txID, signed.signature)).toBe(account.address);
	},
);

test('the same transaction signed twice gives the same signature (RFC 6979)', () => {
	const decoded = decodeRawDataHex(
		transferTrxTransaction({
			from: account.address,
			to: RECIPIENT,
			amount: 3n,
			block: BLOCK,
			timestamp: NOW,
		}).raw_data_hex,
		NOW,
	);
	expect(signTronTransaction(account, decoded, '1000').signature).toBe(
		signTronTransaction(account, decoded, '1000').signature,
	);
});

test("another account's transaction is not signed", () => {
	const decoded = decodeRawDataHex(
		transferTrxTransaction({
			from: RECIPIENT,
			to: account.address,
			amount: 3n,
			block: BLOCK,
			timestamp: NOW,
		}).raw_data_hex,
		NOW,
	);
	let error: unknown;
	try {
		signTronTransaction(account, decoded, '1000');
	} catch (thrown) {
		error = thrown;
	}
	expect(error).toBeInstanceOf(NotASigner);
	expect(describeTronError(error)).toBe(
		`The transaction is ${RECIPIENT}'s, not the signing account ${account.address}'s`,
	);
});

test('a signature recovers to no account when it is not one', () => {
	expect(recoveredAddress('00'.repeat(32), 'zz')).toBeUndefined();
});

test('a message is signed as TIP-191 (signMessageV2): keccak-256 of the prefix, its length and its bytes', () => {
	for (const [text, hex] of [
		['Pay invoice 42', false],
		['0x00ff10', true],
	] as const) {
		const bytes = messageBytes(text, hex) as Uint8Array;
		const { signature, address } = signTronMessage(account, bytes);
		expect(address).toBe(account.address);
		const hash = keccak256(
			concat([toUtf8Bytes(`\x19TRON Signed Message:\n${bytes.length}`), bytes]),
		);
		expect(signerOf(hash, signature)).toBe(account.hexAddress);
	}
});

test('message bytes: UTF-8 text, or 0x hex; hex that is not is refused, bytes that are not UTF-8 are told apart', () => {
	expect(messageBytes('hé', false)).toEqual(new Uint8Array([0x68, 0xc3, 0xa9]));
	expect(messageBytes('0xABcd', true)).toEqual(new Uint8Array([0xab, 0xcd]));
	for (const bad of ['abcd', '0xabc', '0xzz']) expect(messageBytes(bad, true)).toBeUndefined();
	expect(messageKind(toUtf8Bytes('Pay invoice 42'))).toBe('text');
	expect(messageKind(new Uint8Array([0xff, 0xfe, 0x00]))).toBe('bytes');
});

test("tronweb's and other foreign errors are not passed on in words", () => {
	expect(describeTronError(new Error('private key 1234 invalid'))).toBeUndefined();
	expect(describeTronError('a string thrown')).toBeUndefined();
});
