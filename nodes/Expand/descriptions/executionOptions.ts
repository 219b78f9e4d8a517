import type { INodeProperties } from 'n8n-workflow';

/** How the node sends its requests: parallelism, retries, timeout and the compute-unit budget. Shown for every operation. */
export const executionOptionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Add Compute Units',
			name: 'addComputeUnits',
			type: 'boolean',
			default: false,
			description:
				'Whether to add "computeUnits" to each output item: the units its input item cost, retries and page requests included (records of one input item carry the same figure)',
		},
		{
			displayName: 'First Retry Wait (Ms)',
			name: 'firstRetryWait',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 500,
			description:
				'Wait before the first retry, doubled on each further one (with jitter, at most 30 s). A 429 with a Retry-After header waits as asked instead.',
		},
		{
			displayName: 'Max Compute Units',
			name: 'maxComputeUnits',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				'Compute units this execution may spend; requests that would go beyond it are not sent and their items fail with an error naming the budget. Operations whose cost the spec does not list are not sent under a budget. 0: no budget.',
		},
		{
			displayName: 'Max Tries After Server or Connection Errors',
			name: 'transientTries',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 3,
			description:
				'Tries of a request that fails with a 5xx, a reset, a timeout or a refused connection. Writes (POST) are tried again only when they certainly were not processed (refused connection), except Send Transaction, whose signed transaction the chain accepts once.',
		},
		{
			displayName: 'Max Tries When Rate Limited',
			name: 'rateLimitTries',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 5,
			description: 'Tries of a request the API answers with 429 Too Many Requests',
		},
		{
			displayName: 'Requests in Parallel',
			name: 'parallelRequests',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 10,
			description:
				'How many items are sent at once. The output keeps the input order. 1: one at a time. Without Continue On Fail, items after a failing one may already have been sent. Send Transaction always sends one at a time, in input order (consecutive nonces).',
		},
		{
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				"Time to wait for each response before giving up on that try. 0: n8n's default (5 minutes).",
		},
	],
};
