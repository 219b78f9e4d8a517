import type { IDataObject } from 'n8n-workflow';

import { INTENT_EFFECTS, type Intent, isNativeToken, NATIVE_TOKEN, toSmallestUnit } from '../core';
import { amountLimits, shownAddress, spendingRuleSet, type SpendingPolicy } from './policy';

export { intentRequired } from './policy';
import { type FormItem, missingFormItemRefusal, readFormItem } from './formItem';
import { Refusal } from './refusal';
import type { Movement, TransactionEffect } from './vocabulary';

/**
 * What an Expand write asked (`Intent`, the core's contract: nodes/shared/intent.ts), as read from
 * what travels beside the transaction: the Signer holds the transaction to it.
 */
export interface AskedIntent {
	operation: string;
	effect: Intent['effect'];
	chainId?: string;
	sender?: string;
	recipient?: string;
	owner?: string;
	/** 'native' or the token's contract (mint) address; a swap's input token. */
	token?: string;
	/** In the smallest unit; a swap's amount in. */
	amount?: bigint;
	/** The amount as typed in whole units and the decimals (the API's) the Expand node converted it with. */
	typed?: { amount: string; decimals: number };
	/** The form item that asked it: at most one transaction is signed for it. */
	formItem?: FormItem;
	/** What the payment must carry to its recipient (a TON comment, a Stellar memo), when the form asked one; compared as the family's intentMemo reads it. */
	memo?: string;
}

/** What the form did not ask, when the form is not there: an intent that cannot be read is refused, never ignored. */
function unreadable(reason: string): Refusal {
	return new Refusal(
		'intent',
		`the intent beside the transaction cannot be read (${reason}); it is what the Expand node asked, and the transaction is signed only against it`,
	);
}

/**
 * Reads the intent that travels with a transaction; undefined when there is none. Addresses are
 * checked with the family's format; amounts are whole numbers in the smallest unit.
 */
export function readAskedIntent(
	value: unknown,
	policy: SpendingPolicy,
): AskedIntent | Refusal | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'object' || Array.isArray(value)) return unreadable('not an object');
	const raw = value as IDataObject;
	const effect = String(raw.effect ?? '');
	if (!(INTENT_EFFECTS as readonly string[]).includes(effect))
		return unreadable(`effect "${effect}" is none of ${INTENT_EFFECTS.join(', ')}`);
	const field = (name: keyof Intent): string | undefined => {
		const entry = raw[name];
		if (entry === undefined || entry === null || entry === '') return undefined;
		return String(entry).trim();
	};
	const asked: AskedIntent = {
		operation: field('operation') ?? '(not named)',
		effect: effect as AskedIntent['effect'],
		chainId: field('chainId'),
	};
	// A call's recipient is not compared (a bridge's may be on another chain family).
	const compared =
		asked.effect === 'call' ? (['sender'] as const) : (['sender', 'recipient', 'owner'] as const);
	for (const name of compared) {
		const address = field(name);
		if (address === undefined) continue;
		if (!policy.format.isAddress(address))
			return unreadable(`${name} "${address}" is not one of ${policy.format.addressKind}`);
		asked[name] = address;
	}
	// A call's token is not compared (a swap path may name symbols); a readable effect's must be an address.
	const token = field('token') ?? field('tokenIn');
	if (
		asked.effect !== 'call' &&
		token !== undefined &&
		token !== NATIVE_TOKEN &&
		!policy.format.isAddress(token)
	)
		return unreadable(
			`token "${token}" is neither "native" nor one of ${policy.format.addressKind}`,
		);
	asked.token = token;
	const amount = field('amount') ?? field('amountIn');
	if (amount !== undefined) {
		if (!/^\d+$/.test(amount))
			return unreadable(`amount "${amount}" is not a whole number in the smallest unit`);
		asked.amount = BigInt(amount);
	}
	if (raw.memo !== undefined && raw.memo !== null && raw.memo !== '') {
		if (typeof raw.memo !== 'string') return unreadable('memo is not a text');
		asked.memo = raw.memo;
	}
	const typed = readTyped(field('amountTyped'), field('decimals'));
	if (typed instanceof Refusal) return typed;
	asked.typed = typed;
	if (asked.effect !== 'call') {
		const needed = ['recipient', 'token', 'amount', 'owner'] as const;
		const missing = needed.filter(
			(name) => asked[name] === undefined && (name !== 'owner' || asked.effect === 'transferFrom'),
		);
		if (missing.length)
			return unreadable(
				`${withArticle(asked.effect)} names no ${missing.join(', ')}, so it cannot be compared`,
			);
	}
	const formItem = readFormItem(raw);
	if (formItem instanceof Refusal) return formItem;
	// An intent without one (a workflow's own, an earlier core's) binds what it says, as before; Always asks for one.
	if (!formItem && policy.requireIntent === 'always') return missingFormItemRefusal();
	asked.formItem = formItem;
	return asked;
}

