import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { isPromoted, returnsUnsignedTransaction } from '../../shared/catalog';
import type { OperationSpec, ParameterSpec } from '../../shared/catalog/types';
import { chainIdProperty } from '../../shared/chain/chainProperty';
import {
	amountsInProperties,
	chainSymbolProperty,
	confirmationProperties,
	extraParametersProperty,
	formatAmountsProperties,
	limitProperty,
	rawBodyProperty,
	returnAllProperty,
	rpcProperty,
} from './commonProperties';
import { chainFamilyRule } from './chainFamilyRule';
import { earlierAdditionalVersions } from './earlierPlacements';
import { parameterProperty } from './parameterProperty';
import { protocolProperty } from './protocolProperty';

const SEND_STEP =
	'This operation returns an unsigned transaction; nothing is broadcast. To send it, pass this output to Expand Signer (Sign Transaction), then to Expand: Chain → Send Transaction with {{ $json.rawTransaction }}.';

const UNDOCUMENTED =
	'Public sources do not document the parameters of this operation. Add them under Extra Parameters with the names the API expects.';

function notice(name: string, displayName: string): INodeProperties {
	return { displayName, name, type: 'notice', default: '' };
}

/** Version 1 keeps optional who/what fields in Additional Fields, where its saved workflows hold them. */
const VERSION_1 = [1];
const FROM_VERSION_2 = { hide: { '@version': VERSION_1 } };

const inVersions = (versions: number[]): IDisplayOptions => ({ show: { '@version': versions } });

const ROLE_ORDER = ['who', 'what', 'amount'];

/** Who, what, how much, then the rest, each group in catalog order. */
function byRole(parameters: ParameterSpec[]): ParameterSpec[] {
	const rank = (parameter: ParameterSpec) => {
		const index = parameter.role ? ROLE_ORDER.indexOf(parameter.role) : -1;
		return index < 0 ? ROLE_ORDER.length : index;
	};
	return [...parameters].sort((a, b) => rank(a) - rank(b));
}

/**
 * A parameter's property with its display rule: the version that shows it (`display`), and hidden
 * while Chain holds a chain of a family that does not use it (`chain` is how Chain is reached from
 * where the property sits).
 */
function scoped(parameter: ParameterSpec, chain: 'chainId' | '/chainId', display?: IDisplayOptions): INodeProperties {
	const hide = chainFamilyRule(parameter, chain);
	const displayOptions = hide ? { ...display, hide: { ...display?.hide, ...hide } } : display;
	return displayOptions ? { ...parameterProperty(parameter), displayOptions } : parameterProperty(parameter);
}

/** The property without the keys named: a copy that is not required, or has no placeholder. */
function without(property: INodeProperties, ...keys: Array<keyof INodeProperties>): INodeProperties {
	const copy = { ...property };
	for (const key of keys) delete copy[key];
	return copy;
}

/**
 * A parameter's field at the top of the form. Where an earlier release of a version kept it in
 * Additional Fields, that version's top field is not marked required: the value may be in either
 * place, and the editor would otherwise flag the saved workflow (the run still refuses an empty one).
 */
function topProperties(operation: OperationSpec, parameter: ParameterSpec): INodeProperties[] {
	const display = parameter.required ? undefined : FROM_VERSION_2;
	const property = scoped(parameter, 'chainId', display);
	const earlier = earlierAdditionalVersions(operation.resource, operation.operation, parameter.name);
	if (!property.required || earlier.length === 0) return [property];
	return [
		scoped(parameter, 'chainId', { hide: { '@version': earlier } }),
		without(scoped(parameter, 'chainId', inVersions(earlier)), 'required'),
	];
}

const EARLIER_PLACE = 'Where an earlier release saved this field, now at the top. Set one of the two.';

/**
 * A parameter's options in Additional Fields: its own place (every version for an optional field;
 * version 1 for a promoted one), and the place earlier releases of some versions gave it. The
 * earlier place shows no chain-family rule, as those releases did not.
 */
function additionalProperties(operation: OperationSpec, parameter: ParameterSpec): INodeProperties[] {
	const own = parameter.required ? [] : isPromoted(parameter) ? VERSION_1 : undefined;
	const earlier = earlierAdditionalVersions(operation.resource, operation.operation, parameter.name).filter(
		(version) => !own?.includes(version),
	);
	const field = without(parameterProperty(parameter), 'required', 'placeholder');
	return [
		...(own === undefined ? [scoped(parameter, '/chainId')] : own.length ? [scoped(parameter, '/chainId', inVersions(own))] : []),
		...(earlier.length && own !== undefined ? [{ ...field, description: EARLIER_PLACE, displayOptions: inVersions(earlier) }] : []),
	];
}

/** Every property one operation needs, without displayOptions (the caller scopes them). */
export function operationProperties(operation: OperationSpec): INodeProperties[] {
	const required = operation.parameters.filter((parameter) => parameter.required);
	const optional = operation.parameters.filter((parameter) => !parameter.required);
	const promoted = optional.filter(isPromoted);
	const properties: INodeProperties[] = [];

	if (returnsUnsignedTransaction(operation)) {
		properties.push(notice('sendStepNotice', SEND_STEP));
	}
	if (operation.undocumented) properties.push(notice('undocumentedNotice', UNDOCUMENTED));
	if (operation.chain) properties.push(chainIdProperty);
	if (operation.protocol) properties.push(protocolProperty(operation.protocol));
	properties.push(...byRole([...required, ...promoted]).flatMap((parameter) => topProperties(operation, parameter)));
	if (operation.parameters.some((parameter) => parameter.unit)) properties.push(...amountsInProperties);

	if (operation.pagination) {
		properties.push(returnAllProperty, {
			...limitProperty,
			displayOptions: { show: { returnAll: [false] } },
		});
	}

	const additional = [
		...operation.parameters.flatMap((parameter) => additionalProperties(operation, parameter)),
		...(operation.chain ? [chainSymbolProperty, rpcProperty] : []),
	].sort((a, b) => a.displayName.localeCompare(b.displayName));
	if (additional.length) {
		properties.push({
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: additional,
		});
	}

	if (operation.undocumented) {
		properties.push(extraParametersProperty);
		if (operation.method === 'POST') properties.push(rawBodyProperty);
	}
	if (operation.amounts?.length) properties.push(...formatAmountsProperties);
	if (operation.confirmable) properties.push(...confirmationProperties);
	return properties;
}
