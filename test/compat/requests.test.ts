/**
 * Every operation of Expand version 1, with the values a workflow saved on the first release holds
 * (every field of that release's form, at its place: test/compat/0.1.0/requests.json, recorded by
 * recordRequests.ts with the first release's own node), sends the very requests the first release sent.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import '../helpers/n8n';
import { useRecordingServer } from '../helpers/recordingServer';
import { requestsOf, type SentRequest } from './savedRequests';

const recorded = JSON.parse(
	readFileSync(path.join(__dirname, '0.1.0', 'requests.json'), 'utf8'),
) as Record<string, { parameters: INodeParameters; requests: SentRequest[]; error?: string }>;

const server = useRecordingServer();

test.each(Object.entries(recorded))(
	'0.1.0 %s: the same requests as the first release',
	async (_selection, saved) => {
		const now = await requestsOf(server.current, saved.parameters);
		expect(now.requests).toEqual(saved.requests);
		if (saved.error === undefined) expect(now.error).toBeUndefined();
	},
);
