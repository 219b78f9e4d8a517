import type { INodeProperties } from 'n8n-workflow';

import { protocols } from '../../shared/catalog/protocols';
import type { ProtocolParameter } from '../../shared/catalog/types';

/** The resource's protocol selector: the known protocols by name, or any ID by expression. */
export function protocolProperty(parameter: ProtocolParameter): INodeProperties {
	const protocol = protocols[parameter];
	const options = [
		...(protocol.noIdOption ? [{ name: protocol.noIdOption, value: '' }] : []),
		...protocol.options.map((option) => ({
			name: `${option.name} (${option.value})`,
			value: option.value,
		})),
	];
	const defaultId = protocol.default ?? options[0]?.value ?? '';
	return {
		displayName: `${protocol.displayName} Name or ID`,
		name: parameter,
		type: 'options',
		options,
		default: defaultId,
		description: `${protocol.description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
}
