/**
 * The intent comparison on its own (policy/askedIntent.ts), for the EVM effects the devnet tests do not
 * build through a lying API: approve and transferFrom substitutions, a call that turns out to be a
 * token transfer, native value above what a call asked or from a token input, an amount typed in
 * whole units against the chain's decimals (a Stellar asset's 7, which the family vouches for), and an
 * intent that cannot be read.
 */
import { getAddress, Interface } from 'ethers';

import { evmEffect } from '../../../packages/signer/nodes/ExpandSigner/families/evm/effect';
import { EVM_POLICY_FORMAT } from '../../../packages/signer/nodes/ExpandSigner/families/evm/policyFormat';
import { STELLAR_POLICY_FORMAT } from '../../../packages/signer/nodes/ExpandSigner/families/stellar';
import {
	type AskedIntent,
	askedIntentRefusal,
	chainDecimalsOf,
	policyDecimalsRefusal,
	readAskedIntent,
	typedAmountBinds,
	typedAmountRefusal,
} from '../../../packages/signer/nodes/ExpandSigner/policy/askedIntent';
import { readPolicy } from '../../../packages/signer/nodes/ExpandSigner/policy/policy';
import { Refusal } from '../../../packages/signer/nodes/ExpandSigner/policy/refusal';

const erc20 = new Interface([
	'function transfer(address,uint256)',
	'function transferFrom(address,address,uint256)',
	'function approve(address,uint256)',
]);
const TOKEN = getAddress('0x' + '70'.repeat(20));
const SENDER = getAddress('0x' + '5e'.repeat(20));
const ASKED = getAddress('0x' + 'a5'.repeat(20));
const OUTSIDER = getAddress('0x' + 'be'.repeat(20));
const ROUTER = getAddress('0x' + 'c0'.repeat(20));
const policy = (fields: Record<string, string> = {}) =>
	readPolicy(fields, EVM_POLICY_FORMAT, undefined);

function refusal(intent: Record<string, unknown>, to: string, data: string, value = '0') {
	const asked = readAskedIntent(intent, policy());
	if (asked === undefined || asked instanceof Refusal) throw new Error('intent not read');
	const done = evmEffect({ chainId: '1', to, data, value }, { address: SENDER });
	return askedIntentRefusal(asked, done, policy({ allowedContracts: ROUTER }))?.message;
}

test('an approval of another spender or amount is refused, naming both', () => {
	const intent = {
		operation: 'fungibletoken/approve',
		effect: 'approve',
		chainId: '1',
		sender: SENDER,
		recipient: ASKED,
		token: TOKEN,
		amount: '5',
	};
	expect(refusal(intent, TOKEN, erc20.encodeFunctionData('approve', [ASKED, 5]))).toBeUndefined();
	expect(
		refusal(intent, TOKEN, erc20.encodeFunctionData('approve', [OUTSIDER, 2n ** 256n - 1n])),
	).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked (fungibletoken/approve): recipient: asked ${ASKED}, the transaction approves ${OUTSIDER}; amount: asked 5 (smallest unit), the transaction approves ${2n ** 256n - 1n} (smallest unit); nothing was signed`,
	);
	// A transfer where an approval was asked is another effect.
	expect(refusal(intent, TOKEN, erc20.encodeFunctionData('transfer', [ASKED, 5]))).toBe(
		'Refused by the rule "intent": the transaction is not what the form asked (fungibletoken/approve): what it does: asked an approve, the transaction makes a transfer; nothing was signed',
	);
});

test('a transferFrom taking from another owner is refused', () => {
	const intent = {
		operation: 'fungibletoken/transferfrom',
		effect: 'transferFrom',
		sender: SENDER,
		owner: ASKED,
		recipient: SENDER,
		token: TOKEN,
		amount: '5',
	};
	expect(
		refusal(intent, TOKEN, erc20.encodeFunctionData('transferFrom', [ASKED, SENDER, 5])),
	).toBeUndefined();
	expect(
		refusal(intent, TOKEN, erc20.encodeFunctionData('transferFrom', [OUTSIDER, SENDER, 5])),
	).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked (fungibletoken/transferfrom): owner: asked ${ASKED}, the transaction takes from ${OUTSIDER}; nothing was signed`,
	);
});

