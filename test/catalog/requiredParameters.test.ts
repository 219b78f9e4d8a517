/**
 * The catalog's required parameters against the API's, as the devnet's copy of the table records
 * them (devnet/api/parameters.tsv), for every endpoint, writes included, variant by variant: a chain
 * family's variant (EVM, Solana, ...) against what the catalog requires on that family's chains. Rules: requiredMismatches.ts.
 */
import { endpoints, variantsOf } from '../../devnet/api';
import { operations } from '../../nodes/shared/catalog';
import type { OperationSpec } from '../../nodes/shared/catalog/types';
import { requiredMismatches } from './requiredMismatches';

function operationOf(resource: string, name: string): OperationSpec {
	const operation = operations.find(
		(entry) => entry.resource === resource && entry.operation === name,
	);
	if (!operation) throw new Error(`${resource}/${name} is not in the catalog`);
	return operation;
}

test('the table has parameter rows for every endpoint it lists', () => {
	expect(
		endpoints
			.filter((endpoint) => variantsOf(endpoint.path).length === 0)
			.map((endpoint) => endpoint.path),
	).toEqual([]);
});

test('every write endpoint requires in the catalog what the API requires, and nothing the API never requires', () => {
	const writes = endpoints.filter((endpoint) => endpoint.kind === 'write');
	expect(
		writes.flatMap((endpoint) =>
			requiredMismatches(endpoint, operationOf(endpoint.resource, endpoint.operation)),
		),
	).toEqual([]);
});

test('so does every read endpoint', () => {
	const reads = endpoints.filter((endpoint) => endpoint.kind === 'read');
	expect(
		reads.flatMap((endpoint) =>
			requiredMismatches(endpoint, operationOf(endpoint.resource, endpoint.operation)),
		),
	).toEqual([]);
});

describe('the comparison fails for the right reason', () => {
	const transferEndpoint = endpoints.find(
		(endpoint) => endpoint.path === '/fungibletoken/transfer',
	);
	const transfer = operationOf('fungibletoken', 'transfer');
	const withParameter = (
		operation: OperationSpec,
		name: string,
		change: Record<string, unknown> | undefined,
	): OperationSpec => ({
		...operation,
		parameters: operation.parameters.flatMap((parameter) =>
			parameter.name !== name ? [parameter] : change ? [{ ...parameter, ...change }] : [],
		),
	});

	test('gas left optional on Fungible Token → Transfer (the devnet serves its EVM variant, which requires it)', () => {
		if (!transferEndpoint) throw new Error('no transfer endpoint');
		expect(
			requiredMismatches(transferEndpoint, withParameter(transfer, 'gas', { required: false })),
		).toEqual([
			expect.stringMatching(
				/^fungibletoken\/transfer: the variant the devnet serves requires "gas" \(EVM /,
			),
		]);
	});

	test('a parameter some variant requires that the catalog does not offer, and a requirement the API never makes', () => {
		if (!transferEndpoint) throw new Error('no transfer endpoint');
		const changed = withParameter(withParameter(transfer, 'feePayer', undefined), 'gasPriority', {
			required: true,
		});
		expect(requiredMismatches(transferEndpoint, changed)).toEqual([
			expect.stringMatching(
				/^fungibletoken\/transfer: the API requires "feePayer" in Solana .*; the catalog does not offer it$/,
			),
			'fungibletoken/transfer: the catalog requires "gasPriority" on EVM chains; no documented EVM variant of the API does',
		]);
	});

	test('a Solana field left optional on Transfer (the Solana variant requires it), and gas required on Solana chains instead of EVM ones', () => {
		if (!transferEndpoint) throw new Error('no transfer endpoint');
		expect(
			requiredMismatches(
				transferEndpoint,
				withParameter(transfer, 'feePayer', { required: false }),
			),
		).toEqual([
			expect.stringMatching(
				/^fungibletoken\/transfer: the API requires "feePayer" \(Solana .*\); the catalog leaves it optional on Solana chains$/,
			),
		]);
		// The EVM requirement still holds when the Solana one is dropped: gas stays required on EVM.
		expect(
			requiredMismatches(
				transferEndpoint,
				withParameter(transfer, 'gas', { protocols: ['Solana'] }),
			),
		).toEqual([
			expect.stringMatching(
				/^fungibletoken\/transfer: the variant the devnet serves requires "gas" \(EVM .*\); the catalog leaves it optional on EVM chains$/,
			),
			'fungibletoken/transfer: the catalog requires "gas" on Solana chains; no documented Solana variant of the API does',
		]);
	});

	test('an endpoint whose parameters no source documents gives no mismatch, whatever the catalog says', () => {
		const undocumented = endpoints.filter((endpoint) =>
			variantsOf(endpoint.path).every((variant) => variant.required === undefined),
		);
		expect(undocumented.length).toBeGreaterThan(0);
		for (const endpoint of undocumented) {
			const operation = operationOf(endpoint.resource, endpoint.operation);
			const demanding = {
				...operation,
				parameters: [
					{
						name: 'invented',
						type: 'text' as const,
						required: true,
						description: 'not in the API',
					},
				],
			};
			expect(requiredMismatches(endpoint, demanding)).toEqual([]);
		}
	});
});