/** An amount typed in whole units and its decimals: both or neither. */
function readTyped(
	amount: string | undefined,
	decimals: string | undefined,
): AskedIntent['typed'] | Refusal {
	if (amount === undefined && decimals === undefined) return undefined;
	if (amount === undefined || decimals === undefined)
		return unreadable('it names only one of amountTyped and decimals');
	if (!/^\d+(\.\d+)?$/.test(amount))
		return unreadable(`amountTyped "${amount}" is not a number of whole units`);
	if (!/^\d{1,3}$/.test(decimals) || Number(decimals) > 255)
		return unreadable(`decimals "${decimals}" is not a whole number from 0 to 255`);
	return { amount, decimals: Number(decimals) };
}

/**
 * Whether the intent's amount was typed in whole units and binds the transaction, so its decimals must
 * be the chain's: a readable effect's amount, or the native value of a call from the native asset. A
 * call's token amount (a swap's from a token) binds nothing the Signer can read, so its decimals are
 * not asked of the chain (a token named by symbol stays signable).
 */
export function typedAmountBinds(asked: AskedIntent): boolean {
	return asked.typed !== undefined && (asked.effect !== 'call' || isNativeToken(asked.token));
}

/**
 * The decimals the chain gives for the intent's token: the native asset's from the family's format, a
 * token's (contract or mint) as the family reads them, or the family's own where every token has the
 * same (Stellar's 7, which the protocol fixes); undefined for a token named by symbol.
 */
export async function chainDecimalsOf(
	asked: AskedIntent,
	policy: SpendingPolicy,
	tokenDecimals?: (address: string) => Promise<number | undefined>,
): Promise<number | undefined> {
	if (isNativeToken(asked.token)) return policy.format.nativeDecimals;
	if (asked.token === undefined || !policy.format.isAddress(asked.token)) return undefined;
	return policy.format.tokenDecimals ?? (await tokenDecimals?.(asked.token));
}

/** An amount typed in whole units of a token, the decimals it was converted with and who gave them. */
export interface TypedTokenAmount {
	token: string;
	amount: string;
	decimals: number;
	/** Who gave the decimals, in words: "the API", "the chain node the API names". */
	givenBy: string;
}

/**
 * The decimals of an amount typed in whole units come from the API, or from the chain node it names
 * unless RPC URLs pins one: an API lying about decimals can name a node that agrees, and "1 USDC" is
 * signed as 1,000. So a token's decimals must be vouched for by the owner: by an amount limit line
 * giving the token's decimals (`0xToken:6 = …`, which must then agree), or by a node the credential
 * pins for the chain, unless the family fixes every token's decimals (Stellar's 7), which then vouches
 * for them. Otherwise the amount is refused under `rule`; one typed in smallest units is
 * converted by no one. The intent's and a built transfer's (Tron's Transfer TRC-20) alike.
 */
