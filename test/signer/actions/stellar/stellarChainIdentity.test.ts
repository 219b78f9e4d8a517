/**
 * The Horizon the Stellar family reads (pinned in RPC URLs) must show, by its network passphrase
 * (GET /'s network_passphrase), the network the item signs for: a Horizon on 127.0.0.1 answering
 * mainnet's for chain 1501 is refused before anything else is asked of it, through n8n's own HTTP
 * helper; the right one is checked once per execution, then read by GET, its 404 problems read as
 * answers (no such account).
 */
import { Keypair } from '@stellar/stellar-base';
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
// n8n's HTTP helper itself (this.helpers.httpRequest in a running node).
import { httpRequest } from 'n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions';

import { rpcUrlCache } from '../../../../packages/signer/nodes/ExpandSigner/core';
import { horizonOf } from '../../../../packages/signer/nodes/ExpandSigner/actions/stellar/fields';
import type { StellarSession } from '../../../../packages/signer/nodes/ExpandSigner/actions/stellar/session';
import { accountSequence } from '../../../../packages/signer/nodes/ExpandSigner/families/stellar';
import {
	type Horizon,
	MAINNET_PASSPHRASE,
	startHorizon,
	TESTNET_PASSPHRASE,
} from '../../../helpers/horizonServer';

const ACCOUNT = Keypair.random().publicKey();

let horizon: Horizon;
afterEach(async () => await horizon.close());

async function serve(passphrase: string) {
	horizon = await startHorizon({
		passphrase,
		ledger: { sequence: 1, closedAt: 1_790_000_000 },
		accounts: new Map([[ACCOUNT, '4100000000']]),
		transactions: new Map(),
	});
}

/** The Horizon of chain 1501 as an item reaches it: the URL pinned, n8n's HTTP helper. */
function pinnedHorizon() {
	const context = {
		getNode: () => ({ name: 'Sign', type: 'expandSigner', typeVersion: 1, parameters: {} }),
		helpers: { httpRequest: async (options: IHttpRequestOptions) => await httpRequest(options) },
	} as unknown as IExecuteFunctions;
	const session = { rpcUrls: rpcUrlCache(new Map([['1501', horizon.url]])) } as StellarSession;
	return horizonOf.call(context, 0, session, '1501');
}

test('a Horizon of another network is refused, and nothing else is asked of it', async () => {
	await serve(MAINNET_PASSPHRASE);
	await expect(accountSequence(pinnedHorizon(), ACCOUNT)).rejects.toThrow(
		`Refused by the rule "rpcChainId": the node pinned in the credential for chain 1501 answers with the network passphrase "${MAINNET_PASSPHRASE}", not "${TESTNET_PASSPHRASE}"`,
	);
	expect(horizon.requests.map((request) => request.path)).toEqual(['/']);
});

test("the network's own Horizon is checked once, then read; its 404 is an answer", async () => {
	await serve(TESTNET_PASSPHRASE);
	const node = pinnedHorizon();
	expect(await accountSequence(node, ACCOUNT)).toBe(4100000000n);
	expect(await accountSequence(node, Keypair.random().publicKey())).toBeUndefined();
	expect(horizon.requests.map((request) => request.path)).toEqual([
		'/',
		`/accounts/${ACCOUNT}`,
		expect.stringMatching(/^\/accounts\/G/),
	]);
});
