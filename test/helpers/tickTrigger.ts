/** Driving an activated trigger's polls as n8n's seconds cron would. */
import { type ActiveTrigger, waitFor } from './n8n';

/** Ticks until `done` says so (within `timeoutMs`), then five more times, 60 ms apart, to catch anything extra. */
export async function tickUntil(
	trigger: ActiveTrigger,
	done: () => boolean,
	timeoutMs = 20000,
): Promise<void> {
	await waitFor(() => {
		trigger.tick();
		return done();
	}, timeoutMs);
	for (let index = 0; index < 5; index++) {
		trigger.tick();
		await new Promise((resolve) => setTimeout(resolve, 60));
	}
}
