/** Every amount on the catalog says what it counts: a token or native unit (whole units in version 2), or the smallest unit. */
import { operations } from '../../nodes/shared/catalog';

const AMOUNT_NAME = /amount|value|debtToCover|liquidity/i;

const amounts = operations.flatMap((operation) =>
	operation.parameters
		.filter((parameter) => AMOUNT_NAME.test(parameter.name))
		.map(
			(parameter) =>
				[
					`${operation.resource}/${operation.operation} ${parameter.name}`,
					operation,
					parameter,
				] as const,
		),
);

test('the catalog has amounts in whole units in every resource that names their token', () => {
	const families = new Set(
		amounts.filter(([, , parameter]) => parameter.unit).map(([, operation]) => operation.resource),
	);
	expect([...families].sort()).toEqual([
		'chain',
		'dex',
		'fungibletoken',
		'lendborrow',
		'liquidstaking',
		'yieldaggregator',
	]);
});

test.each(amounts)(
	'%s: counted in a named token or the native asset, or typed in the smallest unit',
	(_name, operation, parameter) => {
		if (parameter.unit === 'token') {
			const token = operation.parameters.find((other) => other.name === parameter.tokenParam);
			expect(token).toBeDefined();
			// A list names its token by its first or last entry.
			if (parameter.tokenEntry) expect(token?.type).toBe('array');
		} else if (parameter.unit !== 'native') {
			expect(parameter.description).toMatch(/smallest unit|whole number/);
		}
	},
);
