/**
 * The toncenter API the TON family reads (pinned in RPC URLs) must show, by its zero state
 * (getMasterchainInfo's init.root_hash, asked by GET), the network the item signs for: an API on
 * 127.0.0.1 answering mainnet's for chain 1101 is refused before anything else is asked of it, through
 * n8n's own HTTP helper; the right one is checked once per execution, then read by GET and POST, its
 * refusals ({ok:false} with an HTTP 500) read as answers.
 */
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
// n8n's HTTP helper itself (this.helpers.httpRequest in a running node).
import { httpRequest } from 'n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions';

import { rpcUrlCache } from '../../../../packages/signer/nodes/ExpandSigner/core';
import { nodeOf } from '../../../../packages/signer/nodes/ExpandSigner/actions/ton/fields';
import type { TonSession } from '../../../../packages/signer/nodes/ExpandSigner/actions/ton/session';
import { walletSeqno } from '../../../../packages/signer/nodes/ExpandSigner/families/ton';
import {
	MAINNET_ZEROSTATE,
	startToncenter,
	type Toncenter,
} from '../../../helpers/toncenterServer';

const TESTNET_ZEROSTATE = 'gj+B8wb/AmlPk1z1AhVI484rhrUpgSr2oSFIh56VoSg=';
const WALLET = `0:${'55'.repeat(32)}`;

let toncenter: Toncenter;
afterEach(async () => await toncenter.close());

async function serve(zerostate: string) {
	toncenter = await startToncenter({
		zerostate,
		lastSeqno: 1,
		time: 1_790_000_000,
		accounts: new Map([[WALLET, { state: 'active', balance: '1', seqno: 41 }]]),
		jettonWallets: new Map(),
		transactions: new Map(),
	});
}

/** The TON node of chain 1101 as an item reaches it: the URL pinned, n8n's HTTP helper. */
function pinnedNode() {
	const context = {
		getNode: () => ({ name: 'Sign', type: 'expandSigner', typeVersion: 1, parameters: {} }),
		helpers: { httpRequest: async (options: IHttpRequestOptions) => await httpRequest(options) },
	} as unknown as IExecuteFunctions;
	const session = { rpcUrls: rpcUrlCache(new Map([['1101', toncenter.url]])) } as TonSession;
	return nodeOf.call(context, 0, session, '1101');
}

test("an API showing another network's zero state is refused, and nothing else is asked of it", async () => {
	await serve(MAINNET_ZEROSTATE);
	await expect(walletSeqno(pinnedNode(), WALLET)).rejects.toThrow(
		`Refused by the rule "rpcChainId": the node pinned in the credential for chain 1101 answers getMasterchainInfo with the zero state ${MAINNET_ZEROSTATE}`,
	);
	expect(toncenter.requests.map((request) => request.method)).toEqual(['getMasterchainInfo']);
});

test("the network's own API is checked once, then read by GET and POST; its refusals are answers", async () => {
	await serve(TESTNET_ZEROSTATE);
	const node = pinnedNode();
	expect(await walletSeqno(node, WALLET)).toBe(41);
	expect(await walletSeqno(node, WALLET)).toBe(41);
	expect(toncenter.requests.map((request) => request.method)).toEqual([
		'getMasterchainInfo',
		'getAddressInformation',
		'runGetMethod',
		'getAddressInformation',
		'runGetMethod',
	]);
	expect(toncenter.requests[1].params).toEqual({ address: WALLET });
	toncenter.bend = (method) =>
		method === 'runGetMethod'
			? { ok: false, error: 'LITE_SERVER_UNKNOWN: cannot run', code: 500 }
			: undefined;
	await expect(walletSeqno(node, WALLET)).rejects.toThrow(
		"The chain's node refused runGetMethod seqno: LITE_SERVER_UNKNOWN: cannot run",
	);
});
