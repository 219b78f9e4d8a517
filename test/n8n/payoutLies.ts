/**
 * Both payout examples' devnet variants in the running n8n against the attack of issue 32: the devnet
 * API (devnet/gateway/faults/lies.ts) answers Erin's transfer (row 2 of the examples' stand-in sheets) with
 * no transaction and Frank's (row 3) with two, which an example pairing by position signs as Erin's
 * payment to Frank. Each run stops at One transfer per row naming both rows, before the approval,
 * before anything is signed or proposed: no balance, no nonce, no proposal moves. Called by run.ts
 * after the payout run and Safe checks.
 */
import { existsSync, rmSync } from 'node:fs';

import { until } from '../../playground/wait';
import { assert, equal } from '../helpers/checks';
import { holdings as walletHoldings, PAYOUT_RUN_ID, shown } from './payoutRun';
import { holdings as safeHoldings, SAFE_RUN_ID, serviceCount } from './safePayout';
import type { Session } from './session';

const ERIN = '0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097';
const FRANK = '0xcd3B766CCDd6AE721141F452C550Ca635964ce71';
const START = 'Start payout run';
/** The nodes that must not have run: the approval request and the Signer of each example. */
const AFTER_THE_GUARD: Record<string, string[]> = {
	[PAYOUT_RUN_ID]: ['Ask for approval', 'Sign payouts', 'Send'],
	[SAFE_RUN_ID]: ['Propose to Safe'],
};

/** Starts the example as Execute workflow does under the lie; returns where and why it stopped. */
async function runLiedTo(session: Session, workflowId: string): Promise<string> {
	const { devnet } = session;
	devnet.faults.lie = { mode: 'dropOneDoubleAnother', dropped: ERIN, doubled: FRANK };
	try {
		const id = await session.rest().runManually(workflowId, START);
		const execution = await until(
			`execution ${id} of ${workflowId} to end`,
			async () => {
				const current = await session.rest().execution(id);
				return ['new', 'running'].includes(current.status) ? undefined : current;
			},
			60_000,
		);
		const result = execution.data?.resultData;
		equal(execution.status, 'error', `${workflowId}: the run stopped`);
		const ran = AFTER_THE_GUARD[workflowId].filter((node) => result?.runData[node] !== undefined);
		equal(ran, [], `${workflowId}: no approval asked, nothing signed or proposed`);
		const message = result?.error?.message ?? '';
		// With issue 32's node guard, the Expand node refuses the answers before the example's own guard.
		if (result?.lastNodeExecuted === 'Build transfers') return `${workflowId}: ${message}`;
		equal(result?.lastNodeExecuted, 'One transfer per row', `${workflowId}: where the run stopped`);
		assert(
			message.startsWith('Payout run refused before anything is signed or proposed. '),
			`${workflowId}: n8n shows the whole refusal: ${message}`,
		);
		for (const refusal of [
			'row 2 (Erin) has 0 transactions, not one',
			'row 3 (Frank) has 2 transactions, not one',
		])
			assert(message.includes(refusal), `${workflowId}: the error names "${refusal}": ${message}`);
		return `${workflowId}: ${message}`;
	} finally {
		devnet.faults.lie = undefined;
	}
}

export async function payoutsAgainstLyingApi(session: Session): Promise<string> {
	const approval = session.out('payout-approval.json');
	rmSync(approval, { force: true });
	const wallet = shown(await walletHoldings(session));
	const safe = await safeHoldings(session);
	const proposals = await serviceCount(session);
	const stopped = [await runLiedTo(session, PAYOUT_RUN_ID), await runLiedTo(session, SAFE_RUN_ID)];
	assert(!existsSync(approval), 'no approval request written (payout-approval.json)');
	equal(
		shown(await walletHoldings(session)),
		wallet,
		'the paying wallet, the payees and its nonce unchanged',
	);
	equal(
		await safeHoldings(session),
		safe,
		"the Safe's and the payees' USDC and the Safe nonce unchanged",
	);
	equal(await serviceCount(session), proposals, 'the Safe service stand-in holds no new proposal');
	return stopped.join('\n    ');
}
