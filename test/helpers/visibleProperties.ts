import { type INodeParameters, type INodeProperties, NodeHelpers } from 'n8n-workflow';

/** A property as the editor shows it, without the display rules that chose it. */
export type ShownProperty = Omit<INodeProperties, 'displayOptions' | 'options'> & {
	options?: unknown[];
};

function withoutDisplayOptions(property: INodeProperties): Omit<INodeProperties, 'displayOptions'> {
	const { displayOptions: _displayOptions, ...rest } = property;
	return rest;
}

/**
 * The properties n8n shows for these node values, in form order, as n8n-workflow's own display
 * rules decide (`NodeHelpers.displayParameter`); a collection lists the options it offers, each
 * decided against the node's root values the way the editor and the engine do.
 */
export function visibleProperties(
	properties: INodeProperties[],
	values: INodeParameters,
	typeVersion = 1,
): ShownProperty[] {
	const NODE = { typeVersion };
	return properties
		.filter((property) => NodeHelpers.displayParameter(values, property, NODE, null, values))
		.map((property) => {
			const shown = withoutDisplayOptions(property);
			if (property.type !== 'collection') return shown;
			const options = (property.options as INodeProperties[])
				.filter((option) => NodeHelpers.displayParameter({}, option, NODE, null, values))
				.map(withoutDisplayOptions);
			return { ...shown, options };
		});
}