test('a call the Signer cannot read: on a listed contract and within the native amount asked it passes; a token transfer or more native value is refused', () => {
	const swap = {
		operation: 'dex/swap',
		effect: 'call',
		sender: SENDER,
		tokenIn: 'native',
		tokenOut: TOKEN,
		amountIn: '100',
	};
	expect(refusal(swap, ROUTER, '0x12345678', '100')).toBeUndefined();
	expect(refusal(swap, ROUTER, '0x12345678', '101')).toBe(
		'Refused by the rule "intent": the transaction is not what the form asked (dex/swap): native value: asked at most 100 (smallest unit), the transaction sends 101 (smallest unit); nothing was signed',
	);
	expect(refusal(swap, ROUTER, erc20.encodeFunctionData('transfer', [OUTSIDER, 1]))).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked (dex/swap): what it does: asked dex/swap, a call the signer cannot read, but the transaction makes transfer of 1 (smallest unit) of ${ROUTER} to ${OUTSIDER}; nothing was signed`,
	);
	expect(refusal(swap, TOKEN, '0x12345678')).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked (dex/swap): called contract: dex/swap is a call whose effect the signer cannot read from the transaction, so its contract (program) must be on Allowed Contracts and Programs, and ${TOKEN} is not; nothing was signed`,
	);
});

