/** Known approval typed data read as approvals (families/evm/typedData.ts), with the amounts a spender may take. */
import { typedDataMovements } from '../../../../packages/signer/nodes/ExpandSigner/families/evm/typedData';

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const OTHER = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const SPENDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const field = (name: string, type = 'uint256') => ({ name, type });
const permit2Domain = { name: 'Permit2', chainId: 1, verifyingContract: PERMIT2 };
const details = [
	field('token', 'address'),
	field('amount', 'uint160'),
	field('expiration', 'uint48'),
	field('nonce', 'uint48'),
];
const approval = (token: string, amount: bigint, via: string) => ({
	asset: token.toLowerCase(),
	contract: token.toLowerCase(),
	recipient: SPENDER.toLowerCase(),
	amount,
	via,
	action: 'approve',
});

test('a DAI permit with allowed: true lets the spender take everything; allowed: false approves nothing', () => {
	const types = {
		Permit: [
			field('holder', 'address'),
			field('spender', 'address'),
			field('nonce'),
			field('expiry'),
			field('allowed', 'bool'),
		],
	};
	const domain = { name: 'Dai Stablecoin', version: '1', chainId: 1, verifyingContract: TOKEN };
	const message = { holder: OTHER, spender: SPENDER, nonce: 0, expiry: 0 };
	expect(typedDataMovements(domain, types, 'Permit', { ...message, allowed: true })).toEqual([
		approval(TOKEN, 2n ** 256n - 1n, 'DAI permit'),
	]);
	expect(typedDataMovements(domain, types, 'Permit', { ...message, allowed: false })).toEqual([]);
});

test('Permit2 PermitSingle, PermitBatch, PermitTransferFrom and PermitBatchTransferFrom give each token and amount to the spender', () => {
	const single = {
		PermitSingle: [
			field('details', 'PermitDetails'),
			field('spender', 'address'),
			field('sigDeadline'),
		],
		PermitDetails: details,
	};
	expect(
		typedDataMovements(permit2Domain, single, 'PermitSingle', {
			details: { token: TOKEN, amount: '25', expiration: 0, nonce: 0 },
			spender: SPENDER,
			sigDeadline: 0,
		}),
	).toEqual([approval(TOKEN, 25n, 'Permit2 PermitSingle')]);
	const batch = {
		PermitBatch: [
			field('details', 'PermitDetails[]'),
			field('spender', 'address'),
			field('sigDeadline'),
		],
		PermitDetails: details,
	};
	expect(
		typedDataMovements(permit2Domain, batch, 'PermitBatch', {
			details: [
				{ token: TOKEN, amount: '1', expiration: 0, nonce: 0 },
				{ token: OTHER, amount: '2', expiration: 0, nonce: 0 },
			],
			spender: SPENDER,
			sigDeadline: 0,
		}),
	).toEqual([
		approval(TOKEN, 1n, 'Permit2 PermitBatch'),
		approval(OTHER, 2n, 'Permit2 PermitBatch'),
	]);
	const permissions = [field('token', 'address'), field('amount')];
	const transfer = {
		PermitTransferFrom: [
			field('permitted', 'TokenPermissions'),
			field('spender', 'address'),
			field('nonce'),
			field('deadline'),
		],
		TokenPermissions: permissions,
	};
	expect(
		typedDataMovements(permit2Domain, transfer, 'PermitTransferFrom', {
			permitted: { token: TOKEN, amount: '7' },
			spender: SPENDER,
			nonce: 0,
			deadline: 0,
		}),
	).toEqual([approval(TOKEN, 7n, 'Permit2 PermitTransferFrom')]);
	const batchTransfer = {
		PermitBatchTransferFrom: [
			field('permitted', 'TokenPermissions[]'),
			field('spender', 'address'),
			field('nonce'),
			field('deadline'),
		],
		TokenPermissions: permissions,
	};
	expect(
		typedDataMovements(permit2Domain, batchTransfer, 'PermitBatchTransferFrom', {
			permitted: [{ token: OTHER, amount: '9' }],
			spender: SPENDER,
			nonce: 0,
			deadline: 0,
		}),
	).toEqual([approval(OTHER, 9n, 'Permit2 PermitBatchTransferFrom')]);
});

test('typed data of no known kind, or a known kind with a malformed field, is not read as an approval', () => {
	const mail = { Mail: [field('contents', 'string')] };
	expect(typedDataMovements({ name: 'Mail' }, mail, 'Mail', { contents: 'hi' })).toBeUndefined();
	const permit = {
		Permit: [
			field('owner', 'address'),
			field('spender', 'address'),
			field('value'),
			field('nonce'),
			field('deadline'),
		],
	};
	expect(
		typedDataMovements({ verifyingContract: TOKEN }, permit, 'Permit', {
			owner: OTHER,
			spender: 'not an address',
			value: '1',
			nonce: 0,
			deadline: 0,
		}),
	).toBeUndefined();
	expect(
		typedDataMovements({ verifyingContract: TOKEN }, permit, 'Permit', {
			owner: OTHER,
			spender: SPENDER,
			value: '-1',
			nonce: 0,
			deadline: 0,
		}),
	).toBeUndefined();
	// A PermitSingle outside the Permit2 domain is some other contract's type: not read.
	const single = {
		PermitSingle: [
			field('details', 'PermitDetails'),
			field('spender', 'address'),
			field('sigDeadline'),
		],
		PermitDetails: details,
	};
	expect(
		typedDataMovements({ name: 'Lookalike' }, single, 'PermitSingle', {
			details: { token: TOKEN, amount: '1' },
			spender: SPENDER,
			sigDeadline: 0,
		}),
	).toBeUndefined();
});
