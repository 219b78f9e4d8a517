import type { IExecuteFunctions } from 'n8n-workflow';

import { itemError } from '../../shared/errors';
import type { SessionSettings } from '../../shared/transport';

export interface ExecutionOptions {
	parallelRequests: number;
	addComputeUnits: boolean;
	session: SessionSettings;
}

interface RawOptions {
	parallelRequests?: number;
	addComputeUnits?: boolean;
	maxComputeUnits?: number;
	rateLimitTries?: number;
	transientTries?: number;
	firstRetryWait?: number;
	timeout?: number;
}

/** The node's Options, read once per execution (they apply to all items together). */
export function readExecutionOptions(this: IExecuteFunctions): ExecutionOptions {
	const raw = this.getNodeParameter('options', 0, {}) as RawOptions;
	const whole = (name: keyof RawOptions, minimum: number): number | undefined => {
		const value = raw[name];
		if (value === undefined) return undefined;
		if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
			throw itemError(
				this.getNode(),
				0,
				`The option "${name}" must be a whole number of at least ${minimum}; got ${JSON.stringify(value)}`,
			);
		}
		return value;
	};
	const retry = {
		rateLimitTries: whole('rateLimitTries', 1),
		transientTries: whole('transientTries', 1),
		firstDelayMs: whole('firstRetryWait', 0),
	};
	return {
		parallelRequests: whole('parallelRequests', 1) ?? 10,
		addComputeUnits: raw.addComputeUnits === true,
		session: {
			// 0 means "none" for both, as the descriptions say.
			maxComputeUnits: whole('maxComputeUnits', 0) || undefined,
			timeoutMs: whole('timeout', 0) || undefined,
			retry: Object.fromEntries(Object.entries(retry).filter(([, value]) => value !== undefined)),
		},
	};
}
