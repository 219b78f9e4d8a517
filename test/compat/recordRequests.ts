/* eslint-disable no-console -- a command-line tool */
/**
 * `tsx test/compat/recordRequests.ts <release> <checkout> <forms.json>`: for every operation of
 * Expand version 1 in `<forms.json>` (the form snapshot of `<checkout>`, freezeForms.ts), the values a
 * saved workflow of that release holds (savedRequests.ts) and the requests the checkout's own Expand
 * node sent for them, written to test/compat/<release>/requests.json for requests.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import type { INodeType } from 'n8n-workflow';

import { EXPAND, registerNodeType, releaseEngine } from '../../scripts/engine/n8n';
import type { FormSnapshot } from '../../scripts/compat/formSnapshot';
import { startRecordingServer } from '../helpers/recordingServer';
import { requestsOf, savedParameters } from './savedRequests';

async function main(): Promise<void> {
	const [release, checkout, formsFile] = process.argv.slice(2);
	if (!release || !checkout || !formsFile)
		throw new Error('usage: recordRequests.ts <release> <checkout> <forms.json>');
	const exports = (await import(path.resolve(checkout, 'nodes/Expand/Expand.node.ts'))) as Record<
		string,
		new () => INodeType
	>;
	registerNodeType(
		EXPAND,
		new (Object.values(exports).find((value) => typeof value === 'function')!)(),
	);
	const forms = JSON.parse(readFileSync(formsFile, 'utf8')) as FormSnapshot;
	const server = await startRecordingServer();
	const recorded: Record<string, unknown> = {};
	try {
		for (const selection of Object.keys(forms['n8n-nodes-expand-network.expand@1'].forms)) {
			if (selection.startsWith('resource=usage')) continue;
			const parameters = savedParameters(forms, selection);
			recorded[selection] = { parameters, ...(await requestsOf(server, parameters)) };
		}
	} finally {
		await server.close();
		releaseEngine();
	}
	writeFileSync(
		path.join(__dirname, release, 'requests.json'),
		`${JSON.stringify(recorded, null, '\t')}\n`,
	);
	console.log(`${Object.keys(recorded).length} operations recorded`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
