/**
 * Every operation of the catalog through a real workflow against the recording server: the
 * method, host and path of the spec, every parameter in its place (query for GET, JSON body for
 * POST), lists comma-joined in queries and JSON arrays in bodies, protocol IDs sent as chosen.
 */
import type { INodeParameters } from 'n8n-workflow';

import { operations, returnsUnsignedTransaction } from '../../nodes/shared/catalog';
import { familiesOf } from '../../nodes/shared/catalog/families';
import { protocols } from '../../nodes/shared/catalog/protocols';
import type { OperationSpec } from '../../nodes/shared/catalog/types';
import { runExpand } from '../helpers/n8n';
import { envelope, type RecordingServer, startRecordingServer } from '../helpers/recordingServer';
import { sample } from '../helpers/sampleValue';
import { loadSpecEndpoints } from '../helpers/spec';

const API_KEY = 'all-ops-key';
const spec = new Map(loadSpecEndpoints().map((row) => [`${row.resource}/${row.operation}`, row]));

interface Case {
	key: string;
	operation: OperationSpec;
	parameters: INodeParameters;
	expected: Record<string, unknown>;
}

function caseFor(operation: OperationSpec): Case {
	const parameters: INodeParameters = {
		resource: operation.resource,
		operation: operation.operation,
	};
	const expected: Record<string, unknown> = {};
	const place = (name: string, value: { query: string; body: unknown }) => {
		expected[name] = operation.method === 'GET' ? value.query : value.body;
	};
	if (operation.chain) {
		// Parameters of other chain families are hidden on a listed chain, and n8n drops hidden values;
		// Chain set by expression hides none, so every parameter of the operation is on the form.
		const familyBound = operation.parameters.some((parameter) => familiesOf(parameter).length > 0);
		parameters.chainId = familyBound ? '={{ "137" }}' : '137';
		place('chainId', { query: '137', body: '137' });
	}
	if (operation.protocol) {
		const options = protocols[operation.protocol].options;
		const chosen = options[options.length - 1]?.value ?? '9999';
		parameters[operation.protocol] = chosen;
		place(operation.protocol, { query: chosen, body: chosen });
	}
	const additionalFields: Record<string, unknown> = {};
	for (const parameter of operation.parameters) {
		// Every required parameter, and every optional list or switch, to see its encoding.
		if (!parameter.required && !['array', 'boolean'].includes(parameter.type)) continue;
		const value = sample(parameter);
		if (parameter.required) parameters[parameter.name] = value.form as string;
		else additionalFields[parameter.name] = value.form;
		place(parameter.name, value);
	}
	if (Object.keys(additionalFields).length)
		parameters.additionalFields = additionalFields as INodeParameters;
	if (operation.rules?.includes('blockRange')) {
		parameters.additionalFields = { ...(parameters.additionalFields as object), blockNumber: '12' };
		place('blockNumber', { query: '12', body: '12' });
	}
	if (operation.undocumented) {
		parameters.extraParameters = { parameter: [{ name: 'extraName', value: 'extraValue' }] };
		place('extraName', { query: 'extraValue', body: 'extraValue' });
	}
	return { key: `${operation.resource}/${operation.operation}`, operation, parameters, expected };
}

const cases = operations.filter((operation) => operation.resource !== 'usage').map(caseFor);

let server: RecordingServer;
beforeAll(async () => {
	server = await startRecordingServer();
	server.respondWith(() => envelope({ ok: true, nextPageToken: '', totalPages: 1, items: [] }));
});
afterAll(async () => {
	await server.close();
});

test('every spec endpoint has a case', () => {
	expect(cases.map((entry) => entry.key).sort()).toEqual([...spec.keys()].sort());
});

test.each(cases.map((entry) => [entry.key, entry] as const))(
	'%s',
	async (_key, { key, operation, parameters, expected }) => {
		server.requests.length = 0;
		if (operation.pagination) {
			server.respondWith(() =>
				envelope({
					[operation.pagination?.itemsField as string]: [{ n: 1 }],
					nextPageToken: '',
					totalPages: 1,
				}),
			);
		} else {
			server.respondWith(() => envelope({ ok: true }));
		}
		const result = await runExpand(parameters, {
			credentials: {
				apiKey: API_KEY,
				baseUrl: server.baseUrl,
				historicalUrl: server.historicalUrl,
			},
		});
		expect(result.error).toBeUndefined();
		const row = spec.get(key);
		expect(server.requests).toHaveLength(1);
		const [request] = server.requests;
		expect({ method: request.method, host: request.host, path: request.path }).toEqual({
			method: row?.method,
			host: row?.host,
			path: row?.path,
		});
		expect(request.headers['x-api-key']).toBe(API_KEY);
		if (operation.method === 'GET') {
			expect(request.query).toEqual(expected);
		} else {
			expect(request.body).toEqual(expected);
		}
		// The server's data as records: the page's items for a paged list, else the object itself; a
		// write's unsigned transaction with what the form asked beside it.
		expect(result.output('Expand').map((item) => item.json)).toEqual(
			operation.pagination
				? [{ n: 1 }]
				: returnsUnsignedTransaction(operation)
					? [
							{
								ok: true,
								intent: expect.objectContaining({
									operation: key,
									effect: operation.effect ?? 'call',
								}),
							},
						]
					: [{ ok: true }],
		);
	},
);
