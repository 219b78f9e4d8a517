/**
 * What a Tron transaction does, as the spending policy reads it: TRX and TRC-10 transfers, a contract
 * call's TRX and TRC-10, its TRC-20 transfer, transferFrom, approve (unlimited said so) and
 * increaseApproval; any other call is opaque under its contract, any other contract type opaque under
 * its type; the fee ceiling is fee_limit. Each transaction is encoded with tronweb's encoder from its
 * JSON and read back through the family's decoder, as one from outside would be.
 */
import { AbiCoder } from 'ethers';

import {
	decodeRawDataHex,
	encodeRawData,
	hexAddress,
	prepareTronTransaction,
	NotASigner,
	tronEffect,
	tronKeyring,
	type TronRawData,
} from '../../../../packages/signer/nodes/ExpandSigner/families/tron';

const PHRASE =
	'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const OWNER = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';
const RECIPIENT = 'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK';
const THIRD = 'TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx';
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const hex = (address: string) => hexAddress(address) as string;

function effectOf(type: string, value: Record<string, unknown>, feeLimit?: number) {
	const rawData: TronRawData = {
		contract: [{ parameter: { value, type_url: `type.googleapis.com/protocol.${type}` }, type }],
		ref_block_bytes: 'abcd',
		ref_block_hash: '5e'.repeat(8),
		expiration: NOW + 60_000,
		timestamp: NOW,
		...(feeLimit === undefined ? {} : { fee_limit: feeLimit }),
	};
	return tronEffect(decodeRawDataHex(encodeRawData(rawData), NOW), '1000');
}

const words = (types: string[], values: unknown[]) =>
	AbiCoder.defaultAbiCoder().encode(types, values).slice(2);
const abiAddress = (address: string) => `0x${hex(address).slice(2)}`;

function call(data: string, extra: Record<string, unknown> = {}) {
	return effectOf(
		'TriggerSmartContract',
		{ owner_address: hex(OWNER), contract_address: hex(USDT), data, ...extra },
		40_000_000,
	);
}

test('a TRX transfer moves its amount of the native asset to its recipient; no fee_limit, no fee ceiling', () => {
	expect(
		effectOf('TransferContract', {
			owner_address: hex(OWNER),
			to_address: hex(RECIPIENT),
			amount: 2_000_000,
		}),
	).toEqual({
		chainId: '1000',
		from: OWNER,
		movements: [
			{
				asset: 'native',
				recipient: RECIPIENT,
				amount: 2_000_000n,
				via: 'TRX transfer',
				action: 'transfer',
			},
		],
		opaque: [],
		maxFee: 0n,
	});
});

test('a TRC-10 transfer moves the token its ID names', () => {
	const effect = effectOf('TransferAssetContract', {
		owner_address: hex(OWNER),
		to_address: hex(RECIPIENT),
		asset_name: Buffer.from('1002000').toString('hex'),
		amount: 750,
	});
	expect(effect.movements).toEqual([
		{
			asset: 'TRC-10 1002000',
			recipient: RECIPIENT,
			amount: 750n,
			via: 'TRC-10 transfer',
			action: 'transfer',
		},
	]);
	// No amount limit can name a TRC-10 token: its transfer is also unreadable to the spending rules.
	expect(effect.opaque).toEqual([
		{
			to: RECIPIENT,
			what: 'TRC-10 transfer of 750 (smallest unit) of TRC-10 1002000, an asset no amount limit can name',
		},
	]);
});

test('a TRC-20 transfer moves the token to its recipient; fee_limit is the fee ceiling', () => {
	const effect = call(
		`a9059cbb${words(['address', 'uint256'], [abiAddress(RECIPIENT), 25_000_000n])}`,
	);
	expect(effect.movements).toEqual([
		{
			asset: USDT,
			contract: USDT,
			recipient: RECIPIENT,
			amount: 25_000_000n,
			via: 'TRC-20 transfer',
			action: 'transfer',
		},
	]);
	expect(effect.opaque).toEqual([]);
	expect(effect.maxFee).toBe(40_000_000n);
});

test("a TRC-20 transferFrom moves the owner's tokens to the recipient", () => {
	const effect = call(
		`23b872dd${words(['address', 'address', 'uint256'], [abiAddress(THIRD), abiAddress(RECIPIENT), 7n])}`,
	);
	expect(effect.movements).toEqual([
		{
			asset: USDT,
			contract: USDT,
			recipient: RECIPIENT,
			owner: THIRD,
			amount: 7n,
			via: 'TRC-20 transferFrom',
			action: 'transferFrom',
		},
	]);
});

