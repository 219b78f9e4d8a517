/** Expand Signer without a chain: known vectors per transaction type, messages, typed data, keys. */
import {
	HDNodeWallet,
	Transaction,
	TypedDataEncoder,
	Wallet,
	getBytes,
	keccak256,
	recoverAddress,
	toUtf8Bytes,
	verifyMessage,
	verifyTypedData,
} from 'ethers';
import type { INodeParameters } from 'n8n-workflow';

import { toSmallestUnit } from '../../../../nodes/shared/amounts';
import { expandSignerKeyTest } from '../../../helpers/signerKeyTests';
import { runSigner } from '../../../helpers/n8n';
import { type RecordingServer, startRecordingServer } from '../../../helpers/recordingServer';
import { DEVNET_MNEMONIC } from '../../../../devnet/fixtures';

// The EIP-155 example transaction, signed with its published key.
const EIP155_KEY = '0x' + '46'.repeat(32);
const EIP155_RAW =
	'0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83';
const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
// Hardhat account 1 signing the form transaction of the per-type test below, pinned from ethers 6.17
// (RFC 6979 signatures are deterministic): a change in encoding or signing shows up here.
const PINNED: Record<string, string> = {
	'1': '0x01f8ab827a690384b2d05e0082c350943535353535353535353535353535353535353535881158e460913d000083abcdeff838f79470997970c51812dc3a010c7d01b50e0d17dc79c8e1a0000000000000000000000000000000000000000000000000000000000000000001a0c1922059c3cc2d7324eff3b65687dee56dca6c44a803bad236cbd909a729f6fea03d3061e7682447108387be0e0f792456bddaa97918eaecaec6af4a049ae754da',
	'2': '0x02f878827a69038459682f008506fc23ac0082c350943535353535353535353535353535353535353535881158e460913d000083abcdefc080a0b41c36752252fbbd9e18d77c805217e5ddd4838f662e46f131b27176347755f0a03647365d4b4f19e49c900d7e6a63aa2b48e1e55391f01073e7ff917355c84300',
};
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let api: RecordingServer;
beforeAll(async () => {
	api = await startRecordingServer();
});
afterAll(async () => {
	await api.close();
});

function sign(
	parameters: INodeParameters,
	signingKey: Record<string, string> = { keyType: 'privateKey', privateKey: KEY },
	items: object[] = [{}],
	continueOnFail = false,
) {
	return runSigner(parameters, {
		items,
		continueOnFail,
		credentials: { apiKey: 'k', baseUrl: api.baseUrl, historicalUrl: api.historicalUrl },
		signingKey,
	});
}

test('the EIP-155 legacy vector signs to the published raw transaction', async () => {
	const result = await sign(
		{
			operation: 'signTransaction',
			source: 'fields',
			to: '0x' + '35'.repeat(20),
			chainId: '1',
			value: '1000000000000000000',
			additionalFields: { nonce: '9', gas: '21000', gasPrice: '20000000000', type: '0' },
		},
		{ keyType: 'privateKey', privateKey: EIP155_KEY },
	);
	expect(result.error).toBeUndefined();
	const [{ json }] = result.output('Signer');
	expect(json.rawTransaction).toBe(EIP155_RAW);
	expect(json.transactionHash).toBe(keccak256(EIP155_RAW));
	expect(json.from).toBe(new Wallet(EIP155_KEY).address);
	expect(api.requests).toHaveLength(0);
});

