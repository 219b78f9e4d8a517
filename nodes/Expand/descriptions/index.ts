import type { INodeProperties } from 'n8n-workflow';

import { operationsOf, resources } from '../../shared/catalog';
import type { OperationSpec } from '../../shared/catalog/types';
import { executionOptionsProperty } from './executionOptions';
import { operationProperties } from './operationProperties';

function costText(operation: OperationSpec): string {
	return operation.computeUnits === undefined
		? 'Compute-unit cost not listed in the spec'
		: `${operation.computeUnits} compute units`;
}

/** The operation's one-line description as shown in the editor: what it does, where, and what it costs. */
export function operationSummary(operation: OperationSpec): string {
	const where = operation.availability ? ` (${operation.availability})` : '';
	return `${operation.description}${where}. ${costText(operation)}.`;
}

const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: resources.map((resource) => ({
		name: resource.name,
		value: resource.value,
		description: resource.description,
	})),
	default: 'chain',
};

function operationProperty(resource: string, resourceOperations: OperationSpec[]): INodeProperties {
	const options = resourceOperations
		.map((operation) => ({
			name: operation.name,
			value: operation.operation,
			description: operationSummary(operation),
			action: operation.name.charAt(0) + operation.name.slice(1).toLowerCase(),
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
	const firstOperation = options[0].value;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: firstOperation,
	};
}

const RANK_BY_NAME: Record<string, number> = {
	sendStepNotice: 0,
	undocumentedNotice: 0,
	chainId: 1,
	returnAll: 4,
	limit: 5,
	additionalFields: 6,
	extraParameters: 7,
	rawBody: 8,
	formatAmounts: 9,
	waitForConfirmation: 10,
	confirmations: 11,
	confirmationTimeout: 12,
};

/** Form order: notices, chain, protocol and required fields, paging, then optional sections. */
function rank(property: INodeProperties): number {
	return RANK_BY_NAME[property.name] ?? (property.name.endsWith('Id') && property.type === 'options' ? 2 : 3);
}

/**
 * Properties of one resource. Identical properties of several operations are merged into one
 * whose displayOptions list all of them, which keeps the node description small.
 */
function resourceProperties(resource: string, resourceOperations: OperationSpec[]): INodeProperties[] {
	const merged = new Map<string, { property: INodeProperties; operations: string[] }>();
	for (const operation of resourceOperations) {
		for (const property of operationProperties(operation)) {
			const key = JSON.stringify(property);
			const entry = merged.get(key);
			if (entry) entry.operations.push(operation.operation);
			else merged.set(key, { property, operations: [operation.operation] });
		}
	}
	return [...merged.values()]
		.sort((a, b) => rank(a.property) - rank(b.property))
		.map(({ property, operations }) => ({
			...property,
			displayOptions: {
				...property.displayOptions,
				show: { ...property.displayOptions?.show, resource: [resource], operation: operations },
			},
		}));
}

export function buildProperties(): INodeProperties[] {
	const properties: INodeProperties[] = [resourceProperty];
	for (const resource of resources) {
		properties.push(operationProperty(resource.value, operationsOf(resource.value)));
	}
	for (const resource of resources) {
		properties.push(...resourceProperties(resource.value, operationsOf(resource.value)));
	}
	properties.push(executionOptionsProperty);
	return properties;
}
