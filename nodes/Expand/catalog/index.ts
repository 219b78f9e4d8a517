import { chainOperations } from './families/chain';
import { dexOperations } from './families/dex';
import { usageOperations } from './families/usage';
import { resources as allResources } from './resources';
import type { OperationSpec } from './types';

export const operations: OperationSpec[] = [...chainOperations, ...dexOperations, ...usageOperations];

/** Resources that have at least one operation in the catalog. */
export const resources = allResources.filter((resource) =>
	operations.some((operation) => operation.resource === resource.value),
);

const byKey = new Map(operations.map((operation) => [`${operation.resource}:${operation.operation}`, operation]));

export function findOperation(resource: string, operation: string): OperationSpec | undefined {
	return byKey.get(`${resource}:${operation}`);
}

export function operationsOf(resource: string): OperationSpec[] {
	return operations.filter((operation) => operation.resource === resource);
}

export function returnsUnsignedTransaction(operation: OperationSpec): boolean {
	return operation.kind === 'write' && operation.unsignedTransaction !== false;
}

export type * from './types';
