/**
 * The intent a write outputs (docs/outputs.md, "intent") comes from the catalog: an operation whose
 * effect Expand Signer reads from the transaction names, on every chain family it serves, who is
 * paid, in which token (one parameter, or required parameters composing it: a Stellar asset
 * CODE:ISSUER) and how much (an amount with its unit, or with the fixed decimals of its asset).
 */
import { operations, returnsUnsignedTransaction } from '../../nodes/shared/catalog';
import { chainFamilies } from '../../nodes/shared/catalog/chains';
import { familiesOf } from '../../nodes/shared/catalog/families';
import type { IntentPart, OperationSpec, ParameterSpec } from '../../nodes/shared/catalog/types';

const withEffect = operations.filter((operation) => operation.effect);

/** The families an operation's parameters serve: those its family-tagged parameters name, else all. */
function servedFamilies(operation: OperationSpec): string[] {
	const tagged = operation.parameters.flatMap(familiesOf).filter((name) => chainFamilies.has(name));
	return tagged.length ? [...new Set(tagged)] : ['EVM'];
}

const usedOn = (parameter: ParameterSpec, family: string) => {
	const families = familiesOf(parameter).filter((name) => chainFamilies.has(name));
	return !families.length || families.includes(family);
};

test('the effects the Signer reads are declared on the token operations', () => {
	expect(withEffect.map((operation) => `${operation.resource}/${operation.operation}`)).toEqual([
		'fungibletoken/approve',
		'fungibletoken/transfer',
		'fungibletoken/transferfrom',
		'rwa/burn',
		'rwa/issue',
		'rwa/transfer',
	]);
});

test.each(
	withEffect.map((operation) => [`${operation.resource}/${operation.operation}`, operation]),
)(
	'%s: on every chain family it serves, a required sender, recipient and token, and an amount with its unit',
	(_name, operation) => {
		const needed: IntentPart[] = ['sender', 'recipient', 'token'];
		if (operation.effect === 'transferFrom') needed.push('owner');
		for (const family of servedFamilies(operation)) {
			const here = operation.parameters.filter((parameter) => usedOn(parameter, family));
			const composed =
				operation.intentToken?.every((name) => here.some((p) => p.name === name && p.required)) ===
				true;
			for (const part of needed)
				expect([
					family,
					part,
					here.some((p) => p.intent === part && p.required) || (part === 'token' && composed),
				]).toEqual([family, part, true]);
			expect([
				family,
				here.some(
					(p) => p.role === 'amount' && (p.unit || p.fixedDecimals !== undefined) && p.required,
				),
			]).toEqual([family, true]);
		}
	},
);

test('an effect is declared on writes that return a transaction only (intent parts of shared parameters are read on those alone)', () => {
	expect(withEffect.every(returnsUnsignedTransaction)).toBe(true);
});
