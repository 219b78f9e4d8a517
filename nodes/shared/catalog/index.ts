import { aaOperations } from './families/aa';
import { bridgeOperations } from './families/bridge';
import { chainOperations } from './families/chain';
import { derivativeOperations } from './families/derivative';
import { dexOperations } from './families/dex';
import { fungibletokenOperations } from './families/fungibletoken';
import { lendborrowOperations } from './families/lendborrow';
import { liquidstakingOperations } from './families/liquidstaking';
import { nftOperations } from './families/nft';
import { oracleOperations } from './families/oracle';
import { rwaOperations } from './families/rwa';
import { stablecoinOperations } from './families/stablecoin';
import { syntheticOperations } from './families/synthetic';
import { wethOperations } from './families/weth';
import { yieldaggregatorOperations } from './families/yieldaggregator';
import { usageOperations } from './families/usage';
import { resources as allResources } from './resources';
import type { OperationSpec, ParameterSpec } from './types';

export const operations: OperationSpec[] = [
	...aaOperations,
	...bridgeOperations,
	...chainOperations,
	...derivativeOperations,
	...dexOperations,
	...fungibletokenOperations,
	...lendborrowOperations,
	...liquidstakingOperations,
	...nftOperations,
	...oracleOperations,
	...rwaOperations,
	...stablecoinOperations,
	...syntheticOperations,
	...wethOperations,
	...yieldaggregatorOperations,
	...usageOperations,
];

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

/**
 * An optional parameter a person must think about (its role is who, what or how much): from node
 * version 2 on, the form shows it at the top beside the required ones, not in Additional Fields.
 * One that only some of the operation's protocols accept stays in Additional Fields, where its
 * description names them; a read still echoes it and an amount still counts in it.
 */
export function isPromoted(parameter: ParameterSpec): boolean {
	return !parameter.required && parameter.role !== undefined && !parameter.protocols?.length;
}