test.each([
	['approve', '095ea7b3', 5n, 'TRC-20 approve'],
	['approve of 2^256 − 1', '095ea7b3', 2n ** 256n - 1n, 'TRC-20 approve (unlimited)'],
	['increaseApproval', 'd73dd623', 9n, 'TRC-20 increaseApproval'],
	[
		'increaseApproval of 2^256 − 1',
		'd73dd623',
		2n ** 256n - 1n,
		'TRC-20 increaseApproval (unlimited)',
	],
])('a TRC-20 %s is an approval of its spender', (_, selector, amount, via) => {
	const effect = call(
		`${selector}${words(['address', 'uint256'], [abiAddress(RECIPIENT), amount])}`,
	);
	expect(effect.movements).toEqual([
		{ asset: USDT, contract: USDT, recipient: RECIPIENT, amount, via, action: 'approve' },
	]);
	expect(effect.opaque).toEqual([]);
});

test("a contract call's TRX and TRC-10 go to the contract, beside what its data does", () => {
	const effect = call(`a9059cbb${words(['address', 'uint256'], [abiAddress(RECIPIENT), 1n])}`, {
		call_value: 3_000_000,
		call_token_value: 40,
		token_id: 1002000,
	});
	expect(
		effect.movements.map(({ asset, recipient, amount, via }) => ({
			asset,
			recipient,
			amount,
			via,
		})),
	).toEqual([
		{ asset: 'native', recipient: USDT, amount: 3_000_000n, via: 'TRX sent with a contract call' },
		{
			asset: 'TRC-10 1002000',
			recipient: USDT,
			amount: 40n,
			via: 'TRC-10 token sent with a contract call',
		},
		{ asset: USDT, recipient: RECIPIENT, amount: 1n, via: 'TRC-20 transfer' },
	]);
	expect(effect.opaque).toEqual([
		{
			to: USDT,
			what: 'TRC-10 token sent with a contract call of 40 (smallest unit) of TRC-10 1002000, an asset no amount limit can name',
		},
	]);
});

test.each([
	[
		'a selector the Signer does not read (balanceOf)',
		`70a08231${words(['address'], [abiAddress(OWNER)])}`,
	],
	[
		'a transfer with a word too many',
		`a9059cbb${words(['address', 'uint256', 'uint256'], [abiAddress(RECIPIENT), 1n, 2n])}`,
	],
	['a transfer with a word short', `a9059cbb${words(['address'], [abiAddress(RECIPIENT)])}`],
	[
		'a transfer whose address word has high bytes set',
		`a9059cbb${'41'.padStart(24, '0')}${hex(RECIPIENT).slice(2)}${words(['uint256'], [1n])}`,
	],
	['no data', ''],
])('a call with %s is opaque under its contract, moving nothing', (_, data) => {
	const effect = call(data);
	expect(effect.movements).toEqual([]);
	expect(effect.opaque).toEqual([
		{ to: USDT, what: expect.stringContaining('not a TRC-20 transfer') },
	]);
});

test.each([
	['FreezeBalanceV2Contract', { owner_address: '', frozen_balance: 1_000_000, resource: 'ENERGY' }],
	['AccountCreateContract', { owner_address: '', account_address: '' }],
	['WithdrawBalanceContract', { owner_address: '' }],
])('a %s is opaque under its type, which no allowlist can name', (type, value) => {
	const filled = Object.fromEntries(
		Object.entries(value).map(([key, field]) => [
			key,
			field === '' ? hex(key === 'owner_address' ? OWNER : RECIPIENT) : field,
		]),
	);
	const effect = effectOf(type, filled);
	expect(effect.movements).toEqual([]);
	expect(effect.opaque).toEqual([
		{ to: type, what: `a ${type}, which is not a payment the Signer reads` },
	]);
	expect(effect.from).toBe(OWNER);
});

test('a transaction prepared for an account that is not its owner is refused', () => {
	const rawData = encodeRawData({
		contract: [
			{
				parameter: {
					value: { owner_address: hex(RECIPIENT), to_address: hex(OWNER), amount: 1 },
					type_url: 'type.googleapis.com/protocol.TransferContract',
				},
				type: 'TransferContract',
			},
		],
		ref_block_bytes: 'abcd',
		ref_block_hash: '5e'.repeat(8),
		expiration: NOW + 60_000,
		timestamp: NOW,
	});
	const keyring = tronKeyring({ keyType: 'mnemonic', mnemonic: PHRASE });
	expect(() => prepareTronTransaction(rawData, '1000', keyring.account(0), NOW)).toThrow(
		NotASigner,
	);
	expect(prepareTronTransaction(rawData, '1001', keyring.account(1), NOW).effect).toMatchObject({
		chainId: '1001',
		from: RECIPIENT,
		movements: [{ asset: 'native', recipient: OWNER, amount: 1n }],
	});
});
