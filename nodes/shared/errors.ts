import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

export type NodeError = NodeApiError | NodeOperationError;

const NODE_ERROR_NAMES = ['NodeApiError', 'NodeOperationError'];

/** n8n's own errors; recognised by name too, as n8n may load its own copy of the classes. */
export function isNodeError(error: unknown): error is NodeError {
	return (
		error instanceof NodeApiError ||
		error instanceof NodeOperationError ||
		NODE_ERROR_NAMES.includes((error as Error | undefined)?.name ?? '')
	);
}

/** A message that names its item, as every error of an item ends. */
export function withItem(message: string, itemIndex: number): string {
	return `${message} (item ${itemIndex})`;
}

/** The error for bad input: the message names the parameter or field, and the item. */
export function itemError(node: INode, itemIndex: number, message: string): NodeOperationError {
	return new NodeOperationError(node, withItem(message, itemIndex), { itemIndex });
}

/**
 * Any failure as an n8n error of the item. n8n's own errors pass through; others are wrapped,
 * or replaced by `replacement(error)` where their text must not be shown (a signing library's).
 */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
	replacement?: (error: unknown) => string,
): NodeError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	const options = itemIndex === undefined ? {} : { itemIndex };
	if (isNodeError(error) || !replacement)
		return new NodeOperationError(node, error as Error, options);
	const suffix = itemIndex === undefined ? '' : ` (item ${itemIndex})`;
	return new NodeOperationError(node, `${replacement(error)}${suffix}`, options);
}

/** The output item of a failed input item under Continue On Fail: message, description, status, pairing. */
export function errorItem(error: NodeError, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	if ((error as NodeApiError).httpCode) json.httpCode = (error as NodeApiError).httpCode;
	return { json, pairedItem: { item: itemIndex } };
}
