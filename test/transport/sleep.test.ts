/**
 * The nodes' one abortable wait, with n8n-workflow as 2.8 ships it (sleepWithAbort exported) and as
 * 2.41 ships it (no sleepWithAbort: the import is undefined). The real-n8n test runs it in both
 * n8n versions too (a 429 retried inside `n8n execute`, test/n8n/run.ts).
 */
type SleepModule = typeof import('../../nodes/shared/sleep');

/** The helper over the real n8n-workflow, or over it without sleepWithAbort; `sleepCalls` counts its plain `sleep` calls. */
function load(withSleepWithAbort: boolean): SleepModule & { sleepCalls: () => number } {
	const actual = jest.requireActual('n8n-workflow') as typeof import('n8n-workflow');
	const sleep = jest.fn(async (ms: number) => await actual.sleep(ms));
	let loaded: SleepModule | undefined;
	jest.isolateModules(() => {
		jest.doMock('n8n-workflow', () => ({
			...actual,
			sleep,
			...(withSleepWithAbort ? {} : { sleepWithAbort: undefined }),
		}));
		loaded = jest.requireActual('../../nodes/shared/sleep') as SleepModule;
	});
	jest.dontMock('n8n-workflow');
	return { ...(loaded as SleepModule), sleepCalls: () => sleep.mock.calls.length };
}

describe.each([
	['n8n-workflow with sleepWithAbort (2.8)', true],
	['n8n-workflow without sleepWithAbort (2.41)', false],
])('sleepUnlessAborted, %s', (_name, withSleepWithAbort) => {
	const { sleepUnlessAborted, sleepCalls } = load(withSleepWithAbort);

	it('waits the time without a signal and with one that does not abort', async () => {
		let started = Date.now();
		await sleepUnlessAborted(120);
		expect(Date.now() - started).toBeGreaterThanOrEqual(110);
		started = Date.now();
		await sleepUnlessAborted(120, new AbortController().signal);
		expect(Date.now() - started).toBeGreaterThanOrEqual(110);
		// With sleepWithAbort it does the waiting; without, n8n-workflow's plain sleep does.
		expect(sleepCalls()).toBe(withSleepWithAbort ? 0 : 2);
	});

	it('rejects as soon as the signal aborts, long before the time is up', async () => {
		const controller = new AbortController();
		const started = Date.now();
		const waiting = sleepUnlessAborted(2000, controller.signal);
		setTimeout(() => controller.abort(), 50);
		await expect(waiting).rejects.toBeInstanceOf(Error);
		expect(Date.now() - started).toBeLessThan(1000);
	});

	it('takes a time already past (a negative wait, as a pace computes it) as none: no negative timer, which Node warns of', async () => {
		const timers = jest.spyOn(global, 'setTimeout');
		try {
			await sleepUnlessAborted(-0.78);
			await sleepUnlessAborted(-0.78, new AbortController().signal);
			expect(timers.mock.calls.map(([, ms]) => ms)).toEqual([0, 0]);
		} finally {
			timers.mockRestore();
		}
	});

	it('rejects at once when the signal has already aborted', async () => {
		const controller = new AbortController();
		controller.abort();
		const started = Date.now();
		await expect(sleepUnlessAborted(2000, controller.signal)).rejects.toBeInstanceOf(Error);
		expect(Date.now() - started).toBeLessThan(1000);
	});
});
