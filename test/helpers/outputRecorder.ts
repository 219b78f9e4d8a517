/**
 * Records every log line of n8n's logger and everything written to the console, stdout and stderr,
 * for the no-trace key scans. `start()` in beforeAll, `stop()` in afterAll; `lines` grows meanwhile.
 */
import { LoggerProxy } from 'n8n-workflow';

export function outputRecorder() {
	const lines: string[] = [];
	const restore: Array<() => void> = [];
	const logTo =
		(level: string) =>
		(message: string, metadata?: object): void =>
			void lines.push(`${level} ${message} ${JSON.stringify(metadata ?? {})}`);
	const logger: Parameters<typeof LoggerProxy.init>[0] = {
		error: logTo('error'),
		warn: logTo('warn'),
		info: logTo('info'),
		debug: logTo('debug'),
	};
	const logLevel = process.env.N8N_LOG_LEVEL;
	return {
		lines,
		/** Before each run: n8n's logger may have taken over LoggerProxy. */
		attachLogger: () => LoggerProxy.init(logger),
		start() {
			process.env.N8N_LOG_LEVEL = 'debug';
			// Under jest workers the console's own streams (where winston writes) are not process's.
			const jestConsole = console as unknown as {
				_stdout?: NodeJS.WriteStream;
				_stderr?: NodeJS.WriteStream;
			};
			const streams = new Map([
				[process.stdout, true],
				[process.stderr, false],
				...(jestConsole._stdout ? [[jestConsole._stdout, true] as const] : []),
				...(jestConsole._stderr ? [[jestConsole._stderr, true] as const] : []),
			]);
			for (const [stream, swallow] of streams) {
				const write = stream.write;
				stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
					lines.push(String(chunk));
					return swallow ? true : write.call(stream, chunk, ...rest);
				}) as typeof stream.write;
				restore.push(() => (stream.write = write));
			}
			for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
				const spy = jest
					.spyOn(console, method)
					.mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
				restore.push(() => spy.mockRestore());
			}
		},
		stop() {
			for (const undo of restore) undo();
			if (logLevel === undefined) delete process.env.N8N_LOG_LEVEL;
			else process.env.N8N_LOG_LEVEL = logLevel;
		},
	};
}
