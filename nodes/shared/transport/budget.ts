/**
 * Compute units one execution may spend. Units are reserved before a request is sent (so
 * parallel items cannot overshoot together) and given back when the try was certainly not
 * processed (429, refused connection). A request whose cost the catalog does not list cannot be
 * counted, so under a budget it is not sent.
 */
export class ComputeBudget {
	private used = 0;
	private readonly byItem = new Map<number, number>();

	constructor(readonly max: number | undefined) {}

	/** Reserves `units` for the item; returns a refusal reason when they do not fit, else undefined. */
	reserve(units: number | undefined, itemIndex: number, endpoint: string): string | undefined {
		if (this.max !== undefined) {
			if (units === undefined) {
				return `Max Compute Units is set (${this.max}) and the cost of ${endpoint} is not listed in the spec, so it cannot be counted; the request was not sent`;
			}
			if (this.used + units > this.max) {
				return `Max Compute Units (${this.max}) would be exceeded: ${endpoint} costs ${units} and ${this.used} are already used in this execution; the request was not sent`;
			}
		}
		this.add(units ?? 0, itemIndex);
		return undefined;
	}

	refund(units: number | undefined, itemIndex: number): void {
		this.add(-(units ?? 0), itemIndex);
	}

	/** Units the item's requests cost so far. */
	spentBy(itemIndex: number): number {
		return this.byItem.get(itemIndex) ?? 0;
	}

	private add(units: number, itemIndex: number): void {
		this.used += units;
		this.byItem.set(itemIndex, (this.byItem.get(itemIndex) ?? 0) + units);
	}
}
