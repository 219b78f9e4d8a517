/** Expand Signer without a chain: known vectors per transaction type, messages, typed data, keys. */
import { Transaction, TypedDataEncoder, Wallet, keccak256, verifyMessage, verifyTypedData } from 'ethers';
import type { INodeParameters } from 'n8n-workflow';

import { expandSignerKeyTest } from '../../nodes/ExpandSigner/methods/credentialTest';
import { ITEMS, SIGNER, expandCredentials, runPipeline } from '../helpers/n8n';
import { type RecordingServer, startRecordingServer } from '../helpers/recordingServer';

// The EIP-155 example transaction, signed with its published key.
const EIP155_KEY = '0x' + '46'.repeat(32);
const EIP155_RAW =
	'0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83';
const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let api: RecordingServer;
beforeAll(async () => {
	api = await startRecordingServer();
});
afterAll(async () => {
	await api.close();
});

function sign(parameters: INodeParameters, signingKey: Record<string, string> = { keyType: 'privateKey', privateKey: KEY }, items: object[] = [{}], continueOnFail = false) {
	return runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{ name: 'Signer', type: SIGNER, parameters, continueOnFail },
		],
		{ ...expandCredentials({ apiKey: 'k', baseUrl: api.baseUrl, historicalUrl: api.historicalUrl }), expandSignerApi: signingKey },
	);
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
	['EIP-2930', '1', { gasPrice: '3000000000', accessList: JSON.stringify([{ address: ADDRESS, storageKeys: ['0x' + '00'.repeat(32)] }]) }],
	['EIP-1559', '2', { maxFeePerGas: '30000000000', maxPriorityFeePerGas: '1500000000' }],
	['legacy', '0', { gasPrice: '1000000000' }],
])('a %s transaction from the form matches ethers and recovers to the key', async (_name, type, fees) => {
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
		...('maxFeePerGas' in fees ? { maxFeePerGas: BigInt(fees.maxFeePerGas), maxPriorityFeePerGas: BigInt(fees.maxPriorityFeePerGas) } : {}),
		...('accessList' in fees ? { accessList: JSON.parse(fees.accessList) } : {}),
	});
	expect(json.rawTransaction).toBe(expected);
	const decoded = Transaction.from(json.rawTransaction as string);
	expect(decoded.from).toBe(ADDRESS);
	expect(decoded.type).toBe(Number(type));
	expect(json).toMatchObject({ from: ADDRESS, nonce: 3, chainId: '31337', type: Number(type), value: '1250000000000000000', gasLimit: '50000' });
	expect(api.requests).toHaveLength(0);
});

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
	expect(result.error?.message).toBe('The parameter "amount" must be a decimal number with at most 6 decimal places; got "0.0000001" (item 0)');
});

test('a transaction from another address is refused, and continueOnFail gives an error item', async () => {
	const unsigned = { chainId: '31337', from: '0x' + '11'.repeat(20), to: ADDRESS, value: '1', gas: '21000', gasPrice: '1', nonce: '0' };
	const result = await sign({ operation: 'signTransaction', source: 'input' }, undefined, [unsigned, { ...unsigned, from: ADDRESS }], true);
	const [refused, signed] = result.output('Signer');
	expect(refused.json.error).toBe(
		`The transaction is from 0x${'11'.repeat(20)}, but the signing key controls ${ADDRESS}; sign it with the key of 0x${'11'.repeat(20)} (item 0)`,
	);
	expect(Transaction.from(signed.json.rawTransaction as string).from).toBe(ADDRESS);
	expect(signed.pairedItem).toEqual({ item: 1 });
});

test('the transaction can sit at a field path of the input item', async () => {
	const item = { quote: { transactionPayload: { chainId: '5', to: ADDRESS, value: '7', gas: '21000', gasPrice: '2', nonce: '4', data: '0x' } } };
	const result = await sign({ operation: 'signTransaction', source: 'input', transactionField: 'quote.transactionPayload' }, undefined, [item]);
	expect(result.output('Signer')[0].json).toMatchObject({ chainId: '5', nonce: 4, value: '7', type: 0 });
	const missing = await sign({ operation: 'signTransaction', source: 'input', transactionField: 'quote.nothing' }, undefined, [item]);
	expect(missing.error?.message).toBe('No transaction object at "quote.nothing" in the input item (item 0)');
});

test('messages and typed data verify to the signing address', async () => {
	const message = await sign({ operation: 'signMessage', message: 'Payout batch 42 approved' });
	const signed = message.output('Signer')[0].json;
	expect(verifyMessage('Payout batch 42 approved', signed.signature as string)).toBe(ADDRESS);

	const typedData = {
		domain: { name: 'Treasury', version: '1', chainId: 31337, verifyingContract: '0x' + '22'.repeat(20) },
		types: { Payout: [{ name: 'to', type: 'address' }, { name: 'amount', type: 'uint256' }] },
		message: { to: ADDRESS, amount: '1000000' },
	};
	const typed = await sign({ operation: 'signTypedData', typedData: JSON.stringify(typedData) });
	const result = typed.output('Signer')[0].json;
	expect(verifyTypedData(typedData.domain, typedData.types, typedData.message, result.signature as string)).toBe(ADDRESS);
	expect(result.hash).toBe(TypedDataEncoder.hash(typedData.domain, typedData.types, typedData.message));
});

test('Get Address and the credential test name the address, never the key; bad keys are not echoed', async () => {
	const mnemonic = 'test test test test test test test test test test test junk';
	const fromMnemonic = await sign({ operation: 'getAddress' }, { keyType: 'mnemonic', mnemonic, derivationPath: "m/44'/60'/0'/0/1", passphrase: '' });
	expect(fromMnemonic.output('Signer')[0].json).toEqual({ address: ADDRESS });

	const badKey = '0x1234deadbeef';
	const bad = await sign({ operation: 'getAddress' }, { keyType: 'privateKey', privateKey: badKey });
	expect(bad.error?.message).toBe('The private key of the signing key credential is not a valid 32-byte hex key (item 0)');
	expect(JSON.stringify(bad.run)).not.toContain('deadbeef');
	const badPhrase = 'apple banana cherry dragon';
	const badMnemonic = await sign({ operation: 'getAddress' }, { keyType: 'mnemonic', mnemonic: badPhrase });
	expect(badMnemonic.error?.message).toBe('The mnemonic of the signing key credential is not a valid BIP-39 phrase (item 0)');
	expect(JSON.stringify(badMnemonic.run)).not.toContain('banana');

	const ok = await expandSignerKeyTest.call({} as never, { id: '1', name: 'k', type: 'expandSignerApi', data: { keyType: 'privateKey', privateKey: KEY } });
	expect(ok).toEqual({ status: 'OK', message: `Valid key for address ${ADDRESS}` });
	const failed = await expandSignerKeyTest.call({} as never, { id: '1', name: 'k', type: 'expandSignerApi', data: { keyType: 'privateKey', privateKey: badKey } });
	expect(failed.status).toBe('Error');
	expect(failed.message).not.toContain('deadbeef');
});
