import type { INodeProperties } from 'n8n-workflow';

import { accountProperties, type SignerOperation } from './common';
import * as deployContract from './deployContract.operation';
import * as getAddress from './getAddress.operation';
import * as signMessage from './signMessage.operation';
import * as signTransaction from './signTransaction.operation';
import * as signTypedData from './signTypedData.operation';

/** The Signer's operations: the Operation list, the form and the router's dispatch all come from here. */
export const operations: SignerOperation[] = [getAddress, signMessage, signTransaction, deployContract, signTypedData];

export const operationsByName = new Map(operations.map((operation) => [String(operation.option.value), operation]));

export const operationProperty: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options: operations.map((operation) => operation.option),
	default: 'signTransaction',
};

/** The node's form: the operation, its fields, then the account that signs. */
export const properties: INodeProperties[] = [operationProperty, ...operations.flatMap((operation) => operation.description), ...accountProperties];

/** Operations whose items call the API, for the API credential's display rule. */
export const apiOperations = operations.filter((operation) => operation.usesApi).map((operation) => String(operation.option.value));
