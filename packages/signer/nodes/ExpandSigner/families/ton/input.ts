import { Cell, loadStateInit } from '@ton/core';
import type { IDataObject } from 'n8n-workflow';

import { bounceOf, tonAddressKey } from './address';
import { commentBody } from './comment';
import {
	MAX_MESSAGES,
	type TonOutMessage,
	UndecodableTonTransaction,
	WALLET_APP_MODE,
} from './message';

/** The most a message can carry: Coins is a VarUInteger 16, at most 15 bytes. */
const MAX_COINS = 2n ** 120n - 1n;

const refuse = (reason: string) =>
	new UndecodableTonTransaction(`The TON transaction of the input item cannot be read: ${reason}`);

/** The one field of the names given that is present; two present is ambiguous, so refused. */
function oneOf(raw: IDataObject, names: string[], where: string): unknown {
	const present = names.filter((name) => raw[name] !== undefined && raw[name] !== null);
	if (present.length > 1) throw refuse(`${where} names both ${present.join(' and ')}`);
	return present.length ? raw[present[0]] : undefined;
}

/** One cell from a base64 BOC; anything else (no BOC, several roots) is refused. */
function cellOf(text: unknown, what: string): Cell {
	if (typeof text !== 'string' || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text))
		throw refuse(`${what} is not a base64 BOC`);
	let cells: Cell[];
	try {
		cells = Cell.fromBoc(Buffer.from(text, 'base64'));
	} catch {
		throw refuse(`${what} is not a base64 BOC`);
	}
	if (cells.length !== 1) throw refuse(`${what} holds ${cells.length} root cells, not one`);
	return cells[0];
}

/** A state init cell read whole, so the deployment it asks is the one signed. */
function stateInitOf(text: unknown, where: string): Cell {
	const cell = cellOf(text, `the stateInit of ${where}`);
	try {
		const slice = cell.beginParse();
		loadStateInit(slice);
		slice.endParse();
	} catch {
		throw refuse(`the stateInit of ${where} is not a StateInit`);
	}
	return cell;
}

function nanotons(value: unknown, where: string): bigint {
	const text =
		typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : String(value ?? '');
	if (!/^\d+$/.test(text)) throw refuse(`the amount of ${where} is not a whole number of nanotons`);
	const amount = BigInt(text);
	if (amount > MAX_COINS) throw refuse(`the amount of ${where} is more than a message can carry`);
	return amount;
}

/** Fields a message could mean to be sent with that the Signer does not send: extra currencies. */
const UNSENT = ['extra_currency', 'extraCurrency'];

/**
 * The send mode a message asks (`mode` or `sendMode`), else wallet apps' 3: read, never dropped, so a
 * mode that empties or destroys the wallet is refused as what it is (effect.ts).
 */
function modeOf(entry: IDataObject, where: string): number {
	const mode = oneOf(entry, ['mode', 'sendMode'], where);
	if (mode === undefined) return WALLET_APP_MODE;
	const text = typeof mode === 'number' || typeof mode === 'string' ? String(mode) : '';
	if (!/^\d{1,3}$/.test(text) || Number(text) > 255)
		throw refuse(`the send mode of ${where} is not a whole number from 0 to 255`);
	return Number(text);
}

function messageOf(
	raw: unknown,
	where: string,
	fields: { to: string[]; value: string[]; body: string[]; other: string[] },
): TonOutMessage {
	if (!raw || typeof raw !== 'object' || Array.isArray(raw))
		throw refuse(`${where} is not an object`);
	const entry = raw as IDataObject;
	const address = oneOf(entry, fields.to, where);
	const to = typeof address === 'string' ? tonAddressKey(address) : undefined;
	if (!to) throw refuse(`${where} names no TON address to send to`);
	// A field of the other shape (a TON Connect message's "to" or "body") or extra currencies would be dropped.
	const dropped = [...fields.other, ...UNSENT].find(
		(name) =>
			entry[name] !== undefined &&
			entry[name] !== null &&
			entry[name] !== '' &&
			!(
				typeof entry[name] === 'object' &&
				!Array.isArray(entry[name]) &&
				!Object.keys(entry[name] as IDataObject).length
			),
	);
	if (dropped) throw refuse(`${where} names ${dropped}, which the signer would not send`);
	const bodyText = oneOf(entry, [...fields.body, 'comment'], where);
	let body: Cell | undefined;
	if (entry.comment !== undefined && entry.comment !== null) {
		if (typeof entry.comment !== 'string') throw refuse(`the comment of ${where} is not a text`);
		body = commentBody(entry.comment);
	} else if (bodyText !== undefined && bodyText !== '')
		body = cellOf(bodyText, `the body of ${where}`);
	if (entry.bounce !== undefined && typeof entry.bounce !== 'boolean')
		throw refuse(`the bounce flag of ${where} is not true or false`);
	return {
		to,
		value: nanotons(oneOf(entry, fields.value, where), where),
		bounce: (entry.bounce as boolean | undefined) ?? bounceOf(address as string),
		mode: modeOf(entry, where),
		...(body ? { body } : {}),
		...(entry.stateInit !== undefined && entry.stateInit !== null && entry.stateInit !== ''
			? { stateInit: stateInitOf(entry.stateInit, where) }
			: {}),
	};
}

/**
 * The messages of a From Input Item transaction: one message `{to|address, value|amount, body|payload|data
 * | comment, stateInit?, bounce?, mode|sendMode?}`, or TON Connect's `{validUntil?, messages: [{address,
 * amount, payload?, stateInit?}]}`. Each is sent with the mode it names, else 3 as wallet apps send; its
 * bounce flag is the one given, else the address form's (EQ… bounces, UQ… does not, a raw address
 * bounces). Anything else is refused, and so is a field that would not be sent (another shape's name in a
 * TON Connect message, extra currencies).
 */
export function messagesFromInput(value: unknown): TonOutMessage[] {
	if (!value || typeof value !== 'object' || Array.isArray(value))
		throw refuse('it is neither one message nor a TON Connect request with messages');
	const raw = value as IDataObject;
	if (raw.messages === undefined)
		return [
			messageOf(raw, 'the message', {
				to: ['to', 'address'],
				value: ['value', 'amount'],
				body: ['body', 'payload', 'data'],
				other: [],
			}),
		];
	if (!Array.isArray(raw.messages) || !raw.messages.length)
		throw refuse('its messages are not a list of at least one message');
	if (raw.messages.length > MAX_MESSAGES.W5)
		throw refuse(
			`it holds ${raw.messages.length} messages, more than a wallet sends at once (${MAX_MESSAGES.W5})`,
		);
	return raw.messages.map((message, index) =>
		messageOf(message, `message ${index + 1}`, {
			to: ['address'],
			value: ['amount'],
			body: ['payload'],
			other: ['to', 'value', 'body', 'data'],
		}),
	);
}
