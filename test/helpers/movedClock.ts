/** Time passing in a test: this process's clock (Date.now), which the Signer and the devnet's chain both read, moved on. */

/** Date.now, from the file's first test to its end, `pass`ed ahead of the real clock by all that was passed. */
export function movedClock(): { pass(ms: number): void } {
	const realNow = Date.now.bind(Date);
	let skew = 0;
	beforeAll(() => {
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + skew);
	});
	afterAll(() => jest.restoreAllMocks());
	return {
		pass(ms: number) {
			skew += ms;
		},
	};
}
