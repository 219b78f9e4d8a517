/** The catalog against the spec's endpoint list: nothing missing, nothing different, nothing invented. */
import { operations } from '../../nodes/shared/catalog';
import { loadSpecEndpoints } from '../helpers/spec';

const spec = loadSpecEndpoints();
const catalogByKey = new Map(
	operations.map((operation) => [`${operation.resource}/${operation.operation}`, operation]),
);

test("the repository's copy of the spec lists each endpoint once, with a method, a host and a kind", () => {
	const keys = spec.map((row) => `${row.resource}/${row.operation}`);
	expect(spec.length).toBeGreaterThan(0);
	expect(new Set(keys).size).toBe(spec.length);
	expect(new Set(spec.map((row) => row.path)).size).toBe(spec.length);
	for (const row of spec) {
		expect(['GET', 'POST']).toContain(row.method);
		expect(['base', 'historical']).toContain(row.host);
		expect(['read', 'write']).toContain(row.kind);
	}
});

test('the catalog has as many operations as the spec has endpoints, plus the usage report', () => {
	expect(operations).toHaveLength(spec.length + 1);
});

test.each(spec.map((row) => [`${row.resource}/${row.operation}`, row] as const))(
	'%s is in the catalog as the spec lists it',
	(key, row) => {
		const operation = catalogByKey.get(key);
		expect(operation && `${operation.resource}/${operation.operation}`).toBe(key);
		expect({
			method: operation?.method,
			path: operation?.path,
			host: operation?.host,
			computeUnits: operation?.computeUnits,
			kind: operation?.kind,
		}).toEqual({
			method: row.method,
			path: row.path,
			host: row.host,
			computeUnits: row.computeUnits,
			kind: row.kind,
		});
	},
);

test('the catalog has no endpoint the spec does not list, besides the usage report', () => {
	const specKeys = new Set(spec.map((row) => `${row.resource}/${row.operation}`));
	const extra = [...catalogByKey.keys()].filter((key) => !specKeys.has(key));
	expect(extra).toEqual(['usage/usage-details']);
});

test('every operation has a name, a description and described parameters with unique names', () => {
	for (const operation of operations) {
		expect(operation.name).toMatch(/^[A-Z0-9]/);
		expect(operation.description.length).toBeGreaterThan(10);
		const names = operation.parameters.map((parameter) => parameter.name);
		expect(new Set(names).size).toBe(names.length);
		for (const parameter of operation.parameters) {
			expect(parameter.description.length).toBeGreaterThan(3);
			if (parameter.pattern) expect(() => new RegExp(parameter.pattern as string)).not.toThrow();
			if (parameter.options && parameter.default !== undefined)
				expect(parameter.options).toContain(parameter.default);
		}
	}
});
