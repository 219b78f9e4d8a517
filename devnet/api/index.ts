import { readFileSync } from 'fs';
import { join } from 'path';

/**
 * The devnet's own copy of the API's published endpoint table (endpoints.tsv, the spec's list
 * verbatim) and of the parameters the API documents per endpoint (parameters.tsv, from the
 * reference's schema tables and the spec's parameter tables). Routing, required-parameter checks
 * and metering of the devnet come from here, never from the node's catalog.
 */

export interface Endpoint {
	/** The resource: the API's first path segment (the published table's `family` column). */
	resource: string;
	operation: string;
	path: string;
	method: 'GET' | 'POST';
	host: 'base' | 'historical';
	/** Compute units per call from the spec's cost table; undefined where none is listed. */
	computeUnits?: number;
	kind: 'read' | 'write';
	source: string;
}

/** One documented variant of an endpoint: a chain family or protocol implementation with its own schema. */
export interface Variant {
	path: string;
	/** The chain or protocol the schema belongs to (`EVM`, `Solana`, `UniswapV2`, ...); `*` when it is not tied to one. */
	scope: string;
	/** Parameters in the order the schema lists them (the validator reports the first one missing); undefined when the source gives no flags. */
	required?: string[];
	/** The other parameters; when `required` is undefined, the parameters the source names without flags. Undefined when none are known. */
	optional?: string[];
	/** GET parameters travel in the query, POST parameters in the JSON body (reference §1). */
	where: 'query' | 'body';
	/** Where the reference or the spec says it. */
	source: string;
}

function rows(file: string): string[][] {
	const [, ...lines] = readFileSync(join(__dirname, file), 'utf8').trimEnd().split('\n');
	return lines.map((line) => line.split('\t'));
}

const names = (cell: string): string[] | undefined =>
	cell === '?' ? undefined : cell.split(',').filter(Boolean);

export const endpoints: Endpoint[] = rows('endpoints.tsv').map(
	([resource, operation, path, method, host, cu, kind, source]) => ({
		resource,
		operation,
		path,
		method: method as Endpoint['method'],
		host: host as Endpoint['host'],
		computeUnits: cu === '' ? undefined : Number(cu),
		kind: kind as Endpoint['kind'],
		source,
	}),
);

const endpointsByPath = new Map(endpoints.map((endpoint) => [endpoint.path, endpoint]));

export const variants: Variant[] = rows('parameters.tsv').map(
	([path, scope, required, optional, source]) => {
		const endpoint = endpointsByPath.get(path);
		if (!endpoint)
			throw new Error(`parameters.tsv names ${path}, which endpoints.tsv does not list`);
		return {
			path,
			scope,
			required: names(required),
			optional: names(optional),
			where: endpoint.method === 'GET' ? 'query' : 'body',
			source,
		};
	},
);

/** The endpoint of a path (lower case, as the table spells every path). */
export function endpointOf(path: string): Endpoint | undefined {
	return endpointsByPath.get(path);
}

/** Every documented variant of an endpoint, in table order. */
export function variantsOf(path: string): Variant[] {
	return variants.filter((variant) => variant.path === path);
}
