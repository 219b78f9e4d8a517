import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { requiredFamilies } from '../../shared/catalog/requirement';
import type { ParameterSpec } from '../../shared/catalog/types';
import { displayNameOf } from './displayName';

/** The sender field's other path: the transaction is built the same way, then proposed rather than signed. */
const SAFE_SENDER =
	"A Safe (EVM multisig) here: pass the output to Expand Signer's Propose to Safe; its owners confirm and execute it";

function describe(parameter: ParameterSpec): string {
	const parts = [parameter.description];
	const families = requiredFamilies(parameter);
	if (parameter.intent === 'sender' && (families.length === 0 || families.includes('EVM')))
		parts.push(SAFE_SENDER);
	if (parameter.type === 'array') parts.push('Comma-separated, or a JSON array');
	if (families.length) parts.push(`Required on ${families.join(' and ')} chains`);
	else if (parameter.protocols?.length) parts.push(`Used by ${parameter.protocols.join(', ')}`);
	if (parameter.unit) parts.push('Units: see Amounts In');
	if (parameter.estimate)
		parts.push('Leave empty to have it estimated through Chain → Estimate Gas before the request');
	return parts.join('. ');
}

function optionsOf(values: string[]): INodePropertyOptions[] {
	return values.map((value) => ({ name: value, value }));
}

/** One catalog parameter as an n8n property (without displayOptions). */
export function parameterProperty(parameter: ParameterSpec): INodeProperties {
	const base = {
		displayName: displayNameOf(parameter.name),
		name: parameter.name,
		description: describe(parameter),
		// An estimated value, or one required on some chain families only, may be left empty on the form.
		...(parameter.required && !parameter.estimate && requiredFamilies(parameter).length === 0
			? { required: true }
			: {}),
		...(parameter.placeholder ? { placeholder: parameter.placeholder } : {}),
	};
	if (parameter.options) {
		return {
			...base,
			type: 'options',
			options: optionsOf(parameter.options),
			default: (parameter.default as string | undefined) ?? parameter.options[0],
		};
	}
	switch (parameter.type) {
		case 'boolean':
			return {
				...base,
				type: 'boolean',
				default: (parameter.default as boolean | undefined) ?? false,
			};
		case 'json':
			return { ...base, type: 'json', default: '' };
		default:
			return { ...base, type: 'string', default: (parameter.default as string | undefined) ?? '' };
	}
}