test("a call's native value is allowed only from a native input: the aggregators' placeholder in any letter case is one, a token or a symbol the signer cannot look up is not", () => {
	const swap = (tokenIn: string) => ({
		operation: 'dex/swap',
		effect: 'call',
		sender: SENDER,
		tokenIn,
		tokenOut: TOKEN,
		amountIn: '100',
	});
	const listed = (intent: Record<string, unknown>, value: string) => {
		const asked = readAskedIntent(intent, policy()) as AskedIntent;
		const done = evmEffect(
			{ chainId: '1', to: ROUTER, data: '0x12345678', value },
			{ address: SENDER },
		);
		return askedIntentRefusal(asked, done, policy())?.message;
	};
	expect(listed(swap('0xEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE'), '100')).toBeUndefined();
	expect(listed(swap('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'), '100')).toBeUndefined();
	expect(listed(swap(TOKEN), '0')).toBeUndefined();
	expect(listed(swap(TOKEN), '1')).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked (dex/swap): native value: asked dex/swap from ${TOKEN}, not the native asset, but the transaction sends 1 (smallest unit) of the native asset; a path that pays value (a wrapped-native input) cannot be bound to the form, type the native asset ("native" or 0xeeee…eeee) as the input; nothing was signed`,
	);
	const { tokenIn: _tokenIn, ...unnamed } = swap(TOKEN);
	expect(listed(unnamed, '1')).toMatch(
		/native value: asked dex\/swap with no input token named, but the transaction sends 1 \(smallest unit\)/,
	);
	expect(listed(swap('ETH'), '1')).toMatch(
		/native value: asked dex\/swap from ETH, not the native asset/,
	);
});

test('an amount typed in whole units is held to the decimals the chain gives and to the amount asked, exactly', () => {
	const intent = (amount: string, amountTyped: string, decimals: number) =>
		readAskedIntent(
			{
				operation: 'fungibletoken/transfer',
				effect: 'transfer',
				recipient: ASKED,
				token: TOKEN,
				amount,
				amountTyped,
				decimals,
			},
			policy(),
		) as AskedIntent;
	expect(typedAmountRefusal(intent('1500000', '1.5', 6), 6)).toBeUndefined();
	expect(typedAmountRefusal(intent('1500000', '1.50', 6), 6)).toBeUndefined();
	expect(typedAmountRefusal(intent('1500000000', '1.5', 9), 6)?.message).toBe(
		`Refused by the rule "intent": the amount was typed in whole units as 1.5 of ${TOKEN}, converted with 9 decimals the API gave, but ${TOKEN} has 6 decimals on the chain; nothing was signed`,
	);
	expect(typedAmountRefusal(intent('1500001', '1.5', 6), 6)?.message).toBe(
		`Refused by the rule "intent": the amount was typed in whole units as 1.5 of ${TOKEN} (6 decimals), which is 1500000 (smallest unit), but the intent asks 1500001 (smallest unit); nothing was signed`,
	);
	expect(typedAmountRefusal(intent('1', '0.0000001', 6), 6)?.message).toMatch(
		/which is not a whole number of smallest units/,
	);
	expect(typedAmountRefusal(intent('1000000', '1', 6), undefined)?.message).toMatch(
		/which the signer cannot check on the chain/,
	);
	const read = (extra: Record<string, unknown>) => {
		const result = readAskedIntent(
			{ effect: 'transfer', recipient: ASKED, token: TOKEN, amount: '1', ...extra },
			policy(),
		);
		return result instanceof Refusal ? result.message : result;
	};
	expect(read({ amountTyped: '1' })).toMatch(/it names only one of amountTyped and decimals/);
	expect(read({ amountTyped: '1e3', decimals: 6 })).toMatch(
		/amountTyped "1e3" is not a number of whole units/,
	);
	expect(read({ amountTyped: '1', decimals: 256 })).toMatch(
		/decimals "256" is not a whole number from 0 to 255/,
	);
});

test("a typed amount's decimals are asked of the chain only where the amount binds the transaction: a readable effect, or a call from the native asset; a swap from a token named by symbol stays signable", () => {
	const asked = (fields: Record<string, unknown>) =>
		readAskedIntent(
			{ sender: SENDER, amountTyped: '1.5', decimals: 6, amount: '1500000', ...fields },
			policy(),
		) as AskedIntent;
	expect(
		typedAmountBinds(
			asked({
				operation: 'fungibletoken/transfer',
				effect: 'transfer',
				recipient: ASKED,
				token: TOKEN,
			}),
		),
	).toBe(true);
	expect(
		typedAmountBinds(
			asked({
				operation: 'dex/swap',
				effect: 'call',
				tokenIn: 'native',
				amountTyped: '1.5',
				decimals: 18,
				amount: '1500000000000000000',
			}),
		),
	).toBe(true);
	expect(typedAmountBinds(asked({ operation: 'dex/swap', effect: 'call', tokenIn: 'USDC' }))).toBe(
		false,
	);
	expect(typedAmountBinds(asked({ operation: 'dex/swap', effect: 'call', tokenIn: TOKEN }))).toBe(
		false,
	);
	expect(
		typedAmountBinds(
			readAskedIntent(
				{
					operation: 'fungibletoken/transfer',
					effect: 'transfer',
					sender: SENDER,
					recipient: ASKED,
					token: TOKEN,
					amount: '1500000',
				},
				policy(),
			) as AskedIntent,
		),
	).toBe(false);
});

test('an intent that cannot be read is refused, never ignored', () => {
	const read = (intent: unknown) => {
		const result = readAskedIntent(intent, policy());
		return result instanceof Refusal ? result.message : result;
	};
	expect(read(undefined)).toBeUndefined();
	expect(read('transfer')).toMatch(
		/^Refused by the rule "intent": the intent beside the transaction cannot be read \(not an object\)/,
	);
	expect(read({ effect: 'send' })).toMatch(
		/effect "send" is none of transfer, approve, transferFrom, call/,
	);
	expect(read({ effect: 'transfer', recipient: ASKED, token: TOKEN })).toMatch(
		/a transfer names no amount, so it cannot be compared/,
	);
	expect(read({ effect: 'transfer', recipient: ASKED, token: TOKEN, amount: '1.5' })).toMatch(
		/amount "1.5" is not a whole number/,
	);
	expect(read({ effect: 'transfer', recipient: 'R', token: TOKEN, amount: '1' })).toMatch(
		/recipient "R" is not one of 0x addresses/,
	);
});

test("an amount typed in whole units is held to the decimals every amount limit gives its token on the chain (the owner's, not a node's); a line of another chain, the native asset or a call to a token named by symbol are not", () => {
	const typed = (token: string, decimals: number, effect = 'transfer') =>
		readAskedIntent(
			{ effect, recipient: ASKED, token, amount: '1', amountTyped: '1', decimals },
			policy(),
		) as AskedIntent;
	const limits = policy({
		maxPerTransaction: `${TOKEN}:6@1 = 5000`,
		maxPerExecution: `${TOKEN.toLowerCase()}:6 = 9000`,
	});
	expect(policyDecimalsRefusal(typed(TOKEN, 6), limits, '1', false)).toBeUndefined();
	expect(policyDecimalsRefusal(typed(TOKEN, 9), limits, '1', true)?.message).toBe(
		`Refused by the rule "intent": the amount was typed in whole units as 1 of ${TOKEN}, converted with 9 decimals the API gave, but the credential's amount limits give ${TOKEN} 6 decimals on chain 1; nothing was signed`,
	);
	// The any-chain line binds on every chain.
	expect(policyDecimalsRefusal(typed(TOKEN, 9), limits, '8453', true)?.message).toMatch(
		/the credential's amount limits give .* 6 decimals; nothing was signed/,
	);
	const otherChain = policy({ maxPerTransaction: `${TOKEN}:6@1 = 5000` });
	expect(policyDecimalsRefusal(typed(TOKEN, 18), otherChain, '8453', true)).toBeUndefined();
	// No line for the token on the chain and no pinned node: only a node the API names could confirm them.
	expect(policyDecimalsRefusal(typed(TOKEN, 18), otherChain, '8453', false)?.message).toBe(
		`Refused by the rule "intent": the amount was typed in whole units as 1 of ${TOKEN}, converted with 18 decimals the API gave, and only a chain node the API names could confirm them (an API lying about decimals names one that agrees); pin chain 8453's node in the credential's RPC URLs, give the token's decimals in an amount limit line ("${TOKEN}:18 = …"), or type the amount in smallest units; nothing was signed`,
	);
	expect(policyDecimalsRefusal(typed('native', 18), limits, '1', false)).toBeUndefined();
	expect(policyDecimalsRefusal(typed('USDC', 9, 'call'), limits, '1', false)).toBeUndefined();
});

