import { toSmallestUnit } from '../../shared/amounts';
import { chainOf } from '../../shared/catalog/chains';
import { chainIdOfProtocol } from '../../shared/catalog/protocols';
import type { IntentPart, OperationSpec, ParameterSpec } from '../../shared/catalog/types';
import { type Intent, NATIVE_TOKEN } from '../../shared/intent';
import type { ItemParameters } from './parameters';
import type { PreparedValue } from './validation';

const text = (value: PreparedValue | undefined): string | null =>
	typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/**
 * The chain the transaction is for, as the item names it; null for an operation whose chain its
 * protocol ID sets, which the API decides (Allowed Chain IDs still holds the transaction's own).
 */
function chainIdOf(operation: OperationSpec, values: Map<string, PreparedValue>): string | null {
	if (!operation.chain) return null;
	const chosen = chainOf(values.get('chainId'), values.get('chainSymbol'));
	return chosen?.chainId ?? text(values.get('chainId'));
}

/** The native asset's symbol on the chain of the item or of its protocol ID, when the catalog knows the chain. */
function nativeSymbolOf(
	operation: OperationSpec,
	values: Map<string, PreparedValue>,
): string | undefined {
	if (operation.chain)
		return chainOf(values.get('chainId'), values.get('chainSymbol'))?.nativeSymbol;
	if (!operation.protocol) return undefined;
	const chainId = chainIdOfProtocol(operation.protocol, values.get(operation.protocol));
	return chainId ? chainOf(chainId, undefined)?.nativeSymbol : undefined;
}

/** A swap's input as the intent names it: `native` for the chain's native symbol, which the Signer (no catalog) cannot tell. */
function swapInput(
	operation: OperationSpec,
	values: Map<string, PreparedValue>,
	token: string | null,
): string | null {
	const nativeSymbol = nativeSymbolOf(operation, values);
	return token !== null && nativeSymbol?.toUpperCase() === token.toUpperCase()
		? NATIVE_TOKEN
		: token;
}

/** The first set value of the parameters that are this part of the intent (one per chain family). */
function partOf(
	operation: OperationSpec,
	values: Map<string, PreparedValue>,
	part: IntentPart,
): PreparedValue | undefined {
	return operation.parameters
		.filter((spec) => spec.intent === part)
		.map((spec) => values.get(spec.name))
		.find((value) => value !== undefined && value !== '');
}

/** The amount asked: the first set parameter with role `amount` and a unit (or fixed decimals), counted in the input token. */
function amountSpecOf(
	operation: OperationSpec,
	values: Map<string, PreparedValue>,
): ParameterSpec | undefined {
	return operation.parameters.find(
		(spec) =>
			spec.role === 'amount' &&
			(spec.unit !== undefined || spec.fixedDecimals !== undefined) &&
			spec.tokenEntry !== 'last' &&
			text(values.get(spec.name)) !== null,
	);
}

/** The token composed of the operation's `intentToken` parameters (`CODE:ISSUER`); undefined without them, null when one is empty. */
function composedToken(
	operation: OperationSpec,
	values: Map<string, PreparedValue>,
): string | null | undefined {
	if (!operation.intentToken) return undefined;
	const parts = operation.intentToken.map((name) => text(values.get(name)));
	return parts.every((part) => part !== null) ? parts.join(':') : null;
}

/**
 * The amount as the intent states it, in the smallest unit, and how it was typed: one the API takes in
 * whole units of an asset with fixed decimals is converted here (exactly, as amounts.ts does) and
 * states them; one typed in whole units on the form was converted before sending.
 */
function amountOf(
	spec: ParameterSpec | undefined,
	parameters: ItemParameters,
): { amount: string | null; typed: Pick<Intent, 'amountTyped' | 'decimals'> } {
	const sent = spec ? text(parameters.values.get(spec.name)) : null;
	if (!spec || sent === null) return { amount: null, typed: {} };
	if (spec.fixedDecimals !== undefined) {
		const amount = toSmallestUnit(sent, spec.fixedDecimals) ?? null;
		return {
			amount,
			typed: amount === null ? {} : { amountTyped: sent, decimals: spec.fixedDecimals },
		};
	}
	// Only an amount typed in whole units: the Signer checks the decimals the API gave against the chain's.
	const typed = parameters.typedAmounts?.get(spec.name);
	return {
		amount: sent,
		typed: typed ? { amountTyped: typed.typed, decimals: typed.decimals } : {},
	};
}

/**
 * What a write asked, output beside the API's unsigned transaction as `intent` (the contract:
 * shared/intent.ts): Expand Signer refuses a transaction that does something else. Read from the
 * values sent (amounts in the smallest unit, as sent) through the catalog's `intent` parts, the
 * amount's role and unit (or fixed decimals), the operation's `intentToken` and `effect`; nothing here
 * is written per operation.
 */
export function intentOf(operation: OperationSpec, parameters: ItemParameters): Intent {
	const { values } = parameters;
	const intent: Intent = {
		operation: `${operation.resource}/${operation.operation}`,
		effect: operation.effect ?? 'call',
		chainId: chainIdOf(operation, values),
		sender: text(partOf(operation, values, 'sender')),
		recipient: text(partOf(operation, values, 'recipient')),
	};
	if (operation.parameters.some((spec) => spec.intent === 'owner'))
		intent.owner = text(partOf(operation, values, 'owner'));
	const amountSpec = amountSpecOf(operation, values);
	const { amount, typed: typedPart } = amountOf(amountSpec, parameters);
	const named = partOf(operation, values, 'token') ?? composedToken(operation, values);
	const tokenValue =
		named ??
		(amountSpec?.unit === 'token' && amountSpec.tokenParam
			? values.get(amountSpec.tokenParam)
			: undefined);
	if (Array.isArray(tokenValue)) {
		intent.tokenIn = swapInput(operation, values, text(tokenValue[0] as string));
		intent.tokenOut = text(tokenValue[tokenValue.length - 1] as string);
		intent.amountIn = amount;
		return { ...intent, ...typedPart };
	}
	intent.token =
		amountSpec?.unit === 'native' && named === undefined ? NATIVE_TOKEN : text(tokenValue);
	intent.amount = amount;
	return { ...intent, ...typedPart };
}
