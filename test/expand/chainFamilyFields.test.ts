/**
 * The form shows the fields of the chosen chain's family (catalog data: a parameter whose `protocols`
 * are chain families belongs to those chains), decided by n8n-workflow's own display rules; what it
 * hides, n8n drops before a run, so a field is never hidden on a chain that uses it, nor while Chain
 * holds an expression or an ID the list does not have. Runs go through n8n-core's engine against a
 * recording HTTP server on 127.0.0.1.
 */
import { type INodeParameters, type INodeProperties, NodeHelpers } from 'n8n-workflow';

import { Expand } from '../../nodes/Expand/Expand.node.js';
import { exactPattern } from '../../nodes/Expand/descriptions/exactPattern';
import { isPromoted, operations } from '../../nodes/shared/catalog';
import { chainFamilies, chains } from '../../nodes/shared/catalog/chains';
import type { OperationSpec, ParameterSpec } from '../../nodes/shared/catalog/types';
import { runExpand } from '../helpers/n8n';
import { envelope, type RecordingServer, startRecordingServer } from '../helpers/recordingServer';
import { visibleProperties } from '../helpers/visibleProperties';

const description = new Expand().description;
const properties = description.properties;

const EVM_TRANSFER = ['from', 'to', 'tokenAddress', 'gas'];
const SOLANA_TRANSFER = ['token', 'sender', 'destination', 'feePayer', 'decimals'];

/** Names of the top-level fields shown, and of the Additional Fields offered. */
function form(values: INodeParameters, version = 2): { fields: string[]; additional: string[] } {
	const shown = visibleProperties(properties, values, version);
	const collection = shown.find((property) => property.name === 'additionalFields');
	return {
		fields: shown.map((property) => property.name),
		additional: ((collection?.options ?? []) as INodeProperties[]).map((option) => option.name),
	};
}

const transfer = (chainId: string) => ({
	resource: 'fungibletoken',
	operation: 'transfer',
	chainId,
});

describe('Fungible Token → Transfer', () => {
	test('version 2: on an EVM chain the EVM fields are shown and the Solana fields are not', () => {
		for (const chainId of ['1', '8453', '31337']) {
			const { fields, additional } = form(transfer(chainId), 2);
			expect(fields).toEqual(expect.arrayContaining(EVM_TRANSFER));
			for (const name of SOLANA_TRANSFER) expect(fields).not.toContain(name);
			expect(additional).toContain('gasPriority');
		}
	});

	test('version 2: on a Solana chain the Solana fields are shown and the EVM fields are not', () => {
		for (const chainId of ['900', '901']) {
			const { fields, additional } = form(transfer(chainId), 2);
			expect(fields).toEqual(expect.arrayContaining(SOLANA_TRANSFER));
			for (const name of EVM_TRANSFER) expect(fields).not.toContain(name);
			expect(additional).not.toContain('gasPriority');
		}
	});

	test("version 1 shows both families' fields on every chain, as its first release did", () => {
		for (const chainId of ['1', '31337', '900', '901']) {
			const { fields, additional } = form(transfer(chainId), 1);
			expect(fields).toEqual(expect.arrayContaining([...EVM_TRANSFER, ...SOLANA_TRANSFER]));
			expect(additional).toContain('gasPriority');
		}
	});

	test('with an expression, or an ID the list does not hold, in Chain every field is shown', () => {
		for (const chainId of ['={{ $json.chain }}', '={{ "900" }}', '=900', '12345', '']) {
			const { fields, additional } = form(transfer(chainId));
			expect(fields).toEqual(expect.arrayContaining([...EVM_TRANSFER, ...SOLANA_TRANSFER]));
			expect(additional).toContain('gasPriority');
		}
	});

	test("n8n's getNodeParameters, as the engine runs it, keeps every value with an expression and drops the other family's on a listed chain", () => {
		const values = {
			...Object.fromEntries(
				[...EVM_TRANSFER, ...SOLANA_TRANSFER].map((name) => [name, `${name}-value`]),
			),
			additionalFields: { gasPriority: 'high' },
		};
		const resolve = (chainId: string) =>
			NodeHelpers.getNodeParameters(
				properties,
				{ ...transfer(chainId), ...values },
				true,
				false,
				{ typeVersion: 2 } as never,
				description,
			)!;

		const withExpression = resolve('={{ $json.chain }}');
		for (const name of [...EVM_TRANSFER, ...SOLANA_TRANSFER])
			expect(withExpression[name]).toBe(`${name}-value`);
		expect(withExpression.additionalFields).toEqual({ gasPriority: 'high' });

		const onSolana = resolve('901');
		for (const name of SOLANA_TRANSFER) expect(onSolana[name]).toBe(`${name}-value`);
		for (const name of EVM_TRANSFER) expect(onSolana).not.toHaveProperty(name);
		expect(onSolana.additionalFields).toEqual({});

		const onEvm = resolve('1');
		for (const name of EVM_TRANSFER) expect(onEvm[name]).toBe(`${name}-value`);
		for (const name of SOLANA_TRANSFER) expect(onEvm).not.toHaveProperty(name);

		const savedOnVersion1 = NodeHelpers.getNodeParameters(
			properties,
			{ ...transfer('1'), ...values },
			true,
			false,
			{ typeVersion: 1 } as never,
			description,
		)!;
		for (const name of [...EVM_TRANSFER, ...SOLANA_TRANSFER])
			expect(savedOnVersion1[name]).toBe(`${name}-value`);
	});
});

