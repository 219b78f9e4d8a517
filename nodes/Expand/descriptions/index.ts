import type { INodeProperties } from 'n8n-workflow';

import { operationsOf, resources } from '../../shared/catalog';
import type { OperationSpec } from '../../shared/catalog/types';
import { executionOptionsProperty } from './executionOptions';
import { operationProperties } from './operationProperties';
import { type OperationForm, shareProperties } from './shareProperties';

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

/** Every operation's form: its properties in form order, not yet scoped to it. */
export function operationForms(): OperationForm[] {
	return resources.flatMap((resource) =>
		operationsOf(resource.value).map((operation) => ({
			resource: resource.value,
			operation: operation.operation,
			properties: operationProperties(operation),
		})),
	);
}

/** The node's properties; `share` turns the operations' forms into scoped properties. */
export function buildProperties(
	share: (forms: OperationForm[]) => INodeProperties[] = shareProperties,
): INodeProperties[] {
	const properties: INodeProperties[] = [resourceProperty];
	for (const resource of resources) {
		properties.push(operationProperty(resource.value, operationsOf(resource.value)));
	}
	properties.push(...share(operationForms()), executionOptionsProperty);
	return properties;
}
