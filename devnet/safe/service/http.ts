export interface Answer {
	status: number;
	/** Absent: an empty body (the service's bare 201, 204 and some 404s). */
	body?: unknown;
}

/** Page sizes: the service's DefaultPagination has 100 by default and at most 200 (tests may lower both). */
export interface PageLimits {
	default: number;
	max: number;
}

/** DRF's LimitOffsetPagination: `limit` (capped at the maximum) and `offset`, with absolute next/previous links. */
export class Page {
	readonly query: URLSearchParams;

	constructor(
		private readonly url: URL,
		private readonly limits: PageLimits,
	) {
		this.query = url.searchParams;
	}

	paginate<T>(items: T[]) {
		const limitText = this.query.get('limit');
		const offsetText = this.query.get('offset');
		const asked =
			limitText && /^\d+$/.test(limitText) && Number(limitText) > 0
				? Number(limitText)
				: this.limits.default;
		const limit = Math.min(asked, this.limits.max);
		const offset = offsetText && /^\d+$/.test(offsetText) ? Number(offsetText) : 0;
		const link = (at: number) => {
			const url = new URL(this.url);
			url.searchParams.set('limit', String(limit));
			if (at > 0) url.searchParams.set('offset', String(at));
			else url.searchParams.delete('offset');
			return url.toString();
		};
		return {
			count: items.length,
			next: offset + limit < items.length ? link(offset + limit) : null,
			previous: offset > 0 ? link(Math.max(offset - limit, 0)) : null,
			results: items.slice(offset, offset + limit),
		};
	}
}
