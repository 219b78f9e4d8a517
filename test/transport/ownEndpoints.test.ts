/**
 * The endpoints the nodes call on their own are a small table in the transport, so the signer need not
 * ship the catalog: each entry must be what the catalog says of that endpoint, and each must be used.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';

import { findOperation } from '../../nodes/shared/catalog';
import { OWN_ENDPOINTS, type OwnEndpoint } from '../../nodes/shared/transport/ownEndpoints';
import { endpointRequest } from '../../nodes/shared/transport/request';

const root = join(__dirname, '..', '..');

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

const names = Object.keys(OWN_ENDPOINTS) as OwnEndpoint[];

test.each(names)('%s is what the catalog says of it', (name) => {
	const [resource, operation] = name.split('/');
	const entry = findOperation(resource, operation);
	expect(entry).toBeDefined();
	expect(OWN_ENDPOINTS[name]).toEqual({
		method: entry?.method,
		host: entry?.host,
		path: entry?.path,
		...(entry?.computeUnits !== undefined ? { computeUnits: entry.computeUnits } : {}),
		...(entry?.resendable ? { resendable: true } : {}),
		...(entry?.unwrapped ? { unwrapped: true } : {}),
	});
});

test('every entry is called by a node, and values go in the query of a GET and the body of a POST', () => {
	const code = [
		...sources(join(root, 'nodes')),
		...sources(join(root, 'packages', 'signer', 'nodes', 'ExpandSigner')),
	]
		.filter((path) => !path.endsWith('ownEndpoints.ts'))
		.map((path) => readFileSync(path, 'utf8'))
		.join('\n');
	for (const name of names)
		expect(code).toMatch(new RegExp(`endpointRequest\\(\\s*OWN_ENDPOINTS\\['${name}'\\]`));
	expect(endpointRequest(OWN_ENDPOINTS['chain/getpublicrpc'], { chainId: '1' })).toMatchObject({
		qs: { chainId: '1' },
	});
	expect(endpointRequest(OWN_ENDPOINTS['chain/estimategas'], { chainId: '1' })).toMatchObject({
		body: { chainId: '1' },
	});
	expect(endpointRequest(OWN_ENDPOINTS['chain/getpublicrpc'], {})).not.toHaveProperty('qs');
});
