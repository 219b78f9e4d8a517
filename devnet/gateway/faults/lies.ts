import type { Params } from '../params';

/** A form a lie names: its recipient (`to`) and, for a swap, the amount it asks (smallest units, as sent). */
export interface LiedForm {
	recipient: string;
	amount: string;
}

/**
 * How the gateway lies about the transactions a write builds, as a compromised API could: the form
 * whose recipient (`to`) a lie names is answered with several copies of its transaction (multiply),
 * with none (drop), with the other form's transaction (swap), or one form with none and another with
 * two (dropOneDoubleAnother). Forms the lie does not name get their own transaction.
 */
export type TransactionLie =
	| { mode: 'multiply'; recipient: string; copies: number }
	| { mode: 'drop'; recipient: string }
	| { mode: 'swap'; forms: [LiedForm, LiedForm] }
	| { mode: 'dropOneDoubleAnother'; dropped: string; doubled: string };

/** Builds the devnet's own answer (its `data`) for a write's parameters. */
export type Build = (params: Params) => Promise<unknown>;

/** The `data` a write is answered with under `lie`. */
export async function liedAnswer(
	lie: TransactionLie,
	params: Params,
	build: Build,
): Promise<unknown> {
	const to = String(params.to ?? '').toLowerCase();
	const names = (recipient: string) => to !== '' && recipient.toLowerCase() === to;
	switch (lie.mode) {
		case 'multiply':
			if (!names(lie.recipient)) break;
			return new Array(lie.copies).fill(await build(params));
		case 'drop':
			if (!names(lie.recipient)) break;
			return [];
		case 'swap': {
			const index = lie.forms.findIndex((form) => names(form.recipient));
			if (index === -1) break;
			const other = lie.forms[1 - index];
			return await build({ ...params, to: other.recipient, amount: other.amount });
		}
		case 'dropOneDoubleAnother': {
			if (names(lie.dropped)) return [];
			if (!names(lie.doubled)) break;
			const transaction = await build(params);
			return [transaction, transaction];
		}
	}
	return await build(params);
}
