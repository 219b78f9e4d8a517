import type { IDataObject } from 'n8n-workflow';

import { FORM_ITEM_KEY, intentDigest } from '../core';
import { Refusal } from './refusal';

/**
 * The form item an intent was written for (`intent.formItem`, written by the core's
 * nodes/Expand/helpers/formItem.ts; docs/outputs.md): the Signer signs at most one transaction per
 * form item (ledger/formItems.ts).
 */
export interface FormItem {
	executionId: string;
	nodeId: string;
	node: string;
	/** The node's run in the execution: a loop runs it again with the same item indexes. */
	run: number;
	item: number;
	/** The transaction's place in the answer: several only for alternatives (a swap per DEX). */
	index: number;
	count: number;
	digest: string;
}

/** The form item in words, for refusals: "form item 0 of node "Transfer" in execution 42". */
export function formItemWords(formItem: FormItem): string {
	const run = formItem.run ? ` (run ${formItem.run + 1})` : '';
	const execution = formItem.executionId
		? `execution ${formItem.executionId}`
		: 'an unsaved execution';
	return `form item ${formItem.item} of node "${formItem.node}"${run} in ${execution}`;
}

/** What is bound once: the execution, the node, its run and the item (not the alternative's index). */
export function formItemKey(formItem: FormItem): string {
	return JSON.stringify([
		formItem.executionId,
		formItem.nodeId || formItem.node,
		formItem.run,
		formItem.item,
	]);
}

function unreadable(reason: string): Refusal {
	return new Refusal(
		'intent',
		`the intent's form item (${FORM_ITEM_KEY}) cannot be read (${reason}); it binds the transaction to the one form item that asked for it`,
	);
}

const wholeNumber = (value: unknown): value is number =>
	typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * Reads the form item of a raw intent; undefined when it names none (an intent a workflow wrote, or
 * one from a core package before 0.2.0's form items). Its digest must be that of the intent's own
 * fields: a form item moved onto an intent that asks something else is refused.
 */
export function readFormItem(intent: IDataObject): FormItem | Refusal | undefined {
	const raw = intent[FORM_ITEM_KEY];
	if (raw === undefined || raw === null) return undefined;
	if (typeof raw !== 'object' || Array.isArray(raw)) return unreadable('not an object');
	const fields = raw as IDataObject;
	for (const name of ['executionId', 'nodeId', 'node', 'digest'])
		if (typeof fields[name] !== 'string') return unreadable(`${name} is not text`);
	for (const name of ['run', 'item', 'index', 'count'])
		if (!wholeNumber(fields[name])) return unreadable(`${name} is not a whole number`);
	const formItem = fields as unknown as FormItem;
	if (!formItem.node && !formItem.nodeId) return unreadable('it names no node');
	if (formItem.index >= formItem.count)
		return unreadable(`index ${formItem.index} is not below count ${formItem.count}`);
	const digest = intentDigest(intent);
	if (formItem.digest !== digest)
		return new Refusal(
			'intent',
			`the intent's form item (${formItemWords(formItem)}) carries the digest ${formItem.digest}, but what the intent asks digests to ${digest}: the form item was written for another intent`,
		);
	return formItem;
}

/** With Require Intent = Always, an intent must name its form item too: one without is refused. */
export function missingFormItemRefusal(): Refusal {
	return new Refusal(
		'requireIntent',
		`the intent names no form item (${FORM_ITEM_KEY}), so the transaction cannot be held to one transaction per form item; sign what an Expand node 0.2.0 or later built, or set Require Intent to "When a Spending Rule Is Set" on the credential`,
	);
}