test.each([
	[
		'EIP-2930',
		'1',
		{
			gasPrice: '3000000000',
			accessList: JSON.stringify([{ address: ADDRESS, storageKeys: ['0x' + '00'.repeat(32)] }]),
		},
	],
	['EIP-1559', '2', { maxFeePerGas: '30000000000', maxPriorityFeePerGas: '1500000000' }],
	['legacy', '0', { gasPrice: '1000000000' }],
])(
	'a %s transaction from the form matches ethers and recovers to the key',
	async (_name, type, fees) => {
		const result = await sign({
			operation: 'signTransaction',
			source: 'fields',
			to: '0x' + '35'.repeat(20),
			chainId: '31337',
			amountFormat: 'decimal',
			amount: '1.25',
			decimals: 18,
			additionalFields: { nonce: '3', gas: '50000', data: '0xabcdef', type, ...fees },
		});
		expect(result.error).toBeUndefined();
		const [{ json }] = result.output('Signer');
		const expected = await new Wallet(KEY).signTransaction({
			type: Number(type),
			chainId: 31337,
			to: '0x' + '35'.repeat(20),
			value: 1250000000000000000n,
			nonce: 3,
			gasLimit: 50000,
			data: '0xabcdef',
			...('gasPrice' in fees ? { gasPrice: BigInt(fees.gasPrice) } : {}),
			...('maxFeePerGas' in fees
				? {
						maxFeePerGas: BigInt(fees.maxFeePerGas),
						maxPriorityFeePerGas: BigInt(fees.maxPriorityFeePerGas),
					}
				: {}),
			...('accessList' in fees ? { accessList: JSON.parse(fees.accessList) } : {}),
		});
		expect(json.rawTransaction).toBe(expected);
		if (PINNED[type]) expect(json.rawTransaction).toBe(PINNED[type]);
		const decoded = Transaction.from(json.rawTransaction as string);
		expect(decoded.from).toBe(ADDRESS);
		// Recovered from the signature over the type's own signing hash, not only by the decoder.
		expect(
			recoverAddress(
				decoded.unsignedHash,
				decoded.signature as NonNullable<typeof decoded.signature>,
			),
		).toBe(ADDRESS);
		expect(json.transactionHash).toBe(keccak256(json.rawTransaction as string));
		expect(decoded.type).toBe(Number(type));
		expect(json).toMatchObject({
			from: ADDRESS,
			nonce: 3,
			chainId: '31337',
			type: Number(type),
			value: '1250000000000000000',
			gasLimit: '50000',
		});
		expect(api.requests).toHaveLength(0);
	},
);

test('a decimal amount with more places than the decimals is refused exactly', async () => {
	const result = await sign({
		operation: 'signTransaction',
		source: 'fields',
		to: ADDRESS,
		chainId: '1',
		amountFormat: 'decimal',
		amount: '0.0000001',
		decimals: 6,
		additionalFields: { nonce: '0', gas: '21000', gasPrice: '1' },
	});
	expect(result.error?.message).toBe(
		'The parameter "amount" must be a decimal number with at most 6 decimal places; got "0.0000001" (item 0)',
	);
});

test('a transaction from another address is refused, and continueOnFail gives an error item', async () => {
	const unsigned = {
		chainId: '31337',
		from: '0x' + '11'.repeat(20),
		to: ADDRESS,
		value: '1',
		gas: '21000',
		gasPrice: '1',
		nonce: '0',
	};
	const result = await sign(
		{ operation: 'signTransaction', source: 'input' },
		undefined,
		[unsigned, { ...unsigned, from: ADDRESS }],
		true,
	);
	const [refused, signed] = result.output('Signer');
	expect(refused.json.error).toBe(
		`The transaction is from 0x${'11'.repeat(20)}, but account 0 of the signing key is ${ADDRESS}; sign it with the key of 0x${'11'.repeat(20)} (item 0)`,
	);
	expect(Transaction.from(signed.json.rawTransaction as string).from).toBe(ADDRESS);
	expect(signed.pairedItem).toEqual({ item: 1 });
});

test('the transaction can sit at a field path of the input item', async () => {
	const item = {
		quote: {
			transactionPayload: {
				chainId: '5',
				to: ADDRESS,
				value: '7',
				gas: '21000',
				gasPrice: '2',
				nonce: '4',
				data: '0x',
			},
		},
	};
	const result = await sign(
		{ operation: 'signTransaction', source: 'input', transactionField: 'quote.transactionPayload' },
		undefined,
		[item],
	);
	expect(result.output('Signer')[0].json).toMatchObject({
		chainId: '5',
		nonce: 4,
		value: '7',
		type: 0,
	});
	const missing = await sign(
		{ operation: 'signTransaction', source: 'input', transactionField: 'quote.nothing' },
		undefined,
		[item],
	);
	expect(missing.error?.message).toBe(
		'No transaction object at "quote.nothing" in the input item (item 0)',
	);
});

