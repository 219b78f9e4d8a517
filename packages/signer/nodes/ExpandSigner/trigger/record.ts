import { createHash } from 'node:crypto';

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { activityLabelOf, type TurnkeyActivityLabel } from '../custody/turnkey/activityLabels';
import { SIGN_TRANSACTION_TYPE } from '../custody/turnkey/signTransaction';

import { PayoutJournal } from '../ledger/journal';
import { ledgerStoreOf } from '../ledger/ledgerStoreOf';
import type { LedgerStore } from '../ledger/store';
import { credentialNameOf, journalFamilyOf, ledgerOfCredential } from './credential';
import { type Custodian, type CustodianEvent, STATUS_RANKS } from './custodians';

/** A record name's part for a custodian's ID: its digest (IDs are the custodian's text, names are ours). */
const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 40);

/** The exclusive record of an event ID: whoever creates it first handles the event. */
const eventRecord = (custodian: Custodian, eventId: string) =>
	`custodian-event-${custodian}-${digest(eventId)}`;

/** The exclusive record of a transaction's status: the first event with that status emits it. */
const statusRecord = (custodian: Custodian, transactionId: string, status: string) =>
	`custodian-status-${custodian}-${digest(transactionId)}-${status}`;

const STATUS_WORD = /^[A-Z0-9_]{1,64}$/;

/** Whether a record exists (one that cannot be read counts as existing: it was created). */
async function exists(store: LedgerStore, name: string): Promise<boolean> {
	const read = await store.readJson(name, 0, 'a custodian status record', 'payoutLedgerFolder');
	return read.value !== undefined || read.unreadable !== undefined;
}

/** How long a sign-transaction activity's label is waited for (ms, per read): Turnkey may deliver an
 * activity's first events before the Signer that submitted it has its answer and labels it. */
const LABEL_WAITS_MS = [100, 200, 400, 800, 1000];

/**
 * The label the Signer wrote for a Turnkey activity it submitted (custody/turnkey/activityLabels.ts):
 * undefined for an activity of the organization this credential's Signer did not ask for. A label
 * only names the payout in the output and journal; it authorizes nothing.
 */
async function turnkeyLabel(
	store: LedgerStore,
	event: CustodianEvent,
): Promise<TurnkeyActivityLabel | undefined> {
	let label = await activityLabelOf(store, event.transactionId);
	if (label || event.data.type !== SIGN_TRANSACTION_TYPE) return label;
	for (const pause of LABEL_WAITS_MS) {
		await sleep(pause);
		label = await activityLabelOf(store, event.transactionId);
		if (label) return label;
	}
	return undefined;
}

/**
 * A verified event (receive.ts): emitted once per event ID and once per new status of its
 * transaction, never after a status of equal or higher rank, with one `status` entry in the payout
 * journal. Whatever is not new emits nothing (the execution ends without items).
 */
export async function recordEvent(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const custodian = this.getNodeParameter('custodian', 0) as Custodian;
	const chainFamily = String(this.getNodeParameter('chainFamily', 0, '') ?? '');
	const emitted = (this.getNodeParameter('statuses', 0, []) as string[]) ?? [];
	const credentials = await this.getCredentials(credentialNameOf(custodian, chainFamily));
	const ledger = ledgerOfCredential(custodian, credentials);
	if (typeof ledger === 'string') throw new NodeOperationError(this.getNode(), ledger);
	const store = ledgerStoreOf(this, ledger);
	const journal = new PayoutJournal(this.getNode(), store, {
		family: journalFamilyOf(custodian, chainFamily),
		workflowId: String(this.getWorkflow().id ?? ''),
		executionId: this.getExecutionId(),
		node: this.getNode().name,
	});
	const out: INodeExecutionData[] = [];
	for (const item of this.getInputData()) {
		const event = item.json as unknown as CustodianEvent;
		const note = (what: string) =>
			this.logger.info(
				`Expand Signer Trigger: ${custodian} event ${event.eventId} ${what}; nothing emitted`,
			);
		if (event.custodian !== custodian || !event.eventId || !event.transactionId) continue;
		if (!STATUS_WORD.test(event.status)) {
			this.logger.warn(
				`Expand Signer Trigger: ${custodian} event ${event.eventId} has a status that is not a status word; nothing emitted`,
			);
			continue;
		}
		if (
			!(await store.create(
				eventRecord(custodian, event.eventId),
				{ at: new Date().toISOString() },
				0,
			))
		) {
			note('was received before');
			continue;
		}
		const ranks = STATUS_RANKS[custodian];
		const mine = ranks[event.status];
		if (
			!(await store.create(
				statusRecord(custodian, event.transactionId, event.status),
				{ eventId: event.eventId, at: new Date().toISOString() },
				0,
			))
		) {
			note(`repeats status ${event.status} of ${event.transactionId}`);
			continue;
		}
		let later: string | undefined;
		let previousStatus = '';
		let previousRank = 0;
		if (mine !== undefined) {
			for (const [status, rank] of Object.entries(ranks)) {
				if (status === event.status) continue;
				if (rank < mine && rank <= previousRank) continue;
				if (!(await exists(store, statusRecord(custodian, event.transactionId, status)))) continue;
				if (rank >= mine) {
					later = status;
					break;
				}
				previousStatus = status;
				previousRank = rank;
			}
		}
		if (later) {
			note(
				`(${event.status}) is older than status ${later} already seen for ${event.transactionId}`,
			);
			continue;
		}
		// Turnkey's events name no payout: the Signer's label of the activity does, when it asked for it.
		const label = custodian === 'turnkey' ? await turnkeyLabel(store, event) : undefined;
		const payoutId = label ? label.payoutId : event.payoutId;
		const journalNote = await journal.record(0, 'status', {
			kind: 'custodianTransaction',
			custodian,
			custodianId: event.transactionId,
			custodianStatus: event.status,
			payoutId,
			transactionHash: event.txHash,
			...(label ? { chainId: label.chainId, account: label.from, operation: label.operation } : {}),
		});
		if ('journalError' in journalNote)
			this.logger.warn(`Expand Signer Trigger: ${journalNote.journalError}`);
		if (emitted.length && !emitted.includes(event.status)) continue;
		const json: IDataObject = {
			custodian,
			eventId: event.eventId,
			eventType: event.eventType,
			transactionId: event.transactionId,
			payoutId,
			...(custodian === 'turnkey'
				? {
						knownPayout: label !== undefined,
						chainId: label?.chainId ?? '',
						account: label?.from ?? '',
						operation: label?.operation ?? '',
					}
				: {}),
			status: event.status,
			...(previousStatus ? { previousStatus } : {}),
			txHash: event.txHash,
			amount: event.amount,
			assetId: event.assetId,
			data: event.data,
			...journalNote,
		};
		out.push({ json, pairedItem: { item: 0 } });
	}
	return [out];
}
