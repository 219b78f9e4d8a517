import type { INodeProperties } from 'n8n-workflow';

import { Expand } from '../../nodes/Expand/Expand.node';
import { buildProperties } from '../../nodes/Expand/descriptions';
import {
	type OperationForm,
	shareProperties,
} from '../../nodes/Expand/descriptions/shareProperties';
import { operations } from '../../nodes/shared/catalog';
import { visibleProperties } from '../helpers/visibleProperties';

/** The plain way: one copy of every property per operation, scoped to it alone. */
function oneCopyPerOperation(forms: OperationForm[]): INodeProperties[] {
	return forms.flatMap((form) =>
		form.properties.map((property) => ({
			...property,
			displayOptions: {
				...property.displayOptions,
				show: {
					...property.displayOptions?.show,
					resource: [form.resource],
					operation: [form.operation],
				},
			},
		})),
	);
}

/** Values that decide what a form shows: the operation, the chain's family, and the switches that open further fields. */
function formStates(resource: string, operation: string) {
	return [undefined, '1', '900', '1500'].flatMap((chainId) =>
		[false, true].flatMap((returnAll) =>
			[false, true].map((waitForConfirmation) => ({
				resource,
				operation,
				returnAll,
				waitForConfirmation,
				...(chainId ? { chainId } : {}),
			})),
		),
	);
}

describe('the Expand node description', () => {
	const shared = buildProperties();
	const plain = buildProperties(oneCopyPerOperation);

	test.each(
		operations.map((operation) => [`${operation.resource}/${operation.operation}`, operation]),
	)('%s shows exactly the fields of its own form, in its order', (_name, operation) => {
		for (const values of formStates(operation.resource, operation.operation)) {
			for (const version of [1, 2]) {
				expect(visibleProperties(shared, values, version)).toEqual(
					visibleProperties(plain, values, version),
				);
			}
		}
	});

	test('shares properties: fewer than one copy per operation, and under 165 KiB of JSON', () => {
		expect(shared.length).toBeLessThan(plain.length / 2);
		const bytes = Buffer.byteLength(JSON.stringify(new Expand().description));
		expect(bytes).toBeLessThan(165 * 1024);
	});
});

describe('the Safe path on the form', () => {
	const properties = buildProperties();
	const shown = (resource: string, operation: string, chainId: string) =>
		visibleProperties(properties, { resource, operation, chainId }, 2);

	test.each([
		['fungibletoken', 'transfer', 'from'],
		['dex', 'swap', 'from'],
		['chain', 'createfeetransaction', 'from'],
	])(
		'%s/%s: the send-step notice and the sender field name Propose to Safe beside the hot-key path',
		(resource, operation, sender) => {
			const form = shown(resource, operation, '1');
			const notice = form.find((property) => property.name === 'sendStepNotice');
			expect(notice?.displayName).toContain('Expand Signer (Sign Transaction)');
			expect(notice?.displayName).toContain(
				"From = a Safe: pass it to Expand Signer's Propose to Safe instead",
			);
			expect(form.find((property) => property.name === sender)?.description).toContain(
				"A Safe (EVM multisig) here: pass the output to Expand Signer's Propose to Safe",
			);
		},
	);

	test('a Solana-only sender field does not offer the Safe', () => {
		const owner = shown('fungibletoken', 'transfer', '900').find(
			(property) => property.name === 'sender',
		);
		expect(owner?.description).toBeDefined();
		expect(owner?.description).not.toContain('Safe');
	});
});

describe('sharing properties between operations', () => {
	const field = (name: string): INodeProperties => ({
		displayName: name,
		name,
		type: 'string',
		default: '',
	});
	const collection = (...options: INodeProperties[]): INodeProperties => ({
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		default: {},
		options,
	});

	function expectSameForms(forms: OperationForm[]): INodeProperties[] {
		const properties = shareProperties(forms);
		for (const form of forms) {
			const values = { resource: form.resource, operation: form.operation };
			expect(visibleProperties(properties, values)).toEqual(
				visibleProperties(oneCopyPerOperation(forms), values),
			);
		}
		return properties;
	}

	test('a property two resources show for different operations is not shown on their cross product', () => {
		// a/x and b/y show "p"; a/y and b/x exist and do not: one rule {a, b} × {x, y} would show it there.
		const properties = expectSameForms([
			{ resource: 'a', operation: 'x', properties: [field('p')] },
			{ resource: 'a', operation: 'y', properties: [field('q')] },
			{ resource: 'b', operation: 'x', properties: [field('q')] },
			{ resource: 'b', operation: 'y', properties: [field('p')] },
		]);
		expect(properties.filter((property) => property.name === 'p')).toHaveLength(2);
	});

	test('a property shown identically by operations of several resources is one copy', () => {
		const properties = expectSameForms([
			{ resource: 'a', operation: 'x', properties: [field('p'), field('q')] },
			{ resource: 'a', operation: 'y', properties: [field('p')] },
			{ resource: 'b', operation: 'z', properties: [field('p'), field('r')] },
		]);
		expect(properties.filter((property) => property.name === 'p')).toHaveLength(1);
	});

	test('two forms ordering shared fields differently each keep their order', () => {
		const properties = expectSameForms([
			{ resource: 'a', operation: 'x', properties: [field('p'), field('q')] },
			{ resource: 'b', operation: 'y', properties: [field('q'), field('p')] },
		]);
		expect(properties.length).toBe(3);
	});

	test('one collection whose options are each offered only where their operation offers them', () => {
		const properties = expectSameForms([
			{ resource: 'a', operation: 'x', properties: [collection(field('p'), field('q'))] },
			{ resource: 'a', operation: 'y', properties: [collection(field('p'))] },
			{ resource: 'b', operation: 'x', properties: [collection(field('r'))] },
			{ resource: 'b', operation: 'z', properties: [field('s')] },
		]);
		expect(properties.filter((property) => property.type === 'collection')).toHaveLength(1);
	});
});
