/** A devnet for the tests of a file (or of a describe block): started before them, stopped after them. */
import { type Devnet, startDevnet } from '../../devnet';

/** `use` receives the devnet once it is started. */
export function useDevnet(use: (devnet: Devnet) => void): void {
	let devnet: Devnet | undefined;
	beforeAll(async () => {
		devnet = await startDevnet();
		use(devnet);
	});
	afterAll(async () => {
		await devnet?.stop();
	});
}
