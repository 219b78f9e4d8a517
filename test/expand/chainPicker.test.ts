/**
 * The chain picker of the shipped nodes offers the API's chains; the devnet's chains (31337, 31338)
 * are offered only to a workflow that chose one, so a saved devnet workflow opens with its chain
 * shown and unflagged, while a new node lists real chains alone. The options are decided the way the
 * n8n editor decides them: each option's display rules against the node's parameters.
 */
import {
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeTypeDescription,
	NodeHelpers,
} from 'n8n-workflow';

import { Expand } from '../../nodes/Expand/Expand.node';
import { ExpandTrigger } from '../../nodes/ExpandTrigger/ExpandTrigger.node';
import { chains } from '../../nodes/shared/catalog/chains';

const DEVNET_CHAINS = ['31337', '31338'];

const forms: Array<[string, INodeTypeDescription, INodeParameters]> = [
	['Expand', new Expand().description, { resource: 'fungibletoken', operation: 'gettokendetails' }],
	['Expand Trigger', new ExpandTrigger().description, { event: 'newBlock' }],
];

/** The chain options the editor lists for a node of this type, version and parameters. */
function offered(
	description: INodeTypeDescription,
	version: number,
	parameters: INodeParameters,
): string[] {
	const node: INode = {
		id: 'picker',
		name: 'picker',
		type: description.name,
		typeVersion: version,
		position: [0, 0],
		parameters,
	};
	const values =
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			node,
			description,
		) ?? parameters;
	const picker = description.properties.find(
		(property: INodeProperties) =>
			property.name === 'chainId' &&
			NodeHelpers.displayParameter(values, property, node, description),
	);
	expect(picker).toBeDefined();
	return (picker!.options as INodePropertyOptions[])
		.filter(
			(option) =>
				!option.displayOptions ||
				NodeHelpers.displayParameter(
					values,
					option,
					node,
					description,
					undefined,
					'displayOptions',
				),
		)
		.map((option) => String(option.value));
}

describe.each(forms)('%s', (_name, description, selection) => {
	const versions = [description.version].flat();

	test.each(versions)(
		'version %s: a new node is offered every chain but the devnet’s',
		(version) => {
			const values = offered(description, version, selection);
			expect(values).toEqual(
				expect.arrayContaining(
					chains.filter((chain) => !chain.devnet).map((chain) => chain.chainId),
				),
			);
			for (const chainId of DEVNET_CHAINS) expect(values).not.toContain(chainId);
		},
	);

	test.each(versions)(
		'version %s: a workflow that chose a devnet chain keeps it shown, and only that one',
		(version) => {
			for (const chainId of DEVNET_CHAINS) {
				const values = offered(description, version, { ...selection, chainId });
				expect(values).toContain(chainId);
				expect(values).not.toContain(DEVNET_CHAINS.find((other) => other !== chainId));
			}
		},
	);

	test.each(versions)(
		'version %s: a workflow whose Chain is an expression is offered every chain, so an expression that gives a devnet chain is not flagged',
		(version) => {
			const values = offered(description, version, {
				...selection,
				chainId: '={{ $json.chainId }}',
			});
			expect(values).toEqual(expect.arrayContaining(chains.map((chain) => chain.chainId)));
		},
	);
});

test('the devnet chains are the catalog’s only chains kept from new nodes', () => {
	expect(chains.filter((chain) => chain.devnet).map((chain) => chain.chainId)).toEqual(
		DEVNET_CHAINS,
	);
});
