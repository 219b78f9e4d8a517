import type { IExecuteFunctions, INode, NodeParameterValueType } from 'n8n-workflow';

interface ExecutionParameters {
	node: INode;
	/** Values of the parameters that hold no expression, by name: the same for every item. */
	constants: Map<string, unknown>;
}

const executions = new WeakMap<IExecuteFunctions, ExecutionParameters>();

function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (typeof value === 'object' && value !== null)
		return Object.values(value).some(holdsExpression);
	return false;
}

function executionOf(context: IExecuteFunctions): ExecutionParameters {
	let execution = executions.get(context);
	if (!execution) {
		execution = { node: context.getNode(), constants: new Map() };
		executions.set(context, execution);
	}
	return execution;
}

/** The node as this execution runs it, read once (n8n copies it on every getNode()). */
export function nodeOf(context: IExecuteFunctions): INode {
	return executionOf(context).node;
}

/**
 * The item's value of a parameter, as getNodeParameter gives it. A parameter without an expression
 * has the same value for every item, so it is read (copied, checked against its type) once per
 * execution; callers do not change the value they get.
 */
export function itemParameter(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: unknown,
): unknown {
	const { node, constants } = executionOf(this);
	if (constants.has(name)) return constants.get(name);
	const value = this.getNodeParameter(name, itemIndex, fallback as NodeParameterValueType);
	if (!holdsExpression(node.parameters[name])) constants.set(name, value);
	return value;
}
