import type { INodeParameters } from 'n8n-workflow';

import { findOperation } from '../../nodes/shared/catalog';
import { envelope, type RecordingServer } from '../helpers/recordingServer';
import { sample } from '../helpers/sampleValue';
import type { FormSnapshot } from '../../scripts/compat/formSnapshot';
import { EXPAND, runPipeline, ITEMS, expandCredentials } from '../../scripts/engine/n8n';

/** The chain a first-release workflow saved most often: Ethereum, chosen from the list. */
const CHAIN = '1';

/** Fields the requests do not depend on, or that pick another host or chain for the request. */
const LEFT_OUT =
	/^(chainId|chainSymbol|additionalFields\.chainSymbol|additionalFields\.rpc|options\..*|extraParameters\..*|rawBody|returnAll|limit|formatAmounts|waitForConfirmation|confirmation.*)$/;

/** A request as the API receives it. */
export interface SentRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	body: unknown;
}

/**
 * An operation's form values as a saved workflow of that release holds them: every field of its
 * form, at the place the form had it, set to a value its parameter accepts.
 */
export function savedParameters(forms: FormSnapshot, selection: string): INodeParameters {
	const [resource, operation] = selection.split(',').map((pair) => pair.split('=')[1]);
	const specs = findOperation(resource, operation)?.parameters ?? [];
	const parameters: INodeParameters = { resource, operation, chainId: CHAIN };
	const additionalFields: INodeParameters = {};
	for (const field of forms['n8n-nodes-expand-network.expand@1'].forms[selection]) {
		if (LEFT_OUT.test(field.path)) continue;
		const [place, name] = field.path.includes('.') ? field.path.split('.') : ['top', field.path];
		const spec = specs.find((candidate) => candidate.name === name);
		const value = field.values?.length
			? field.values[field.values.length - 1]
			: spec
				? (sample(spec).form as string)
				: '12';
		if (place === 'additionalFields') additionalFields[name] = value;
		else if (place === 'top') parameters[name] = value;
	}
	return { ...parameters, additionalFields };
}

/** The requests version 1 of the registered Expand node sends for these values (or the error it gives). */
export async function requestsOf(
	server: RecordingServer,
	parameters: INodeParameters,
): Promise<{ requests: SentRequest[]; error?: string }> {
	server.requests.length = 0;
	server.respondWith(() => envelope({ ok: true, items: [], nextPageToken: '', totalPages: 1 }));
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
			{ name: 'Expand', type: EXPAND, parameters, continueOnFail: true, typeVersion: 1 },
		],
		expandCredentials({
			apiKey: 'saved-key',
			baseUrl: server.baseUrl,
			historicalUrl: server.historicalUrl,
		}),
	);
	const [item] = result.output('Expand');
	const error = item?.json.error === undefined ? undefined : String(item.json.error);
	return {
		requests: server.requests.map(({ method, path, query, body }) => ({
			method,
			path,
			query,
			body,
		})),
		...(error ? { error } : {}),
	};
}
