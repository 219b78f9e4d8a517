/** Renders docs/operations.md from the operation catalog, the one source of the node's operations. */
import { operations, resources, returnsUnsignedTransaction } from '../nodes/shared/catalog';
import { protocols } from '../nodes/shared/catalog/protocols';
import { requiredFamilies } from '../nodes/shared/catalog/requirement';
import type { OperationSpec, ParameterSpec } from '../nodes/shared/catalog/types';

function cell(text: string): string {
	return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** `yes`, `no`, or the chain families it is required on ("on EVM"). */
function requiredCell(parameter: ParameterSpec): string {
	if (!parameter.required) return 'no';
	const families = requiredFamilies(parameter);
	return families.length ? `on ${families.join(', ')}` : 'yes';
}

function parameterRow(parameter: ParameterSpec, where: string): string {
	const notes = [
		parameter.default !== undefined ? `default \`${String(parameter.default)}\`` : '',
		parameter.options
			? `one of ${parameter.options.map((option) => `\`${option}\``).join(', ')}`
			: '',
		parameter.patternHint ? parameter.patternHint : '',
		parameter.protocols?.length ? `used by ${parameter.protocols.join(', ')}` : '',
	].filter(Boolean);
	return `| \`${parameter.name}\` | ${parameter.type} | ${requiredCell(parameter)} | ${where} | ${cell(
		[parameter.description, ...notes].join('; '),
	)} |`;
}

function operationSection(operation: OperationSpec): string[] {
	const where = operation.method === 'GET' ? 'query' : 'body';
	const lines = [
		`### ${operation.resource} / ${operation.operation}`,
		'',
		`${operation.name}: ${operation.description}${operation.availability ? ` (${operation.availability})` : ''}.`,
		'',
		`- Request: \`${operation.method} {${operation.host === 'historical' ? 'historicalUrl' : 'baseUrl'}}${operation.path}\``,
		`- Compute units: ${operation.computeUnits ?? 'not listed in the spec'}`,
		`- Kind: ${operation.kind}${returnsUnsignedTransaction(operation) ? ': returns an unsigned transaction; sign it with Expand Signer, then send it with chain / sendtransaction' : ''}`,
	];
	if (operation.pagination)
		lines.push(`- Paged: Return All follows \`${operation.pagination.requestParam}\``);
	if (operation.amounts?.length)
		lines.push(
			`- Add Formatted Amounts: ${operation.amounts.map((amount) => `\`${amount.field}\``).join(', ')}`,
		);
	if (operation.undocumented) {
		lines.push(
			'- Parameters not documented in public sources: the form offers Extra Parameters' +
				(operation.method === 'POST' ? ' and a Raw JSON Body' : ''),
		);
	}
	const parameters: ParameterSpec[] = [
		...(operation.chain
			? ([
					{
						name: 'chainId',
						type: 'text',
						description: 'Chain ID (list of known chains, or any ID)',
						default: '1',
					},
					{ name: 'chainSymbol', type: 'text', description: 'Chain symbol instead of chainId' },
					{ name: 'rpc', type: 'text', description: 'JSON-RPC URL the API should use' },
				] as ParameterSpec[])
			: []),
		...(operation.protocol
			? [
					{
						name: operation.protocol,
						type: 'text',
						description: `${protocols[operation.protocol].displayName} ID`,
						default: protocols[operation.protocol].default,
					} as ParameterSpec,
				]
			: []),
		...operation.parameters,
	];
	if (parameters.length) {
		lines.push('', '| Parameter | Type | Required | In | Notes |', '|---|---|---|---|---|');
		lines.push(
			...parameters.map((parameter) =>
				parameterRow(
					parameter,
					operation.path.includes('{apiKey}') && parameter.name === 'apiKey' ? 'path' : where,
				),
			),
		);
	}
	lines.push('');
	return lines;
}

export function renderOperationsDoc(): string {
	const lines = [
		'# Expand node: operations',
		'',
		'Generated from the operation catalog (`nodes/shared/catalog/`) by `npm run docs`; a test fails when this file is stale.',
		'',
		`${operations.length} operations in ${resources.length} resources. GET operations send query parameters (lists comma-separated), POST operations a JSON body (lists as JSON arrays). Every request carries the API key in the \`x-api-key\` header.`,
		'',
		'| Resource | Operations |',
		'|---|---|',
		...resources.map(
			(resource) =>
				`| ${resource.name} (\`${resource.value}\`) | ${operations
					.filter((operation) => operation.resource === resource.value)
					.map((operation) => `\`${operation.operation}\``)
					.join(', ')} |`,
		),
		'',
	];
	for (const resource of resources) {
		lines.push(`## ${resource.name} (\`${resource.value}\`)`, '', resource.description + '.', '');
		for (const operation of operations.filter((entry) => entry.resource === resource.value)) {
			lines.push(...operationSection(operation));
		}
	}
	return lines.join('\n');
}
