/**
 * At most `perSecond` accepted requests per key in any sliding second (a fixed window would let 2x
 * through at its edge). Tests change the limit mid-run and count the refusals (429s).
 */
export class RateLimiter {
	private readonly accepted = new Map<string, number[]>();
	refused = 0;

	constructor(public perSecond?: number) {}

	allow(apiKey: string): boolean {
		if (this.perSecond === undefined) return true;
		const now = Date.now();
		const recent = (this.accepted.get(apiKey) ?? []).filter((time) => now - time < 1000);
		const allowed = recent.length < this.perSecond;
		if (allowed) recent.push(now);
		else this.refused++;
		this.accepted.set(apiKey, recent);
		return allowed;
	}
}
