/** The devnet's required-parameter checks come from its copy of the API's table (devnet/api), variant by variant. */
import { endpointOf } from '../../devnet/api';
import type { Devnet } from '../../devnet';
import { chainHandlers } from '../../devnet/gateway/handlers/chain';
import { protocolHandlers } from '../../devnet/gateway/handlers/protocols';
import { servedVariant } from '../../devnet/gateway/required';
import { call, query } from './client';
import { useDevnet } from '../helpers/useDevnet';

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const DATA_KEY_RESOURCES = new Set(['chain', 'liquidstaking', 'rwa']);
const served = Object.keys({ ...chainHandlers, ...protocolHandlers });
const cases = served.flatMap((path) =>
	(servedVariant(path)?.required ?? []).map((name) => [path, name] as const),
);

test('the devnet answers as the EVM variant, in the order its schema lists the required parameters', () => {
	expect(servedVariant('/fungibletoken/transfer')).toMatchObject({
		scope: 'EVM',
		required: ['amount', 'from', 'gas', 'to', 'tokenAddress'],
	});
	expect(servedVariant('/dex/getprice')).toMatchObject({
		scope: 'UniswapV2',
		required: ['path', 'amountIn'],
	});
});

test.each(cases)('%s without %s answers its missingProperty', async (path, name) => {
	const endpoint = endpointOf(path);
	if (!endpoint) throw new Error(`${path} is not in the table`);
	const params: Record<string, string> = { chainId: '31337' };
	for (const other of servedVariant(path)?.required ?? [])
		if (other !== name) params[other] = other === 'chainId' ? '31337' : 'x';
	delete params[name];
	const host = endpoint.host === 'historical' ? devnet.historicalUrl : devnet.baseUrl;
	const reply =
		endpoint.method === 'POST'
			? await call(`${host}${path}`, devnet.apiKey, { method: 'POST', body: params })
			: await call(query(host, path, params), devnet.apiKey);
	const inner = { valid: false, message: { missingProperty: name }, code: 400 };
	expect(reply).toEqual({
		status: 400,
		body: {
			status: 400,
			msg: 'failed to query',
			[DATA_KEY_RESOURCES.has(endpoint.resource) ? 'data' : 'error']: inner,
		},
	});
});
