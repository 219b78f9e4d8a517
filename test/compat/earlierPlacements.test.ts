/**
 * Fields an earlier release of a node version saved in Additional Fields and the form has since
 * moved to the top (descriptions/earlierPlacements.ts): saved in either place they send the same
 * request, and set in both places with different values the item is refused before any request.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { earlierAdditionalFields } from '../../nodes/Expand/descriptions/earlierPlacements';
import { findOperation } from '../../nodes/shared/catalog';
import type { OperationSpec } from '../../nodes/shared/catalog/types';
import { runExpand } from '../helpers/n8n';
import { envelope, useRecordingServer } from '../helpers/recordingServer';
import { sample } from '../helpers/sampleValue';

const server = useRecordingServer();

const cases = Object.entries(earlierAdditionalFields).flatMap(([version, operations]) =>
	Object.entries(operations).map(([key, names]) => {
		const [resource, name] = key.split('/');
		return [
			`version ${version} ${key}: ${names.join(', ')}`,
			Number(version),
			findOperation(resource, name)!,
			names,
		] as const;
	}),
);

/** The operation's form values: its required fields and `moved` at the top, or `moved` in Additional Fields. */
function formValues(
	operation: OperationSpec,
	moved: string[],
	place: 'top' | 'additionalFields',
): INodeParameters {
	// Chain by expression: no chain-family rule hides a field, whichever family it belongs to.
	const values: INodeParameters = {
		resource: operation.resource,
		operation: operation.operation,
		chainId: '={{ "137" }}',
	};
	const additionalFields: INodeParameters = {};
	for (const parameter of operation.parameters) {
		const value = sample(parameter).form as string;
		if (moved.includes(parameter.name) && place === 'additionalFields')
			additionalFields[parameter.name] = value;
		else if (moved.includes(parameter.name) || parameter.required) values[parameter.name] = value;
	}
	// Amounts as typed, so no token's decimals are looked up first.
	if (operation.parameters.some((parameter) => parameter.unit)) values.amountsIn = 'smallest';
	return { ...values, additionalFields };
}

function withoutExecution(json: IDataObject): IDataObject {
	const intent = json.intent as IDataObject | undefined;
	const formItem = intent?.formItem as IDataObject | undefined;
	if (!formItem) return json;
	return { ...json, intent: { ...intent, formItem: { ...formItem, executionId: '(this run)' } } };
}

async function run(values: INodeParameters, typeVersion: number) {
	const { current } = server;
	current.requests.length = 0;
	current.respondWith(() => envelope({ ok: true }));
	const result = await runExpand(values, {
		typeVersion,
		continueOnFail: true,
		credentials: { apiKey: 'k', baseUrl: current.baseUrl, historicalUrl: current.historicalUrl },
	});
	return {
		// Each run is its own execution, which the intent's form item names: the rest must be the same.
		output: result.output('Expand').map((item) => withoutExecution(item.json)),
		requests: current.requests.map(({ method, path, query, body }) => ({
			method,
			path,
			query,
			body,
		})),
	};
}

test('the table names real operations and parameters', () => {
	for (const [, , operation, names] of cases) {
		expect(
			names.filter((name) => !operation.parameters.some((parameter) => parameter.name === name)),
		).toEqual([]);
	}
});

test.each(cases)(
	'%s: saved in Additional Fields, sent as from the top',
	async (_name, version, operation, names) => {
		const top = await run(formValues(operation, names, 'top'), version);
		const additional = await run(formValues(operation, names, 'additionalFields'), version);
		expect(top.requests).toHaveLength(1);
		for (const name of names) {
			expect({
				name,
				sent: (operation.method === 'GET'
					? top.requests[0].query
					: (top.requests[0].body as Record<string, unknown>))[name],
			}).not.toEqual({ name, sent: undefined });
		}
		expect(additional).toEqual(top);
	},
);

test.each(cases)(
	'%s: two different values, one at the top and one in Additional Fields, are refused',
	async (_name, version, operation, names) => {
		const values = formValues(operation, names, 'top');
		const [name] = names;
		const other = (values[name] as string) === '1' ? '12' : '1';
		const result = await run({ ...values, additionalFields: { [name]: other } }, version);
		expect(result.requests).toEqual([]);
		expect(result.output[0].error).toContain(
			`The parameter "${name}" is set twice with different values`,
		);
		expect(result.output[0].error).toContain('(item 0)');
	},
);
