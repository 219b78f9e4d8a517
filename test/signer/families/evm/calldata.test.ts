/** The ERC-20 calls the spending policy reads, against ethers' own encoding; anything else is not read. */
import { Interface } from 'ethers';

import { decodeTokenCall } from '../../../../packages/signer/nodes/ExpandSigner/families/evm/erc20';
import { EVM_POLICY_FORMAT } from '../../../../packages/signer/nodes/ExpandSigner/families/evm/policyFormat';
import {
	describePolicy,
	readPolicy,
} from '../../../../packages/signer/nodes/ExpandSigner/policy/policy';

const erc20 = new Interface([
	'function transfer(address,uint256)',
	'function transferFrom(address,address,uint256)',
	'function approve(address,uint256)',
	'function mint(address,uint256)',
]);
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const A = '0x' + 'a1'.repeat(20);
const B = '0x' + 'b2'.repeat(20);

test('transfer, transferFrom and approve give the recipient (or spender) and the amount', () => {
	expect(decodeTokenCall(TOKEN, erc20.encodeFunctionData('transfer', [A, 2n ** 255n]))).toEqual({
		asset: TOKEN.toLowerCase(),
		contract: TOKEN.toLowerCase(),
		recipient: A,
		amount: 2n ** 255n,
		via: 'transfer',
		action: 'transfer',
	});
	expect(decodeTokenCall(TOKEN, erc20.encodeFunctionData('transferFrom', [A, B, 7]))).toEqual({
		asset: TOKEN.toLowerCase(),
		contract: TOKEN.toLowerCase(),
		recipient: B,
		amount: 7n,
		via: 'transferFrom',
		action: 'transferFrom',
		owner: A,
	});
	expect(decodeTokenCall(TOKEN, erc20.encodeFunctionData('approve', [B, 9]))).toEqual({
		asset: TOKEN.toLowerCase(),
		contract: TOKEN.toLowerCase(),
		recipient: B,
		amount: 9n,
		via: 'approve',
		action: 'approve',
	});
});

test('other calls, truncated data and addresses with dirty upper bytes are not read as token operations', () => {
	expect(decodeTokenCall(TOKEN, erc20.encodeFunctionData('mint', [A, 1]))).toBeUndefined();
	const transfer = erc20.encodeFunctionData('transfer', [A, 1]);
	expect(decodeTokenCall(TOKEN, transfer.slice(0, -2))).toBeUndefined();
	// The EVM would read the low 20 bytes; a word with more set is not a well-formed address argument.
	expect(decodeTokenCall(TOKEN, `${transfer.slice(0, 10)}ff${transfer.slice(12)}`)).toBeUndefined();
	expect(decodeTokenCall(TOKEN, '0x')).toBeUndefined();
});

test('a policy field that cannot be read is an error naming the field and the line, never ignored', () => {
	expect(() =>
		readPolicy({ maxPerTransaction: 'native = 1\nUSDC = 5' }, EVM_POLICY_FORMAT, undefined),
	).toThrow(/^Line 2 of the policy field "maxPerTransaction" must read/);
	expect(() =>
		readPolicy({ maxPerTransaction: `${TOKEN}:6 = 1.0000001` }, EVM_POLICY_FORMAT, undefined),
	).toThrow(
		'The policy field "maxPerTransaction" must be a decimal number with at most 6 decimal places; got "1.0000001"',
	);
	expect(() =>
		readPolicy({ allowedRecipients: `${A}, 0x1234` }, EVM_POLICY_FORMAT, undefined),
	).toThrow('The policy field "allowedRecipients" must list 0x addresses; got "0x1234"');
	expect(() => readPolicy({ allowedChainIds: '1, 0' }, EVM_POLICY_FORMAT, undefined)).toThrow(
		'The policy field "allowedChainIds" must list chain IDs above 0; got "0"',
	);
	expect(
		describePolicy(
			readPolicy(
				{
					allowedChainIds: '1 8453',
					allowedRecipients: A,
					maxPerTransaction: `native@1 = 0.5\n${TOKEN.toLowerCase()}:6 = 25000`,
					maxFeePerGasGwei: '500',
					maxTotalFee: '0.05',
				},
				EVM_POLICY_FORMAT,
				undefined,
			),
		),
	).toBe(
		`Policy: chains 1, 8453 only; only to 1 allowed recipient (native transfers and token transfer/transferFrom/approve; other contract calls refused); calls it cannot read as a payment refused unless their contract is listed (0 in Allowed Contracts and Programs); contract deployment refused; per transaction at most 0.5 of the native asset on chain 1; 25000 of token ${TOKEN} (6 decimals); no per-execution total; fee per gas at most 500 gwei; gas limit at most 15000000; total fee at most 0.05 native units per transaction; a transaction from an input item is signed only as the Expand intent beside it asked (chain, sender, native or ERC-20 transfer, transferFrom or approve with its token, recipient and amount; a call it cannot read, such as a swap, with no more native value than asked and only with its contract on Allowed Contracts and Programs); one without an intent refused (Require Intent).`,
	);
});