test('messages and typed data verify to the signing address', async () => {
	const message = await sign({ operation: 'signMessage', message: 'Payout batch 42 approved' });
	const signed = message.output('Signer')[0].json;
	expect(verifyMessage('Payout batch 42 approved', signed.signature as string)).toBe(ADDRESS);

	const typedData = {
		domain: {
			name: 'Treasury',
			version: '1',
			chainId: 31337,
			verifyingContract: '0x' + '22'.repeat(20),
		},
		types: {
			Payout: [
				{ name: 'to', type: 'address' },
				{ name: 'amount', type: 'uint256' },
			],
		},
		message: { to: ADDRESS, amount: '1000000' },
	};
	const typed = await sign({ operation: 'signTypedData', typedData: JSON.stringify(typedData) });
	const result = typed.output('Signer')[0].json;
	expect(
		verifyTypedData(
			typedData.domain,
			typedData.types,
			typedData.message,
			result.signature as string,
		),
	).toBe(ADDRESS);
	expect(result.hash).toBe(
		TypedDataEncoder.hash(typedData.domain, typedData.types, typedData.message),
	);
});

test('Get Address and the credential test name the address, never the key; bad keys are not echoed', async () => {
	const mnemonic = DEVNET_MNEMONIC;
	const fromMnemonic = await sign(
		{ operation: 'getAddress' },
		{ keyType: 'mnemonic', mnemonic, derivationPath: "m/44'/60'/0'/0/1", passphrase: '' },
	);
	expect(fromMnemonic.output('Signer')[0].json).toEqual({ address: ADDRESS, accountIndex: 0 });

	const badKey = '0x1234deadbeef';
	const bad = await sign(
		{ operation: 'getAddress' },
		{ keyType: 'privateKey', privateKey: badKey },
	);
	expect(bad.error?.message).toBe(
		'The private key of the signing key credential is not a valid 32-byte hex key (item 0)',
	);
	expect(JSON.stringify(bad.run)).not.toContain('deadbeef');
	const badPhrase = 'apple banana cherry dragon';
	const badMnemonic = await sign(
		{ operation: 'getAddress' },
		{ keyType: 'mnemonic', mnemonic: badPhrase },
	);
	expect(badMnemonic.error?.message).toBe(
		'The mnemonic of the signing key credential is not a valid BIP-39 phrase (item 0)',
	);
	expect(JSON.stringify(badMnemonic.run)).not.toContain('banana');

	const ok = await expandSignerKeyTest.call({} as never, {
		id: '1',
		name: 'k',
		type: 'expandSignerApi',
		data: { keyType: 'privateKey', privateKey: KEY },
	});
	expect(ok).toEqual({
		status: 'OK',
		message: `Valid key. Accounts: #0 ${ADDRESS}. Policy: any chain; any recipient; NOT COVERED: with no amount limit and no recipient list, calls it cannot read as a payment are signed as they come (the API chooses what they do); no per-transaction amount limit; no per-execution total; fee per gas at most 10000 gwei; gas limit at most 15000000; total fee at most 1 native units per transaction; a transaction from an input item is signed only as the Expand intent beside it asked (chain, sender, native or ERC-20 transfer, transferFrom or approve with its token, recipient and amount; a call it cannot read, such as a swap, with no more native value than asked (NOT COVERED: with no spending rule, which contract it calls and what the call does)); NOT COVERED: one without an intent is signed on the rules above alone (Require Intent). Propose to Safe: calls to the Safe itself, to its modules, guard or fallback handler, changes of a Safe's owners, threshold, modules, guard or fallback handler, and calls that have another Safe run or approve a transaction refused (Allow Safe Management off). Payout IDs: off (no ledger folder).`,
	});
	const failed = await expandSignerKeyTest.call({} as never, {
		id: '1',
		name: 'k',
		type: 'expandSignerApi',
		data: { keyType: 'privateKey', privateKey: badKey },
	});
	expect(failed.status).toBe('Error');
	expect(failed.message).not.toContain('deadbeef');
});