export function unvouchedDecimalsRefusal(
	rule: string,
	typed: TypedTokenAmount,
	policy: SpendingPolicy,
	chainId: string,
	pinnedNode: boolean,
): Refusal | undefined {
	const token = tokenText(typed.token);
	const key = policy.format.key(typed.token);
	const lines = amountLimits(policy).filter(
		(limit) => limit.asset === key && (limit.chainId === undefined || limit.chainId === chainId),
	);
	const converted = `the amount was typed in whole units as ${typed.amount} of ${token}, converted with ${typed.decimals} decimals ${typed.givenBy} gave`;
	// A family whose every token has the same decimals (Stellar's 7) vouches for them: no line or node needed.
	const { tokenDecimals } = policy.format;
	if (tokenDecimals !== undefined)
		return typed.decimals === tokenDecimals
			? undefined
			: new Refusal(
					rule,
					`${converted}, but every token of this chain family has ${tokenDecimals}`,
				);
	const other = lines.find((limit) => limit.decimals !== typed.decimals);
	if (other)
		return new Refusal(
			rule,
			`${converted}, but the credential's amount limits give ${token} ${other.decimals} decimals${other.chainId ? ` on chain ${other.chainId}` : ''}`,
		);
	if (lines.length || pinnedNode) return undefined;
	return new Refusal(
		rule,
		`${converted}, and only a chain node the API names could confirm them (an API lying about decimals names one that agrees); pin chain ${chainId}'s node in the credential's RPC URLs, give the token's decimals in an amount limit line ("${token}:${typed.decimals} = …"), or type the amount in smallest units`,
	);
}

/**
 * The intent's amount typed in whole units (whose decimals the API gave and its intent carries) held
 * to what the owner vouches for: unvouchedDecimalsRefusal under the rule "intent". A pinned node's
 * answer then binds them too (typedAmountRefusal).
 */
export function policyDecimalsRefusal(
	asked: AskedIntent,
	policy: SpendingPolicy,
	chainId: string,
	pinnedNode: boolean,
): Refusal | undefined {
	const { typed, token } = asked;
	if (!typed || token === undefined || isNativeToken(token) || !policy.format.isAddress(token))
		return undefined;
	return unvouchedDecimalsRefusal(
		'intent',
		{ token, ...typed, givenBy: 'the API' },
		policy,
		chainId,
		pinnedNode,
	);
}

/**
 * An amount typed in whole units is converted with decimals the API gave: the Signer holds them to
 * the chain's (a token's own `decimals`, a mint's, the native asset's) and the amount to the typed
 * one at those decimals, so an API that lies about decimals cannot multiply what was typed.
 * `chainDecimals` is undefined when the chain does not say (a token named by symbol, no such mint).
 */
export function typedAmountRefusal(
	asked: AskedIntent,
	chainDecimals: number | undefined,
): Refusal | undefined {
	const { typed } = asked;
	if (!typed) return undefined;
	const token = tokenText(asked.token ?? '(not named)');
	if (chainDecimals === undefined)
		return new Refusal(
			'intent',
			`the amount was typed in whole units as ${typed.amount} of ${token} and converted with ${typed.decimals} decimals the API gave, which the signer cannot check on the chain (it reads no decimals for ${token}); type the amount in smallest units`,
		);
	if (chainDecimals !== typed.decimals)
		return new Refusal(
			'intent',
			`the amount was typed in whole units as ${typed.amount} of ${token}, converted with ${typed.decimals} decimals the API gave, but ${token} has ${chainDecimals} decimals on the chain`,
		);
	// The conversion the core made (nodes/shared/amounts.ts), made again at the chain's decimals.
	const converted = toSmallestUnit(typed.amount, chainDecimals);
	const expected = converted === undefined ? undefined : BigInt(converted);
	if (expected !== asked.amount)
		return new Refusal(
			'intent',
			`the amount was typed in whole units as ${typed.amount} of ${token} (${chainDecimals} decimals), which is ${expected === undefined ? 'not a whole number of smallest units' : amountText(expected)}, but the intent asks ${asked.amount === undefined ? 'no amount' : amountText(asked.amount)}`,
		);
	return undefined;
}

