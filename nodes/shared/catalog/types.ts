/**
 * The operation catalog: one entry per API endpoint. Node properties, request building,
 * validation, pagination, amount formatting, docs/operations.md and the devnet's metering
 * are all derived from these entries, so adding an endpoint is adding one entry.
 */

import type { ReadableEffect } from '../intent';
import type { Host, HttpMethod } from '../transport/request';

export type { Host, HttpMethod };

/** `write` operations return an unsigned transaction to be signed and sent. */
export type OperationKind = 'read' | 'write';

/**
 * How a value is typed on the form and sent:
 * - text: sent as given (numbers travel as decimal strings, as the API expects); the form's n8n type is
 *   `string`. Not named `string` so that a spec does not read as an n8n node property to n8n's lint
 *   rules (docs/verification.md, "Catalog entries and the secret-parameter rule");
 * - boolean: a switch; `true`/`false` in a query, a JSON boolean in a body;
 * - array: comma-separated text or a JSON array on the form; comma-joined in a GET query,
 *   a JSON array in a POST body;
 * - json: raw JSON (an ABI, a parameter list), parsed and sent as JSON.
 */
export type ParameterType = 'text' | 'boolean' | 'array' | 'json';

/**
 * What a parameter is to the person filling the form: whose account (`who`), which token, contract
 * or position (`what`), how much (`amount`). The form shows these first, in that order.
 */
export type ParameterRole = 'who' | 'what' | 'amount';

/**
 * The asset an amount parameter counts: a token named by another parameter (`token`; the native
 * asset when that parameter is empty) or the chain's native asset (`native`). Such an amount may
 * be typed in whole units ("12.5"), converted exactly with the asset's decimals before sending.
 */
export type AmountUnit = 'token' | 'native';

/**
 * Who or what a write's parameter is in the intent the node outputs beside the unsigned transaction
 * (docs/outputs.md, "intent"), which Expand Signer holds the transaction to: the account that signs
 * (`sender`), the account paid, allowed to spend or receiving a swap's output (`recipient`), the owner
 * an approved spender takes tokens from (`owner`), the token the amount counts (`token`, where the
 * amount's own `tokenParam` is not the one every chain family uses). The amount is the first set
 * parameter with role `amount` and a `unit` (or `fixedDecimals`); an operation's `intentToken` composes
 * the token of several parameters.
 */
export type IntentPart = 'sender' | 'recipient' | 'owner' | 'token';

/**
 * What a write's transaction does, where Expand Signer can read it from the transaction itself (the
 * intent's readable effects, shared/intent.ts). A write without one is a call whose effect the Signer
 * cannot read (a swap, a deposit, a bridge): its contract must be on the signing credential's Allowed
 * Contracts and Programs.
 */
export type WriteEffect = ReadableEffect;

export interface ParameterSpec {
	/** The API's own parameter name, used as the n8n parameter name too. */
	name: string;
	type: ParameterType;
	/** Required by the API; when `protocols` names chain families ("EVM", "Solana"), only on chains of those families. */
	required?: boolean;
	/** The documented default; the form shows it, and the value is sent only when the user sets one. */
	default?: string | boolean;
	description: string;
	/** Allowed values (an enum); the form shows them as options. */
	options?: string[];
	/** A regular expression (source text) every non-empty value must match, checked before sending. */
	pattern?: string;
	/** What the pattern means in words, for the error message ("a whole number of wei"). */
	patternHint?: string;
	/** Protocols that use this parameter, where an operation's protocols differ (shown in the description). */
	protocols?: string[];
	/** Input hint shown in the empty field. */
	placeholder?: string;
	/**
	 * A gas limit the form may leave empty although the API requires it: the node estimates it
	 * through chain/estimategas before the request, for the transfer these parameters describe.
	 */
	estimate?: GasEstimateSpec;
	role?: ParameterRole;
	/** On an amount: the asset it counts, so it can be typed in whole units. */
	unit?: AmountUnit;
	/**
	 * With `unit: 'token'`: the parameter naming the token (its first entry when it is a list, as
	 * the input token of a swap path is); the native asset when it is empty.
	 */
	tokenParam?: string;
	/** With a list token parameter: `last` counts in its last entry (a swap path's output token) instead of its first. */
	tokenEntry?: 'last';
	/** On a write: what the parameter is in the intent output beside the transaction. */
	intent?: IntentPart;
	/**
	 * On an amount the API takes in whole units of an asset whose decimals the protocol fixes (a Stellar
	 * asset's 7): sent as typed; the intent states it in the smallest unit with `amountTyped` and these
	 * `decimals`, as an amount typed in whole units.
	 */
	fixedDecimals?: number;
}

/**
 * The transfer a gas estimate is made for, by parameter names: `amount` of the token named by
 * `token` (an ERC-20 transfer(to, amount) call to it), or of the native asset when `token` is empty.
 */