test('the EIP-712 specification example (Mail, signed by keccak256("cow")) gives the published signature', async () => {
	const typedData = {
		types: {
			EIP712Domain: [
				{ name: 'name', type: 'string' },
				{ name: 'version', type: 'string' },
				{ name: 'chainId', type: 'uint256' },
				{ name: 'verifyingContract', type: 'address' },
			],
			Person: [
				{ name: 'name', type: 'string' },
				{ name: 'wallet', type: 'address' },
			],
			Mail: [
				{ name: 'from', type: 'Person' },
				{ name: 'to', type: 'Person' },
				{ name: 'contents', type: 'string' },
			],
		},
		domain: {
			name: 'Ether Mail',
			version: '1',
			chainId: 1,
			verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
		},
		message: {
			from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
			to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
			contents: 'Hello, Bob!',
		},
	};
	const result = await sign(
		{ operation: 'signTypedData', typedData: JSON.stringify(typedData) },
		{ keyType: 'privateKey', privateKey: keccak256(toUtf8Bytes('cow')) },
	);
	expect(result.output('Signer')[0].json).toEqual({
		hash: '0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2',
		// r, s and v = 28 as in the EIP's example.
		signature:
			'0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c',
		address: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826',
		accountIndex: 0,
	});
	const broken = await sign({
		operation: 'signTypedData',
		typedData: JSON.stringify({
			...typedData,
			message: { ...typedData.message, contents: 5n.toString(), from: 'x' },
		}),
	});
	expect(broken.error?.message).toMatch(/^The typed data cannot be encoded: .* \(item 0\)$/);
});

test('Sign Message signs hex as raw bytes when asked, and refuses text that is not hex then', async () => {
	const bytes = '0x' + 'ab'.repeat(32);
	const result = await sign({ operation: 'signMessage', message: bytes, messageIsHex: true });
	const json = result.output('Signer')[0].json;
	expect(verifyMessage(getBytes(bytes), json.signature as string)).toBe(ADDRESS);
	expect(verifyMessage(bytes, json.signature as string)).not.toBe(ADDRESS);
	const refused = await sign({ operation: 'signMessage', message: 'hello', messageIsHex: true });
	expect(refused.error?.message).toBe(
		'The parameter "message" must be 0x-prefixed hex bytes when "Message Is Hex Bytes" is on (item 0)',
	);
});

test('a mnemonic derives the well-known address of its path, and a passphrase changes it as BIP-39 says', async () => {
	const phrase =
		'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
	const plain = await sign(
		{ operation: 'getAddress' },
		{ keyType: 'mnemonic', mnemonic: `  ${phrase.replace(/ /g, '  ')}\n` },
	);
	expect(plain.output('Signer')[0].json).toEqual({
		address: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
		accountIndex: 0,
	});
	const withPassphrase = await sign(
		{ operation: 'getAddress' },
		{
			keyType: 'mnemonic',
			mnemonic: phrase,
			passphrase: 'TREZOR',
			derivationPath: "m/44'/60'/0'/0/3",
		},
	);
	expect(withPassphrase.output('Signer')[0].json).toEqual({
		address: HDNodeWallet.fromPhrase(phrase, 'TREZOR', "m/44'/60'/0'/0/3").address,
		accountIndex: 0,
	});
	const badPath = await sign(
		{ operation: 'getAddress' },
		{ keyType: 'mnemonic', mnemonic: phrase, derivationPath: 'm/44/x' },
	);
	expect(badPath.error?.message).toBe(
		'The derivation path of the signing key credential is not valid (item 0)',
	);
});

test('decimal amounts convert to the smallest unit exactly, beyond what a float holds', () => {
	expect(toSmallestUnit('123456789.123456789123456789', 18)).toBe('123456789123456789123456789');
	expect(toSmallestUnit('0.1', 18)).toBe('100000000000000000');
	expect(toSmallestUnit('2.5', 6)).toBe('2500000');
	expect(toSmallestUnit(' 7 ', 0)).toBe('7');
	expect(toSmallestUnit('1.000', 0)).toBe('1');
	expect(toSmallestUnit('0', 18)).toBe('0');
	expect(toSmallestUnit('9007199254740993', 0)).toBe('9007199254740993');
	for (const refused of ['1.0000001', '-1', '.5', '1.', '1e3', '0x10', '', 'one'])
		expect(toSmallestUnit(refused, 6)).toBeUndefined();
	expect(toSmallestUnit('1', 1.5)).toBeUndefined();
});