test('a Stellar asset typed in whole units is vouched for by the family (every Stellar asset has 7 decimals): 7 passes with no amount limit line or pinned node, other decimals are refused; the chain gives 7 without asking anyone', async () => {
	const stellar = readPolicy({}, STELLAR_POLICY_FORMAT, undefined);
	const issuer = 'GBZXN7PIRZGNMHGA7MUUUF4GWPY5AYPV6LY4UV2GL6VJGIQRXFDNMADI';
	const asset = `RWA1:${issuer}`;
	const typed = (decimals: number, amount: string) =>
		readAskedIntent(
			{
				effect: 'transfer',
				sender: issuer,
				recipient: 'GDQNY3PBOJOKYZSRMK2S7LHHGWZIUISD4QORETLMXEWXBI7KFZZMKTL3',
				token: asset,
				amount,
				amountTyped: '5',
				decimals,
			},
			stellar,
		) as AskedIntent;
	expect(typed(7, '50000000')).toMatchObject({ token: asset, amount: 50_000_000n });
	expect(policyDecimalsRefusal(typed(7, '50000000'), stellar, '1501', false)).toBeUndefined();
	expect(policyDecimalsRefusal(typed(6, '5000000'), stellar, '1501', false)?.message).toBe(
		`Refused by the rule "intent": the amount was typed in whole units as 5 of ${asset}, converted with 6 decimals the API gave, but every token of this chain family has 7; nothing was signed`,
	);
	const askNoOne = jest.fn(async () => 6);
	expect(await chainDecimalsOf(typed(7, '50000000'), stellar, askNoOne)).toBe(7);
	expect(askNoOne).not.toHaveBeenCalled();
	expect(typedAmountRefusal(typed(7, '500000000'), 7)?.message).toMatch(
		/typed in whole units as 5 .* \(7 decimals\), which is 50000000 \(smallest unit\), but the intent asks 500000000/,
	);
});