export interface GasEstimateSpec {
	from: string;
	to: string;
	amount: string;
	token: string;
}

/** How a list operation pages through its results. */
export interface PaginationSpec {
	/** `cursor`: the response carries the next cursor; `page`: page numbers up to a total. */
	style: 'cursor' | 'page';
	/** Request parameter that carries the cursor or page number. */
	requestParam: string;
	/** Field of `data` holding the records of one page. */
	itemsField: string;
	/** cursor style: field of `data` with the next cursor (empty or missing at the end). */
	nextField?: string;
	/** page style: field of `data` with the number of pages. */
	totalPagesField?: string;
}

/** Which field of the response holds an amount, and how its token is known. */
export interface AmountSpec {
	/** Dot path inside `data` (or inside each record for list operations), e.g. `balance`. */
	field: string;
	/** Request parameter naming the token contract; absent or empty means the chain's native asset. */
	tokenParam?: string;
	/** Field of the same record naming the token contract, when the response says it. */
	tokenField?: string;
}

/** A cross-parameter check, implemented in helpers/validation.ts. */
export type ValidationRule = 'blockRange';

/** Protocol-selection parameters, one per resource that selects a protocol (docs/reference/expand-api.md §3). */
export type ProtocolParameter =
	| 'dexId'
	| 'lendborrowId'
	| 'bridgeId'
	| 'oracleId'
	| 'yieldAggregatorId'
	| 'syntheticId'
	| 'derivativeId'
	| 'liquidStakingId'
	| 'nftProtocolId';

export interface OperationSpec {
	/** The resource: the API's first path segment, `chain`, `dex`, ..., or `usage` for the usage report. */
	resource: string;
	/** The API's operation name: `getbalance`, `historical/logs`, `issue`. */
	operation: string;
	/** Display name in Title Case: "Get Balance". */
	name: string;
	/** One sentence: what it does. The compute-unit cost is appended by the generator. */
	description: string;
	method: HttpMethod;
	/** Path on the host; `{apiKey}` is filled from the credential and redacted from every message. */
	path: string;
	host: Host;
	/** Compute units per call from the spec's cost table; undefined where the spec lists none. */
	computeUnits?: number;
	kind: OperationKind;
	/** Takes the common chain parameters chainId, chainSymbol and rpc. */
	chain: boolean;
	/** The resource's protocol-selection parameter, when the operation takes one. */
	protocol?: ProtocolParameter;
	/** The response is not wrapped in {status, msg, data} (the usage report). */
	unwrapped?: boolean;
	/**
	 * A write that may be sent again after a 5xx, reset or timeout: it carries an already-signed
	 * transaction, which the chain accepts only once. Other writes are retried only when they were
	 * certainly not processed (429, refused connection).
	 */
	resendable?: boolean;
	/**
	 * Items are sent one at a time, in input order, whatever "Requests in Parallel" says: signed
	 * transactions of one sender carry consecutive nonces, and a node without a queue (or a
	 * provider) refuses a nonce that arrives before the one below it.
	 */
	inOrder?: boolean;
	parameters: ParameterSpec[];
	pagination?: PaginationSpec;
	/** Public sources document no parameters: the form offers named extra parameters and a raw JSON body. */
	undocumented?: boolean;
	amounts?: AmountSpec[];
	rules?: ValidationRule[];
	/**
	 * Write operations return an unsigned transaction to sign and send, unless this is false
	 * (sending, decoding, estimating and simulating are writes in the spec but return other data).
	 */
	unsignedTransaction?: boolean;
	/**
	 * On a write returning unsigned transactions: where each answer record nests its transaction (the
	 * Signer's Transaction Field), when not at the record's top level.
	 */
	transactionField?: string;
	/**
	 * On a write returning unsigned transactions: the answer may hold several, alternatives of which one
	 * is meant to be signed (a swap per DEX). Any other such write answers exactly one transaction per
	 * item; the Expand node refuses another count (nodes/Expand/helpers/transactionCount.ts).
	 */
	alternatives?: boolean;
	/** On a write returning an unsigned transaction: what it does, where Expand Signer can read it (else a call it cannot read). */
	effect?: WriteEffect;
	/**
	 * On a write whose asset no one parameter names: the parameters whose values, joined by `:`, are the
	 * intent's token (`assetCode`, `issuer`: a Stellar asset `CODE:ISSUER`, as Expand Signer keys it).
	 */
	intentToken?: string[];
	/** Which chains or protocols the operation is limited to, in words ("Stellar only"). */
	availability?: string;
	/**
	 * Sends a signed transaction whose hash the answer carries: the form offers Wait for
	 * Confirmation (confirmations, timeout), which waits for the receipt on the chain.
	 */
	confirmable?: boolean;
}

export interface ResourceSpec {
	/** The API's first path segment, used as the resource value. */
	value: string;
	name: string;
	description: string;
}
