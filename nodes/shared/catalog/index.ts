import { aaOperations } from './operations/aa';
import { bridgeOperations } from './operations/bridge';
import { chainOperations } from './operations/chain';
import { derivativeOperations } from './operations/derivative';
import { dexOperations } from './operations/dex';
import { fungibletokenOperations } from './operations/fungibletoken';
import { lendborrowOperations } from './operations/lendborrow';
import { liquidstakingOperations } from './operations/liquidstaking';
import { nftOperations } from './operations/nft';
import { oracleOperations } from './operations/oracle';
import { rwaOperations } from './operations/rwa';
import { stablecoinOperations } from './operations/stablecoin';
import { syntheticOperations } from './operations/synthetic';
import { wethOperations } from './operations/weth';
import { yieldaggregatorOperations } from './operations/yieldaggregator';
import { usageOperations } from './operations/usage';
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

const byKey = new Map(
	operations.map((operation) => [`${operation.resource}:${operation.operation}`, operation]),
);

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
