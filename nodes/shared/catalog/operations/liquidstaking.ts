import type { OperationSpec, ParameterSpec } from '../types';
import {
	address,
	amount,
	DIGITS,
	IN_NATIVE,
	inTokenOf,
	NUMBER,
	POSITIVE,
	signerAndGas,
	tokenAddress,
} from './shared';

/*
 * Liquid staking (docs/reference/expand-api.md §2 liquidstaking, §2.x Liquid staking): Lido, Chorus One and Stader.
 * The liquidStakingId also sets the chain, so no chain is asked for. Implementations named
 * BNBStader in the 2024 server serve some allowance routes.
 */

const LIDO = ['Lido'];
const CHORUS_ONE = ['ChorusOne'];
const LIDO_AND_STADER = 'Lido and Stader';

const staker = address('Address of the staker', { role: 'who' });

/** An amount of a token no parameter names (the protocol's own staking token): typed in its smallest unit. */
const weiAmount = (description: string, pattern?: typeof DIGITS): ParameterSpec =>
	amount(`${description}, in the smallest unit (wei)`, { ...pattern, role: 'amount' });

const stakingToken = tokenAddress('Address of the liquid-staking token', { role: 'what' });

const spender: ParameterSpec = {
	name: 'spender',
	type: 'text',
	required: true,
	description: 'Address of the spender',
	placeholder: '0x...',
	role: 'who',
};

const operation = (
	op: string,
	name: string,
	description: string,
	method: 'GET' | 'POST',
	parameters: ParameterSpec[],
	availability?: string,
): OperationSpec => ({
	resource: 'liquidstaking',
	operation: op,
	name,
	description,
	method,
	path: `/liquidstaking/${op}`,
	host: 'base',
	kind: method === 'GET' ? 'read' : 'write',
	chain: false,
	protocol: 'liquidStakingId',
	...(availability ? { availability } : {}),
	parameters,
});

export const liquidstakingOperations: OperationSpec[] = [
	operation(
		'approvewithdrawal',
		'Approve Withdrawal',
		'Build the unsigned transaction that approves the withdrawal contract to take the staked tokens to withdraw',
		'POST',
		[weiAmount('Amount of the liquid-staking token to approve'), ...signerAndGas],
		LIDO_AND_STADER,
	),
	operation(
		'burn',
		'Burn',
		'Build the unsigned transaction that burns minted liquid-staking tokens',
		'POST',
		[weiAmount('Amount to burn', POSITIVE), ...signerAndGas],
		'Chorus One only',
	),
	operation(
		'claim',
		'Claim',
		'Build the unsigned transaction that claims a finalised withdrawal request',
		'POST',
		[
			{
				name: 'requestId',
				type: 'text',
				required: true,
				description: 'ID of the withdrawal request',
				...DIGITS,
			},
			...signerAndGas,
		],
	),
	operation(
		'decreaseallowance',
		'Decrease Allowance',
		'Build the unsigned transaction that lowers the amount of the liquid-staking token a spender may transfer',
		'POST',
		[
			stakingToken,
			spender,
			{
				name: 'subtractedAmount',
				type: 'text',
				required: true,
				description: 'Amount to subtract from the allowance',
				role: 'amount',
				...inTokenOf('tokenAddress'),
			},
			...signerAndGas,
		],
		LIDO_AND_STADER,
	),
	operation(
		'getallowance',
		'Get Allowance',
		'Get the amount of the liquid-staking token a spender may transfer from an owner',
		'GET',
		[
			stakingToken,
			{
				name: 'owner',
				type: 'text',
				required: true,
				description: 'Address of the token owner',
				placeholder: '0x...',
				role: 'who',
			},
			spender,
		],
		LIDO_AND_STADER,
	),
	operation('getapr', 'Get APR', 'Get the current staking APR', 'GET', []),
	operation(
		'getprotocolapr',
		'Get Protocol APR',
		'Get the staking APR of the protocol',
		'GET',
		[],
		'Lido only',
	),
	operation('getrewards', 'Get Rewards', 'Get the staking rewards of an address', 'GET', [
		staker,
		{ name: 'page', type: 'text', description: 'Page to return', protocols: LIDO, ...DIGITS },
		{
			name: 'startBlock',
			type: 'text',
			description: 'First block of the range',
			protocols: CHORUS_ONE,
			...NUMBER,
		},
		{
			name: 'endBlock',
			type: 'text',
			description: 'Last block of the range',
			protocols: CHORUS_ONE,
			...POSITIVE,
		},
	]),
	operation('getstake', 'Get Stake', 'Get the staked balance of an address', 'GET', [staker]),
	operation(
		'getwithdrawalrequests',
		'Get Withdrawal Requests',
		'List the withdrawal requests of an address',
		'GET',
		[
			staker,
			{
				name: 'requestId',
				type: 'text',
				description: 'ID of a withdrawal request, for its status',
				protocols: ['Lido'],
			},
		],
	),
	operation(
		'getwithdrawalstatus',
		'Get Withdrawal Status',
		'Get the status of a withdrawal request',
		'GET',
		[
			{
				name: 'requestId',
				type: 'text',
				required: true,
				description: 'ID of the withdrawal request',
				role: 'what',
			},
		],
		'Lido only',
	),
	operation(
		'increaseallowance',
		'Increase Allowance',
		'Build the unsigned transaction that raises the amount of the liquid-staking token a spender may transfer',
		'POST',
		[
			stakingToken,
			spender,
			{
				name: 'addedAmount',
				type: 'text',
				required: true,
				description: 'Amount to add to the allowance',
				role: 'amount',
				...inTokenOf('tokenAddress'),
			},
			...signerAndGas,
		],
		LIDO_AND_STADER,
	),
	operation(
		'mint',
		'Mint',
		'Build the unsigned transaction that mints liquid-staking tokens against staked ETH',
		'POST',
		[
			weiAmount('Amount to mint', POSITIVE),
			...signerAndGas,
			{
				name: 'referrer',
				type: 'text',
				default: '0x0000000000000000000000000000000000000000',
				description: 'Referrer address',
				placeholder: '0x...',
			},
		],
		'Chorus One only',
	),
	operation(
		'requestwithdrawal',
		'Request Withdrawal',
		'Build the unsigned transaction that requests the withdrawal of staked ETH',
		'POST',
		[
			weiAmount('Amount to withdraw', DIGITS),
			...signerAndGas,
			{
				name: 'ownerAddress',
				type: 'text',
				description: 'Address that owns the withdrawal request',
				protocols: LIDO,
				placeholder: '0x...',
			},
		],
	),
	{
		...operation('restake', 'Restake', 'Build the unsigned transaction that restakes', 'POST', []),
		undocumented: true,
	},
	operation(
		'stake',
		'Stake',
		'Build the unsigned transaction that stakes ETH for the liquid-staking token',
		'POST',
		[
			amount('Amount of the native asset to stake', { ...DIGITS, role: 'amount', ...IN_NATIVE }),
			...signerAndGas,
		],
	),
	operation(
		'unwrap',
		'Unwrap',
		'Build the unsigned transaction that unwraps wstETH into stETH',
		'POST',
		[weiAmount('Amount of wstETH to unwrap'), ...signerAndGas],
		'Lido only',
	),
	operation(
		'wrap',
		'Wrap',
		'Build the unsigned transaction that wraps stETH into wstETH',
		'POST',
		[weiAmount('Amount of stETH to wrap'), ...signerAndGas],
		'Lido only',
	),
];