/** Where a parameter sits on the form of a version: at the top, or under Additional Fields. */
function isTopLevel(parameter: ParameterSpec, version: number): boolean {
	return parameter.required === true || (version >= 2 && isPromoted(parameter));
}

function isShown(
	parameter: ParameterSpec,
	shown: { fields: string[]; additional: string[] },
	version: number,
): boolean {
	return (isTopLevel(parameter, version) ? shown.fields : shown.additional).includes(
		parameter.name,
	);
}

const chainOperations = operations.filter((operation) => operation.chain);
const tagged = (operation: OperationSpec) =>
	operation.parameters.filter((parameter) => parameter.protocols?.length);

describe('every operation on every chain family', () => {
	const families = [...chainFamilies];

	test('the catalog ties parameters to chain families of several operations (the cases below are not empty)', () => {
		const bound = chainOperations.flatMap((operation) =>
			tagged(operation).filter((parameter) =>
				parameter.protocols!.every((tag) => chainFamilies.has(tag)),
			),
		);
		expect(new Set(bound.flatMap((parameter) => parameter.protocols)).size).toBeGreaterThanOrEqual(
			5,
		);
	});

	test.each(families)(
		'on %s chains every parameter the chain uses is shown, and from version 2 only parameters of other families are hidden',
		(family) => {
			for (const chain of chains.filter((candidate) => candidate.family === family)) {
				for (const operation of chainOperations) {
					for (const version of [1, 2]) {
						const shown = form(
							{
								resource: operation.resource,
								operation: operation.operation,
								chainId: chain.chainId,
							},
							version,
						);
						for (const parameter of operation.parameters) {
							const tags = parameter.protocols ?? [];
							const otherFamiliesOnly =
								version >= 2 &&
								tags.length > 0 &&
								tags.every((tag) => chainFamilies.has(tag) && tag !== family);
							const where = `${operation.resource}/${operation.operation} "${parameter.name}" on ${chain.name} (v${version})`;
							expect([where, isShown(parameter, shown, version)]).toEqual([
								where,
								!otherFamiliesOnly,
							]);
						}
					}
				}
			}
		},
	);

	test('with an expression in Chain every parameter of every operation is shown', () => {
		for (const operation of chainOperations) {
			for (const version of [1, 2]) {
				const shown = form(
					{
						resource: operation.resource,
						operation: operation.operation,
						chainId: '={{ $json.chainId }}',
					},
					version,
				);
				for (const parameter of operation.parameters) {
					expect([operation.operation, parameter.name, isShown(parameter, shown, version)]).toEqual(
						[operation.operation, parameter.name, true],
					);
				}
			}
		}
	});
});

