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
const VERSION_1 = { show: { '@version': [1] } };
const FROM_VERSION_2 = { hide: { '@version': [1] } };

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
		...byRole([...required, ...promoted]).map((parameter) =>
			scoped(parameter, 'chainId', parameter.required ? undefined : FROM_VERSION_2),
		),
	);
	if (operation.parameters.some((parameter) => parameter.unit)) properties.push(...amountsInProperties);

	if (operation.pagination) {
		properties.push(returnAllProperty, {
			...limitProperty,
			displayOptions: { show: { returnAll: [false] } },
		});
	}

	const additional = [
		...optional.map((parameter) => scoped(parameter, '/chainId', isPromoted(parameter) ? VERSION_1 : undefined)),
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
