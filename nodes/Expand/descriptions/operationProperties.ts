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
	"This operation returns an unsigned transaction; nothing is broadcast. From a key held in n8n: pass this output to Expand Signer (Sign Transaction), then to Expand: Chain → Send Transaction with {{ $json.rawTransaction }}. From = a Safe: pass it to Expand Signer's Propose to Safe instead; the Safe's owners confirm and execute it.";

const UNDOCUMENTED =
	'Public sources do not document the parameters of this operation. Add them under Extra Parameters with the names the API expects.';

function notice(name: string, displayName: string): INodeProperties {
	return { displayName, name, type: 'notice', default: '' };
}

/** The versions of the Expand node (Expand.node.ts). */
export const NODE_VERSIONS = [1, 2];
const VERSION_1 = [1];
const FROM_VERSION_2 = NODE_VERSIONS.filter((version) => version >= 2);

/** A display rule that shows a property in these versions only; none when it shows in all. */
function inVersions(versions: number[]): IDisplayOptions | undefined {
	if (NODE_VERSIONS.every((version) => versions.includes(version))) return undefined;
	const hidden = NODE_VERSIONS.filter((version) => !versions.includes(version));
	// "Hidden in version 1" is shorter than a list, and holds for versions yet to come.
	if (hidden.length === 1 && hidden[0] === 1) return { hide: { '@version': VERSION_1 } };
	return { show: { '@version': versions } };
}

function withDisplay(
	property: INodeProperties,
	displayOptions: IDisplayOptions | undefined,
): INodeProperties {
	return displayOptions ? { ...property, displayOptions } : property;
}

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
 * A parameter's properties for the versions that show it. From version 2 a parameter of some chain
 * families is hidden while Chain holds a chain of another family (`chain` is how Chain is reached
 * from where the property sits); version 1 shows it on every chain, as its first release did, so a
 * value saved there is never dropped.
 */
function scoped(
	parameter: ParameterSpec,
	chain: 'chainId' | '/chainId',
	versions: number[] = NODE_VERSIONS,
): INodeProperties[] {
	const property = parameterProperty(parameter);
	const hide = chainFamilyRule(parameter, chain);
	if (!hide) return versions.length ? [withDisplay(property, inVersions(versions))] : [];
	const later = versions.filter((version) => version >= 2);
	const laterRule = inVersions(later);
	return [
		...(versions.includes(1) ? [withDisplay(property, inVersions(VERSION_1))] : []),
		...(later.length
			? [{ ...property, displayOptions: { ...laterRule, hide: { ...laterRule?.hide, ...hide } } }]
			: []),
	];
}

/** The property without the keys named: a copy that is not required, or has no placeholder. */
function without(
	property: INodeProperties,
	...keys: Array<keyof INodeProperties>
): INodeProperties {
	const copy = { ...property };
	for (const key of keys) delete copy[key];
	return copy;
}

/**
 * A parameter's field at the top of the form (every version for a required one, from version 2 for a
 * promoted one). Where an earlier release of a version kept it in Additional Fields, that version's
 * top field is not marked required: the value may be in either place, and the editor would otherwise
 * flag the saved workflow (the run still refuses an empty one).
 */
function topProperties(operation: OperationSpec, parameter: ParameterSpec): INodeProperties[] {
	const versions = parameter.required ? NODE_VERSIONS : FROM_VERSION_2;
	const earlier = earlierAdditionalVersions(
		operation.resource,
		operation.operation,
		parameter.name,
	).filter((version) => versions.includes(version));
	if (!parameterProperty(parameter).required || earlier.length === 0)
		return scoped(parameter, 'chainId', versions);
	return [
		...scoped(
			parameter,
			'chainId',
			versions.filter((version) => !earlier.includes(version)),
		),
		...scoped(parameter, 'chainId', earlier).map((property) => without(property, 'required')),
	];
}

const EARLIER_PLACE =
	'Where an earlier release saved this field, now at the top. Set one of the two.';

/**
 * A parameter's options in Additional Fields: its own place (every version for an optional field;
 * version 1 for a promoted one), and the place earlier releases of some versions gave it, shown with
 * no chain-family rule, as those releases did.
 */
function additionalProperties(
	operation: OperationSpec,
	parameter: ParameterSpec,
): INodeProperties[] {
	const own = parameter.required ? [] : isPromoted(parameter) ? VERSION_1 : NODE_VERSIONS;
	const earlier = earlierAdditionalVersions(
		operation.resource,
		operation.operation,
		parameter.name,
	).filter((version) => !own.includes(version));
	const field = without(parameterProperty(parameter), 'required', 'placeholder');
	return [
		...scoped(parameter, '/chainId', own).map((property) => without(property, 'required')),
		...(earlier.length
			? [withDisplay({ ...field, description: EARLIER_PLACE }, inVersions(earlier))]
			: []),
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
	properties.push(
		...byRole([...required, ...promoted]).flatMap((parameter) =>
			topProperties(operation, parameter),
		),
	);
	if (operation.parameters.some((parameter) => parameter.unit))
		properties.push(...amountsInProperties);

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
