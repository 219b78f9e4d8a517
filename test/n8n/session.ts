/** What the real-n8n runner (run.ts) shares with each of its checks. */
import type { Devnet } from '../../devnet';
import type { N8nInstance } from '../../playground/n8n';
import type { N8nRest } from '../../playground/rest';
import type { Sink } from './sink';

export interface Session {
	devnet: Devnet;
	/** The n8n user folder the checks run in: `n8n execute` before n8n starts, the REST API after. */
	n8n: N8nInstance;
	/** The packed packages, core first. */
	tarballs: string[];
	/** A file the example and test workflows write into. */
	out(file: string): string;
	/** The running n8n's REST API, logged in as the owner (only after n8n start). */
	rest(): N8nRest;
	/** Stops n8n, runs `whileDown`, starts n8n again and logs in. */
	restart(whileDown: () => Promise<void>): Promise<void>;
	/** Kills n8n and its task runners with SIGKILL (no clean-up, as in a crash), starts it again and logs in. */
	crash(): Promise<void>;
	/** The Slack stand-in the examples post to. */
	slack: Sink;
}

/** One check of a runner: what it proves, and the proof (what it returns is printed under its name). */
export interface Check {
	name: string;
	run(session: Session): Promise<string | void>;
}