/** The refusal of a From Input Item transaction that arrives without an intent while one is required. */
export function missingIntentRefusal(): Refusal {
	return new Refusal(
		'requireIntent',
		'the transaction arrived without the intent an Expand write operation outputs beside it ("intent"), so what it does cannot be held to what was asked; sign what an Expand node built, give the item an intent, or set Require Intent to Never on the credential',
	);
}

const withArticle = (word: string) => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
const amountText = (amount: bigint) => `${amount} (smallest unit)`;
const tokenText = (asset: string) =>
	asset === 'native' ? 'the native asset' : shownAddress(asset);

/** A movement as the refusal names it. */
function movementText(movement: Movement): string {
	return `${movement.via} of ${amountText(movement.amount)} of ${tokenText(movement.asset)} to ${shownAddress(movement.recipient)}`;
}

/**
 * The differences between what was asked and what the transaction does, field by field: the
 * chain, the sender, what it does, the token, the recipient (owner), the amount. For a call the
 * Signer cannot read: the chain, the sender, no token payment or approval, native value only from a
 * native input and at most the amount asked, and while a spending rule is set every contract
 * (program) it calls on Allowed Contracts and Programs (without one, a saved workflow's swap keeps
 * signing as it did; the credential Test says it is not covered).
 */
function differences(
	asked: AskedIntent,
	done: TransactionEffect,
	policy: SpendingPolicy,
): string[] {
	const key = (address: string) => (address === 'native' ? address : policy.format.key(address));
	const found: string[] = [];
	if (asked.chainId !== undefined && asked.chainId !== done.chainId)
		found.push(`chain: asked ${asked.chainId}, the transaction is for chain ${done.chainId}`);
	if (asked.sender !== undefined && key(asked.sender) !== key(done.from))
		found.push(
			`sender: asked ${shownAddress(asked.sender)}, the transaction is signed by ${shownAddress(done.from)}`,
		);
	const payments = done.movements.filter((movement) => !movement.cost);
	if (asked.effect === 'call') {
		const tokens = payments.filter((movement) => movement.asset !== 'native');
		if (tokens.length)
			found.push(
				`what it does: asked ${asked.operation}, a call the signer cannot read, but the transaction makes ${tokens.map(movementText).join(', ')}`,
			);
		const native = payments
			.filter((movement) => movement.asset === 'native')
			.reduce((sum, movement) => sum + movement.amount, 0n);
		// An amount of a token is no measure of native value: only a native input may pay value.
		if (native > 0n && !isNativeToken(asked.token))
			found.push(
				`native value: asked ${asked.operation} ${asked.token === undefined ? 'with no input token named' : `from ${asked.token}, not the native asset`}, but the transaction sends ${amountText(native)} of the native asset; a path that pays value (a wrapped-native input) cannot be bound to the form, type the native asset ("native" or 0xeeee…eeee) as the input`,
			);
		const most = asked.amount ?? 0n;
		if (native > most && isNativeToken(asked.token))
			found.push(
				`native value: asked at most ${amountText(most)}, the transaction sends ${amountText(native)}`,
			);
		const tokenCalls = payments.flatMap((movement) =>
			movement.contract ? [movement.contract] : [],
		);
		// A transaction that calls nothing but pays native value is no call: what it pays is what it calls.
		const bare = !done.opaque.length && !tokenCalls.length;
		const called = [
			...done.opaque.map((call) => call.to),
			...tokenCalls,
			...(bare ? payments.map((movement) => movement.recipient) : []),
		];
		for (const contract of new Set(called)) {
			if (spendingRuleSet(policy) && !policy.contracts.has(key(contract)))
				found.push(
					`called contract: ${asked.operation} is a call whose effect the signer cannot read from the transaction, so its contract (program) must be on Allowed Contracts and Programs, and ${shownAddress(contract)} is not`,
				);
		}
		return found;
	}
	if (done.opaque.length)
		found.push(
			`what it does: asked ${withArticle(asked.effect)}, the transaction also calls ${done.opaque.map((call) => (call.what ? `${call.what} (program ${call.to})` : `contract ${shownAddress(call.to)}`)).join(', ')}`,
		);
	if (payments.length !== 1) {
		found.push(
			`what it does: asked one ${asked.effect}, the transaction makes ${payments.length ? payments.map(movementText).join(', ') : 'no payment or approval'}`,
		);
		return found;
	}
	const [payment] = payments;
	if (payment.action !== asked.effect)
		found.push(
			`what it does: asked ${withArticle(asked.effect)}, the transaction makes ${withArticle(payment.via)}`,
		);
	if (key(asked.token as string) !== key(payment.asset))
		found.push(
			`token: asked ${tokenText(asked.token as string)}, the transaction moves ${tokenText(payment.asset)}`,
		);
	if (key(asked.recipient as string) !== key(payment.recipient))
		found.push(
			`recipient: asked ${shownAddress(asked.recipient as string)}, the transaction ${payment.action === 'approve' ? 'approves' : 'pays'} ${shownAddress(payment.recipient)}`,
		);
	if (asked.effect === 'transferFrom' && key(asked.owner as string) !== key(payment.owner ?? ''))
		found.push(
			`owner: asked ${shownAddress(asked.owner as string)}, the transaction takes from ${payment.owner ? shownAddress(payment.owner) : 'another account'}`,
		);
	if (asked.amount !== payment.amount)
		found.push(
			`amount: asked ${amountText(asked.amount as bigint)}, the transaction ${payment.action === 'approve' ? 'approves' : 'moves'} ${amountText(payment.amount)}`,
		);
	const askedMemo =
		asked.memo === undefined ? undefined : (policy.format.intentMemo?.(asked.memo) ?? asked.memo);
	if (askedMemo !== undefined && askedMemo !== payment.memo)
		found.push(
			`memo: asked ${JSON.stringify(askedMemo)}, the transaction carries ${payment.memo === undefined ? 'none' : JSON.stringify(payment.memo)}`,
		);
	return found;
}

