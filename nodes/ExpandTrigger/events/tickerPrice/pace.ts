import type { IDataObject } from 'n8n-workflow';

/** Emits (workflow executions) per second before messages are held back. */
export const MAX_EMITS_PER_SECOND = 20;
/** Symbols held back at once; a flood of new symbols beyond this is dropped and counted. */
export const MAX_HELD_SYMBOLS = 1000;

/**
 * Keeps a flooding stream from starting unbounded executions: up to MAX_EMITS_PER_SECOND messages
 * are emitted as they come; beyond that only the newest message per symbol is held, and the held
 * ones go out together as one emit when the second is over. Memory is bounded by the held symbols.
 */
export class Pace {
	private windowStart = 0;
	private emitted = 0;
	private readonly held = new Map<string, IDataObject>();
	private flushing = false;
	private stopped = false;

	constructor(
		private readonly emit: (messages: IDataObject[]) => void,
		private readonly wait: (ms: number) => Promise<void>,
	) {}

	/** Returns false when the message was dropped (too many symbols held). */
	offer(symbol: string, message: IDataObject): boolean {
		const now = Date.now();
		if (now - this.windowStart >= 1000) {
			this.windowStart = now;
			this.emitted = 0;
		}
		if (!this.held.size && this.emitted < MAX_EMITS_PER_SECOND) {
			this.emitted++;
			this.emit([message]);
			return true;
		}
		if (!this.held.has(symbol) && this.held.size >= MAX_HELD_SYMBOLS) return false;
		// Re-inserted, so the held messages go out in the order of their newest update.
		this.held.delete(symbol);
		this.held.set(symbol, message);
		void this.flushLater();
		return true;
	}

	stop(): void {
		this.stopped = true;
		this.held.clear();
	}

	private async flushLater(): Promise<void> {
		if (this.flushing) return;
		this.flushing = true;
		await this.wait(Math.max(0, 1000 - (Date.now() - this.windowStart)));
		this.flushing = false;
		if (this.stopped || !this.held.size) return;
		this.windowStart = Date.now();
		this.emitted = 1;
		const messages = [...this.held.values()];
		this.held.clear();
		this.emit(messages);
	}
}
