import { endpointOf } from './api';

/** One metered call, with the spec's usage-item fields. */
export interface UsageItem {
	chainId: string;
	totalComputeUnits: number;
	responseTime: string;
	'api-endpoint': string;
	status: number;
	timestamp: string;
	bytes: number;
}

const DETAIL_LIMIT = 100;
const DEFAULT_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

/** Compute units of an endpoint from the spec's cost table (the devnet's copy, api/endpoints.tsv); 0 where none is listed. */
export function computeUnitsFor(path: string): number {
	return endpointOf(path)?.computeUnits ?? 0;
}

export class DateFormatError extends Error {}

function parseDay(value: string | undefined, name: string): Date | undefined {
	if (value === undefined || value === '') return undefined;
	if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
		throw new DateFormatError(`${name} is not in valid format (YYYY-MM-DD)`);
	}
	return new Date(`${value}T00:00:00Z`);
}

/** Usage per API key: calls in compute units, stream messages in WebSocket message units. */
export class Meter {
	private readonly calls = new Map<string, UsageItem[]>();
	private readonly messages = new Map<string, Array<{ time: number; units: number }>>();

	record(apiKey: string, item: UsageItem): void {
		const items = this.calls.get(apiKey) ?? [];
		items.push(item);
		this.calls.set(apiKey, items);
	}

	recordWebSocketMessage(apiKey: string, units = 1): void {
		const entries = this.messages.get(apiKey) ?? [];
		entries.push({ time: Date.now(), units });
		this.messages.set(apiKey, entries);
	}

	/** Every metered call of a key, newest first. */
	items(apiKey: string): UsageItem[] {
		return [...(this.calls.get(apiKey) ?? [])].reverse();
	}

	/** The usage-details answer: totals in the window, and the newest 100 calls when asked. */
	summary(
		apiKey: string,
		query: { startDate?: string; endDate?: string; includeDetails?: string },
	) {
		const endDay =
			parseDay(query.endDate, 'endDate') ??
			new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z');
		const startDay =
			parseDay(query.startDate, 'startDate') ??
			new Date(endDay.getTime() - DEFAULT_WINDOW_DAYS * DAY_MS);
		const from = startDay.getTime();
		const to = endDay.getTime() + DAY_MS;
		const inWindow = this.items(apiKey).filter((item) => {
			const time = Date.parse(`${item.timestamp}Z`);
			return time >= from && time < to;
		});
		const messageUnits = (this.messages.get(apiKey) ?? [])
			.filter((entry) => entry.time >= from && entry.time < to)
			.reduce((sum, entry) => sum + entry.units, 0);
		return {
			overAllComputeUnits: inWindow.reduce((sum, item) => sum + item.totalComputeUnits, 0),
			overAllWebSocketMessageUnits: messageUnits,
			...(query.includeDetails === 'true'
				? { latest100Items: inWindow.slice(0, DETAIL_LIMIT) }
				: {}),
		};
	}
}
