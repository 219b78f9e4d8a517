export interface Answer {
	status: number;
	/** Absent: an empty body (the service's bare 201, 204 and some 404s). */
	body?: unknown;
}

/** DRF's LimitOffsetPagination as the service configures it (DefaultPagination: 100 by default, at most 200). */
export class Page {
	constructor(
		private readonly url: URL,
		readonly query = url.searchParams,
	) {}

	paginate<T>(items: T[]) {
		const limitText = this.query.get('limit');
		const offsetText = this.query.get('offset');
		const limit = Math.min(
			limitText && /^\d+$/.test(limitText) && Number(limitText) > 0 ? Number(limitText) : 100,
			200,
		);
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
