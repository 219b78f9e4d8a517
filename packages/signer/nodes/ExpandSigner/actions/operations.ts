import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { accountProperties } from './account';
import { evm } from './evm';
import { fireblocks } from './fireblocks';
import type { SignerFamily, SignerOperation } from './signerFamily';
import { solana } from './solana';
import { stellar } from './stellar';
import { ton } from './ton';
import { tron } from './tron';

/** The Signer's chain families: the Chain Family list, each family's operations and fields, and the router's dispatch come from here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each family has its own session type
export const families: Array<SignerFamily<any>> = [evm, solana, tron, ton, stellar, fireblocks];

export const familiesByName = new Map(
	families.map((family) => [String(family.option.value), family]),
);

/** The family's operation of that name. */
export function operationOf<Session>(
	family: SignerFamily<Session>,
	name: string,
): SignerOperation<Session> | undefined {
	return family.operations.find((operation) => operation.option.value === name);
}

/** The chain families (the registry less its custodians), each with a families/ folder of its own. */
export const chainFamilies = families.filter((family) => family.builtOn === undefined);

const inWords = (names: string[]) =>
	names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join('');

/** The chain families by name, as the node's description says them: "EVM, Solana and Tron". */
export const familiesInWords = inWords(chainFamilies.map((family) => String(family.option.name)));

/** Where the node shows a signing key credential: with the family whose keys it holds. */
export function shownWithFamily(credential: string): INodeCredentialDescription['displayOptions'] {
	const chainFamily = families
		.filter((family) => family.credential === credential)
		.map((family) => family.option.value);
	return { show: { chainFamily } };
}

// eslint-disable-next-line n8n-nodes-base/node-param-default-missing -- the default is the first family's
export const chainFamilyProperty: INodeProperties = {
	displayName: 'Chain Family',
	name: 'chainFamily',
	type: 'options',
	noDataExpression: true,
	options: families.map((family) => family.option),
	// A saved workflow holds no Chain Family when it is the default, so the first family stays first
	// (the frozen forms of test/compat fail on a changed default).
	default: families[0].option.value,
	description:
		'The chains this node signs for; each family has its own signing key credential and operations',
};

function operationProperty(family: SignerFamily): INodeProperties {
	// eslint-disable-next-line n8n-nodes-base/node-param-default-missing -- the default is the family's (defaultOperation)
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { chainFamily: [family.option.value] } },
		options: family.operations.map((operation) => operation.option),
		default: family.defaultOperation,
	};
}

/** A field of a family's operation, shown only for that family (operations of two families may share a name). */
function scoped(family: SignerFamily, property: INodeProperties): INodeProperties {
	const show = { ...property.displayOptions?.show, chainFamily: [family.option.value] };
	return { ...property, displayOptions: { ...property.displayOptions, show } };
}

/** The node's form: the chain family, its operation and fields, then the account that signs. */
export const properties: INodeProperties[] = [
	chainFamilyProperty,
	...families.flatMap((family) => [
		operationProperty(family),
		...family.operations.flatMap((operation) =>
			operation.description.map((property) => scoped(family, property)),
		),
	]),
	...accountProperties,
];

/** The values of the operations that need a credential, for its display rule. */
function operationsThat(needs: (operation: SignerOperation<unknown>) => boolean): string[] {
	return [
		...new Set(
			families.flatMap((family) =>
				(family.operations as Array<SignerOperation<unknown>>)
					.filter(needs)
					.map((operation) => String(operation.option.value)),
			),
		),
	];
}

/** Operations whose items call the API, for the API credential's display rule. */
export const apiOperations = operationsThat((operation) => operation.usesApi === true);

/**
 * Where the node shows the Safe API credential: the chain families and operations whose items call the
 * Safe Transaction Service. Not marked required, as Check Payouts uses it only when set, and n8n cannot
 * require a credential type for some operations only: n8n-core's getCredentials reads the first entry
 * of the type and refuses ("Credentials not found") where that entry's displayOptions hide it, while
 * the editor shows one selector per displayed entry (two entries of one type either break the second's
 * operations at run time or show two selectors). Propose to Safe and Get Safe Proposal fail first
 * thing without it, naming the operation.
 */
export const safeApiDisplay = {
	show: {
		chainFamily: families
			.filter((family) =>
				(family.operations as Array<SignerOperation<unknown>>).some(
					(operation) => operation.usesSafeApi,
				),
			)
			.map((family) => String(family.option.value)),
		operation: operationsThat((operation) => Boolean(operation.usesSafeApi)),
	},
};
