import type { OperationSpec, ParameterSpec } from '../types';
import { DIGITS } from './shared';

/*
 * Account abstraction, ERC-4337 (docs/reference/expand-api.md §2 aa). EVM chains; the server uses one EntryPoint
 * contract. The user-operation fields default to the values the server fills in.
 */

const sender: ParameterSpec = {
	name: 'sender',
	type: 'text',
	required: true,
	description: 'Address of the smart account',
	placeholder: '0x...',
	role: 'who',
};

const field = (name: string, defaultValue: string, description: string): ParameterSpec => ({
	name,
	type: 'text',
	default: defaultValue,
	description,
});

const userOperationFields: ParameterSpec[] = [
	{
		name: 'nonce',
		type: 'text',
		description: 'Nonce of the smart account; default read from the EntryPoint contract',
	},
	field('initCode', '0x', 'Code that deploys the smart account, for its first operation'),
	field('callData', '0x', 'Call the smart account makes, encoded'),
	field('callGasLimit', '260611', 'Gas for the call'),
	field('gasLimit', '362451', 'Gas limit of the operation'),
	field('verificationGasLimit', '362451', 'Gas for the verification step'),
	field('preVerificationGas', '53576', 'Gas paid to the bundler for pre-verification work'),
	field('maxFeePerGas', '29964445250', 'Maximum fee per gas, in wei'),
	field('maxPriorityFeePerGas', '100000000', 'Maximum priority fee per gas, in wei'),
	field('paymasterAndData', '0x', 'Paymaster address and its data'),
	field('signature', '0x', 'Signature of the operation'),
];

const userOperationRead = (
	operation: string,
	name: string,
	description: string,
	computeUnits: number,
	first: ParameterSpec[],
): OperationSpec => ({
	resource: 'aa',
	operation,
	name,
	description,
	method: 'GET',
	path: `/aa/${operation}`,
	host: 'base',
	computeUnits,
	kind: 'read',
	chain: true,
	availability: 'EVM chains',
	parameters: [...first, ...userOperationFields],
});

export const aaOperations: OperationSpec[] = [
	userOperationRead(
		'getpaymasterdata',
		'Get Paymaster Data',
		'Get the paymaster data of a user operation from a verifying paymaster contract',
		18,
		[
			{
				name: 'paymasterContractAddress',
				type: 'text',
				required: true,
				description: 'Address of the verifying paymaster contract',
				placeholder: '0x...',
			},
			sender,
			{
				name: 'mockValidUntil',
				type: 'text',
				required: true,
				default: '0x00000000deadbeef',
				description: 'Time until which the paymaster signature is valid, hex',
			},
			{
				name: 'mockValidAfter',
				type: 'text',
				required: true,
				default: '0x0',
				description: 'Time after which the paymaster signature is valid, hex',
			},
		],
	),
	userOperationRead(
		'getsignaturemessage',
		'Get Signature Message',
		'Get the hash of a user operation that the owner of the smart account signs',
		16,
		[sender],
	),
	userOperationRead(
		'getuserops',
		'Get User Ops',
		'Build a user operation from its fields, reading the nonce from the EntryPoint when not given',
		15,
		[sender],
	),
	{
		resource: 'aa',
		operation: 'senduserops',
		name: 'Send User Ops',
		description:
			'Build the unsigned transaction in which a bundler submits signed user operations to the EntryPoint',
		method: 'POST',
		path: '/aa/senduserops',
		host: 'base',
		computeUnits: 19,
		kind: 'write',
		chain: true,
		availability: 'EVM chains',
		parameters: [
			{
				name: 'userOps',
				type: 'json',
				required: true,
				description:
					'The signed user operations, a JSON array of objects as returned by Get User Ops',
			},
			{
				name: 'bundler',
				type: 'text',
				required: true,
				description:
					'Address of the bundler, which signs and sends the transaction and receives the fees',
				placeholder: '0x...',
			},
			{
				name: 'gas',
				type: 'text',
				required: true,
				description: 'Gas limit of the transaction',
				...DIGITS,
			},
		],
	},
];
