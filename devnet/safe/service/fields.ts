import { getAddress, isHexString } from 'ethers';

/**
 * A key as the service's renderer (djangorestframework-camel-case) writes it: `has_confirmations` →
 * `hasConfirmations`, and a filter's `nonce__gte` → `nonce_Gte`.
 */
export function camelize(key: string): string {
	return key.replace(/[a-z0-9]?_[a-z0-9]/g, (group) =>
		group.length === 3 ? group[0] + group[2].toUpperCase() : group[1].toUpperCase(),
	);
}

/**
 * Request fields checked as the Safe Transaction Service's serializers check them (Django REST
 * framework fields and safe-eth-py's EthereumAddressField / HexadecimalField), with their messages.
 * Errors collect per field, keyed by the camelCase name the service's JSON uses.
 */
export class FieldErrors {
	readonly errors: Record<string, string[]> = {};

	add(field: string, message: string): undefined {
		(this.errors[camelize(field)] ??= []).push(message);
		return undefined;
	}

	get any(): boolean {
		return Object.keys(this.errors).length > 0;
	}
}

/** A failed check outside one field (DRF's non_field_errors, camelCased by the service's renderer). */
export class ServiceValidationError extends Error {
	constructor(message: string) {
		super(message);
	}

	get body(): Record<string, string[]> {
		return { nonFieldErrors: [this.message] };
	}
}

export type Body = Record<string, unknown>;

interface FieldOptions {
	required?: boolean;
	allowNull?: boolean;
}

function present(
	body: Body,
	field: string,
	errors: FieldErrors,
	{ required = true, allowNull = false }: FieldOptions,
): boolean {
	const value = body[field];
	if (value === undefined) {
		if (required) errors.add(field, 'This field is required.');
		return false;
	}
	if (value === null) {
		if (!allowNull) errors.add(field, 'This field may not be null.');
		return false;
	}
	return true;
}

export function isChecksumAddress(value: unknown): value is string {
	if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) return false;
	return getAddress(value) === value;
}

/** safe-eth-py's EthereumAddressField: EIP-55 checksummed, 0x0 and 0x1 refused unless allowed. */
export function addressField(
	body: Body,
	field: string,
	errors: FieldErrors,
	options: FieldOptions & { allowZero?: boolean; allowSentinel?: boolean } = {},
): string | undefined {
	if (!present(body, field, errors, options)) return undefined;
	const value = body[field];
	if (!isChecksumAddress(value))
		return errors.add(field, `Address ${String(value)} is not checksumed`);
	if (BigInt(value) === 0n && !options.allowZero)
		return errors.add(field, '0x0 address is not allowed');
	if (BigInt(value) === 1n && !options.allowSentinel)
		return errors.add(field, '0x1 address is not allowed');
	return value;
}

/** DRF's IntegerField with min_value 0: integers or their decimal strings. */
export function uintField(
	body: Body,
	field: string,
	errors: FieldErrors,
	options: FieldOptions = {},
): bigint | undefined {
	if (!present(body, field, errors, options)) return undefined;
	const value = body[field];
	const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
	if (typeof text !== 'string' || !/^\s*-?\d+\s*$/.test(text))
		return errors.add(field, 'A valid integer is required.');
	const number = BigInt(text.trim());
	if (number < 0n) return errors.add(field, 'Ensure this value is greater than or equal to 0.');
	return number;
}

/** safe-eth-py's HexadecimalField: 0x-prefixed or bare hex; `allowBlank` turns empty into undefined. */
export function hexField(
	body: Body,
	field: string,
	errors: FieldErrors,
	options: FieldOptions & { allowBlank?: boolean; minLength?: number; maxLength?: number } = {},
): string | undefined {
	if (!present(body, field, errors, options)) return undefined;
	const value = body[field];
	if (typeof value !== 'string')
		return errors.add(field, `${String(value)} is not a hexadecimal value.`);
	const bare = value.trim().replace(/^0x/, '');
	if (bare === '')
		return options.allowBlank ? undefined : errors.add(field, 'This field may not be blank.');
	const hex = `0x${bare.length % 2 ? '0' : ''}${bare}`.toLowerCase();
	if (!isHexString(hex)) return errors.add(field, `${value} is not a hexadecimal value.`);
	const length = (hex.length - 2) / 2;
	if (options.minLength && length < options.minLength)
		return errors.add(
			field,
			`Ensure this field has at least ${options.minLength} hexadecimal chars (not counting 0x).`,
		);
	if (options.maxLength && length > options.maxLength)
		return errors.add(
			field,
			`Ensure this field has no more than ${options.maxLength} hexadecimal chars (not counting 0x).`,
		);
	return hex;
}

export function stringField(
	body: Body,
	field: string,
	errors: FieldErrors,
	options: FieldOptions & { maxLength: number },
): string | undefined {
	if (!present(body, field, errors, options)) return undefined;
	const value = body[field];
	if (typeof value !== 'string') return errors.add(field, 'Not a valid string.');
	if (value.length > options.maxLength)
		return errors.add(field, `Ensure this field has no more than ${options.maxLength} characters.`);
	return value;
}

/** Python's repr of a list of addresses, as the service's messages print owners: ['0xA', '0xB']. */
export function pythonList(items: string[]): string {
	return `[${items.map((item) => `'${item}'`).join(', ')}]`;
}

/** Python's repr of a set of addresses, as the service's messages print delegates: {'0xA'} or set(). */
export function pythonSet(items: Iterable<string>): string {
	const list = [...items];
	return list.length ? `{${list.map((item) => `'${item}'`).join(', ')}}` : 'set()';
}
