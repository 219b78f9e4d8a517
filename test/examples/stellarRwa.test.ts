/**
 * The RWA example on Stellar (examples/stellar-rwa-issue-transfer.devnet.json, as saved, through
 * n8n-core's engine) on the devnet's Stellar testnet, chain 1501, with the playground's Stellar key
 * (the devnet mnemonic): the holder's and the receiver's trustlines, the issuer's authorisation (RWA1
 * has auth_required), the issue and the transfer, each built by the gateway (the authorisation by the
 * example's Code node), signed by the step's account, sent and confirmed; RWA1 on the holder's and
 * the receiver's trustlines as the devnet's Horizon shows them, every step's payout mined. The issue
 * and the transfer reach the Signer with the intent the Expand node wrote (a payment of CODE:ISSUER in
 * stroops), which no step of the example rewrites.
 */
import * as path from 'node:path';

import type { Devnet, DevnetStellar } from '../../devnet';
import { stellarPayoutChain, stellarPayoutKey } from '../../playground/prepare';
import { readSavedWorkflow, runSavedWorkflow } from '../../scripts/engine/savedWorkflow';
// The engine is released after the file's tests.
import '../helpers/n8n';
import { devnetExpandApi } from '../helpers/devnetCredentials';
import { payoutLedger } from '../helpers/examplePayoutRun';
import { useDevnet } from '../helpers/useDevnet';

const EXAMPLE = path.join(
	__dirname,
	'..',
	'..',
	'examples',
	'stellar-rwa-issue-transfer.devnet.json',
);
const ledger = payoutLedger('stellar-rwa-');

let devnet: Devnet;
let testnet: DevnetStellar;
useDevnet((started) => {
	devnet = started;
	testnet = stellarPayoutChain(started);
});

interface HorizonBalance {
	asset_code?: string;
	asset_issuer?: string;
	balance: string;
	is_authorized?: boolean;
}

/** The account's RWA1 trustline as the devnet's Horizon answers it, undefined without one. */
async function rwaLine(account: number): Promise<HorizonBalance | undefined> {
	const response = await fetch(`${testnet.rpcUrl}/accounts/${testnet.wallets[account].publicKey}`);
	expect(response.status).toBe(200);
	const { balances } = (await response.json()) as { balances: HorizonBalance[] };
	return balances.find(
		(entry) => entry.asset_code === testnet.rwa.code && entry.asset_issuer === testnet.rwa.issuer,
	);
}

test('trustlines, the issuer’s authorisation, issue and transfer: each signed by its account, sent and confirmed; 750 RWA1 on the holder’s trustline and 250 on the receiver’s (Horizon), every step mined', async () => {
	expect(testnet.rwa.issuer).toBe(testnet.wallets[3].publicKey);
	expect([await rwaLine(1), await rwaLine(2)]).toEqual([undefined, undefined]);
	const result = await runSavedWorkflow(readSavedWorkflow(EXAMPLE), {
		expandApi: devnetExpandApi(devnet),
		expandStellarKeyApi: stellarPayoutKey(devnet, ledger),
	});
	expect(result.error).toBeUndefined();
	expect(await rwaLine(1)).toMatchObject({ balance: '750.0000000', is_authorized: true });
	expect(await rwaLine(2)).toMatchObject({ balance: '250.0000000', is_authorized: true });
	const outcome = result.output('Result')[0].json as {
		confirmed: boolean;
		payouts: Array<{ payoutId: string; chainStatus: string }>;
		balances: Record<string, string>;
	};
	expect(outcome.confirmed).toBe(true);
	expect(outcome.payouts.map((payout) => [payout.payoutId, payout.chainStatus]).sort()).toEqual(
		[
			'rwa1-issue-2026-11-authorize',
			'rwa1-issue-2026-11-issue',
			'rwa1-issue-2026-11-transfer',
			'rwa1-issue-2026-11-trustline-holder',
			'rwa1-issue-2026-11-trustline-receiver',
		].map((payoutId) => [payoutId, 'mined']),
	);
	expect(outcome.balances).toEqual({ holder: '7500000000', receiver: '2500000000' });
	// Each step signed by its own account: the trustlines by the holder and the receiver, the authorisation and the issue by the issuer, the transfer by the holder.
	expect(
		['Sign trustlines', 'Sign authorization', 'Sign issue', 'Sign transfer'].flatMap((name) =>
			result.output(name).map((item) => item.json.from),
		),
	).toEqual([1, 2, 3, 3, 1].map((index) => testnet.wallets[index].publicKey));
	// The Expand node's own intent is what the Signer held each payment to: nothing between them.
	const { connections } = readSavedWorkflow(EXAMPLE);
	const payment = (build: string, sign: string, from: number, to: number, whole: string) => {
		expect(connections[build].main[0]?.map((next) => next.node)).toEqual([sign]);
		expect(result.output(build)[0].json.intent).toMatchObject({
			effect: 'transfer',
			chainId: testnet.chainId,
			sender: testnet.wallets[from].publicKey,
			recipient: testnet.wallets[to].publicKey,
			token: testnet.rwa.asset,
			amount: `${whole}0000000`,
			amountTyped: whole,
			decimals: 7,
		});
	};
	payment('Build issue', 'Sign issue', 3, 1, '1000');
	payment('Build transfer', 'Sign transfer', 1, 2, '250');
});
