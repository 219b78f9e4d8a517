import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/**
 * Timeout (Seconds) and On Timeout of an operation that waits, shown (with `show`) while its boolean
 * `waitName` is on. `words`: how long to wait at most, what failing the item names, and what the
 * output option gives.
 */
export function timeoutProperties(
	show: NonNullable<IDisplayOptions['show']>,
	waitName: string,
	words: { timeout: string; fail: string; output: { name: string; description: string } },
): INodeProperties[] {
	const displayOptions = { show: { ...show, [waitName]: [true] } };
	return [
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 300,
			description: words.timeout,
			displayOptions,
		},
		{
			displayName: 'On Timeout',
			name: 'onTimeout',
			type: 'options',
			options: [
				{ name: 'Fail the Item', value: 'error', description: words.fail },
				{ name: words.output.name, value: 'output', description: words.output.description },
			],
			default: 'error',
			displayOptions,
		},
	];
}

/** Whether the item's On Timeout asks for its output (else the item fails). */
export function outputsOnTimeout(this: IExecuteFunctions, itemIndex: number): boolean {
	return this.getNodeParameter('onTimeout', itemIndex, 'error') === 'output';
}

/**
 * Reads again, every `pollMs` at most, until `done` says so, the item's Timeout (Seconds) passes or
 * the execution is cancelled. Returns the last read and the timeout.
 */
export async function waitUntil<T>(
	context: IExecuteFunctions,
	itemIndex: number,
	first: T,
	done: (current: T) => boolean,
	read: (current: T) => Promise<T>,
	pollMs: number,
): Promise<{ current: T; timeoutSeconds: number }> {
	const timeoutSeconds = Number(context.getNodeParameter('timeoutSeconds', itemIndex, 300));
	const deadline = Date.now() + timeoutSeconds * 1000;
	let current = first;
	while (!done(current) && Date.now() < deadline) {
		if (context.getExecutionCancelSignal?.()?.aborted) break;
		await sleep(Math.min(pollMs, Math.max(0, deadline - Date.now())));
		current = await read(current);
	}
	return { current, timeoutSeconds };
}
