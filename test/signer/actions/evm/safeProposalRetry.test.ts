/**
 * Propose to Safe without a payout ID whose post to the Safe Transaction Service fails. Its safeTxHash
 * is bound to the item (oneItemPerTransaction) before the post; the proposal never joins the queue, so
 * a rerun reads the same Safe nonce and makes the same safeTxHash. When the service then does not hold
 * it, the binding is given up and a rerun, under a payout ID too, proposes it; when the service cannot
 * say, the binding stays (the error says so): a payout ID is refused for it, and a rerun without one
 * posts it again. A front on the devnet's service answers 503 where the test says.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { Wallet } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { devnetCredentials, devnetSignerKey } from '../../../helpers/devnetCredentials';
import { FrontAnswer, startLyingFront } from '../../../helpers/lyingFront';
import { ITEMS, runPipeline } from '../../../helpers/n8n';
import { proposeNode } from '../../../helpers/safeProposals';
import { useDevnet } from '../../../helpers/useDevnet';

const folder = mkdtempSync(join(tmpdir(), 'expand-safe-retry-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = folder;

let devnet: Devnet;
useDevnet((started) => (devnet = started));

/** A front on the devnet's service answering 503 to the requests `failing` picks, passing the rest on. */
const failingFront = async (failing: (method: string, path: string) => boolean) =>
	await startLyingFront(devnet.safe.serviceUrl, (path, _body, method) =>
		failing(method, path) ? new FrontAnswer(503, { detail: 'unavailable' }) : undefined,
	);

/** One execution proposing 1,000 wei from the Safe to `payee` through the service at `serviceUrl`. */
async function propose(serviceUrl: string, payee: string, payoutId = ''): Promise<IDataObject> {
	const item = { payoutId, chainId: '31337', to: payee, value: '1000' };
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([item]) } },
			proposeNode(devnet, { payoutId: '={{ $json.payoutId }}' }),
		],
		devnetCredentials(devnet, {
			signer: devnetSignerKey({
				passphrase: '',
				payoutLedgerFolder: folder,
				requireIntent: 'never',
			}),
			safe: { serviceUrl },
		}),
	);
	expect(result.error).toBeUndefined();
	return result.output('Propose')[0].json;
}

const failedHash = (error: unknown) => /proposal (0x[0-9a-f]{64})/.exec(String(error))?.[1];

test('the post answered 503 and the service then does not hold the proposal: the binding is given up, and a rerun under a payout ID proposes the same safeTxHash on the same Safe nonce', async () => {
	const payee = Wallet.createRandom().address;
	const front = await failingFront(
		(method, path) => method === 'POST' && path.includes('multisig-transactions'),
	);
	let failed: IDataObject;
	try {
		failed = await propose(front.url, payee);
	} finally {
		await front.close();
	}
	expect(failed.error).toMatch(
		/ The Safe API does not hold proposal 0x[0-9a-f]{64}: nothing was proposed, and a rerun proposes it again \(item 0\)$/,
	);
	const again = await propose(devnet.safe.serviceUrl, payee, 'safe-retry-1');
	expect(again.error).toBeUndefined();
	expect(again).toMatchObject({ safeTxHash: failedHash(failed.error), payoutId: 'safe-retry-1' });
});

test('the post answered 503 and the service cannot say whether it holds the proposal: the binding stays and the error says so; a payout ID is refused for it, and a rerun without one posts it', async () => {
	const payee = Wallet.createRandom().address;
	// The post, and the service's answer for the one proposal (not the queue the nonce is read from).
	const front = await failingFront(
		(method, path) =>
			(method === 'POST' && path.includes('multisig-transactions')) ||
			path.includes('/api/v1/multisig-transactions/'),
	);
	let failed: IDataObject;
	try {
		failed = await propose(front.url, payee);
	} finally {
		await front.close();
	}
	expect(failed.error).toMatch(
		/ Whether the Safe API holds proposal 0x[0-9a-f]{64} is unknown: its safeTxHash stays bound to this item, and a payout ID is refused for it; run this again without a payout ID to post it again, or check the Safe's queue in Safe\{Wallet\} \(item 0\)$/,
	);
	const hash = failedHash(failed.error);
	const withId = await propose(devnet.safe.serviceUrl, payee, 'safe-retry-2');
	expect(withId.error).toMatch(
		new RegExp(
			`^Refused by the rule "oneItemPerTransaction": transaction ${hash} was signed for item 0 of execution [^ ]+ on [0-9T:.-]+Z; this is payout ID "safe-retry-2", `,
		),
	);
	const again = await propose(devnet.safe.serviceUrl, payee);
	expect(again.error).toBeUndefined();
	expect(again.safeTxHash).toBe(hash);
});