describe('the chain ID pattern', () => {
	test('matches exactly the IDs it is made from: no prefix, extension, expression or other ID', () => {
		const ids = chains.filter((chain) => chain.family !== 'Solana').map((chain) => chain.chainId);
		const pattern = new RegExp(exactPattern(ids));
		for (const chain of chains)
			expect([chain.chainId, pattern.test(chain.chainId)]).toEqual([
				chain.chainId,
				ids.includes(chain.chainId),
			]);
		for (const other of [
			'',
			'900',
			'9',
			'11',
			'1111',
			'15',
			'5001',
			'10011',
			'=1',
			'={{ 1 }}',
			' 1',
			'1 ',
			'01',
		]) {
			expect([other, pattern.test(other)]).toEqual([other, false]);
		}
		expect(exactPattern(['900', '901', '1000', '1001', '1500', '1501'])).toBe(
			'^(90[01]|1[05]0[01])$',
		);
		expect(exactPattern(['a', 'ab', 'abc'])).toBe('^a(bc?)?$');
	});
});

describe('a run through the engine', () => {
	let server: RecordingServer;
	beforeAll(async () => {
		server = await startRecordingServer();
		server.respondWith(() => envelope({ ok: true }));
	});
	afterAll(async () => {
		await server.close();
	});
	const credentials = () => ({
		apiKey: 'family-key',
		baseUrl: server.baseUrl,
		historicalUrl: server.historicalUrl,
	});

	const solanaFields = {
		token: 'So11111111111111111111111111111111111111112',
		sender: '8ZtbZ7M2VeoR5Ap9BxCjwdTh9rkjRw5bkmUrD6cj8Vv7',
		destination: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
		feePayer: '8ZtbZ7M2VeoR5Ap9BxCjwdTh9rkjRw5bkmUrD6cj8Vv7',
		decimals: '9',
	};

	test('Chain set by an expression that resolves to Solana sends the Solana fields', async () => {
		server.requests.length = 0;
		const result = await runExpand(
			{
				...transfer('={{ $json.chain }}'),
				amount: '1500000',
				amountsIn: 'smallest',
				...solanaFields,
			},
			{ credentials: credentials(), items: [{ chain: '901' }, { chain: '900' }], typeVersion: 2 },
		);
		expect(result.error).toBeUndefined();
		expect(server.requests.map((request) => [request.method, request.path, request.body])).toEqual([
			['POST', '/fungibletoken/transfer', { chainId: '901', amount: '1500000', ...solanaFields }],
			['POST', '/fungibletoken/transfer', { chainId: '900', amount: '1500000', ...solanaFields }],
		]);
	});

	test('Chain Symbol naming a Solana chain while Chain is an EVM chain is refused before any request, naming the hidden fields', async () => {
		server.requests.length = 0;
		const result = await runExpand(
			{
				...transfer('1'),
				amount: '1500000',
				amountsIn: 'smallest',
				...solanaFields,
				additionalFields: { chainSymbol: 'SOL' },
			},
			{ credentials: credentials(), items: [{}, {}], continueOnFail: true, typeVersion: 2 },
		);
		const refusal =
			'Chain Symbol "SOL" selects Solana (chain 900), but Chain is Ethereum (1): the form hides the Solana fields ' +
			'"token", "sender", "destination", "feePayer", "decimals" on it and does not send them. Choose a Solana chain under Chain, or set Chain by expression';
		expect(result.output('Expand').map((item) => [item.json.error, item.pairedItem])).toEqual([
			[`${refusal} (item 0)`, { item: 0 }],
			[`${refusal} (item 1)`, { item: 1 }],
		]);
		expect(server.requests).toHaveLength(0);
	});

	test('version 1: Chain Symbol of another family than Chain is sent with every field, as the first release sent it', async () => {
		server.requests.length = 0;
		const result = await runExpand(
			{
				...transfer('1'),
				amount: '1500000',
				...solanaFields,
				additionalFields: { chainSymbol: 'SOL' },
			},
			{ credentials: credentials(), typeVersion: 1 },
		);
		expect(result.error).toBeUndefined();
		expect(server.requests.map((request) => request.body)).toEqual([
			{ chainSymbol: 'SOL', amount: '1500000', ...solanaFields },
		]);
	});

	test('Chain Symbol of the same family as Chain is sent as before', async () => {
		server.requests.length = 0;
		const result = await runExpand(
			{
				...transfer('901'),
				amount: '1500000',
				amountsIn: 'smallest',
				...solanaFields,
				additionalFields: { chainSymbol: 'SOL' },
			},
			{ credentials: credentials(), typeVersion: 2 },
		);
		expect(result.error).toBeUndefined();
		expect(server.requests.map((request) => request.body)).toEqual([
			{ chainSymbol: 'SOL', amount: '1500000', ...solanaFields },
		]);
	});
});