/**
 * A cost of carrying a payment out (the rent of a token account, TON attached to a jetton transfer) is
 * the payment's only for the account it pays (or the signer's own); for anyone else it is value handed
 * to them (an account's owner closes it and keeps the rent).
 */
function rentDifferences(
	asked: AskedIntent,
	done: TransactionEffect,
	policy: SpendingPolicy,
): string[] {
	const ownAccount = (owner: string) =>
		policy.format.key(owner) === policy.format.key(done.from) ||
		(asked.recipient !== undefined &&
			policy.format.key(owner) === policy.format.key(asked.recipient));
	const foreign = done.movements.filter(
		(movement) => movement.cost && !ownAccount(movement.recipient),
	);
	return foreign.length
		? [
				`what it does: the transaction also pays ${foreign.map((movement) => `${movement.via} for ${shownAddress(movement.recipient)}`).join(', ')}, whom the form did not name`,
			]
		: [];
}

/** The refusal of a transaction that does something other than what its intent asked, naming every difference. */
export function askedIntentRefusal(
	asked: AskedIntent,
	done: TransactionEffect,
	policy: SpendingPolicy,
): Refusal | undefined {
	const found = [...differences(asked, done, policy), ...rentDifferences(asked, done, policy)];
	if (!found.length) return undefined;
	return new Refusal(
		'intent',
		`the transaction is not what the form asked (${asked.operation}): ${found.join('; ')}`,
	);
}
