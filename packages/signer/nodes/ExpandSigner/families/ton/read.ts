import {
	beginCell,
	Cell,
	loadMessage,
	loadMessageRelaxed,
	type Slice,
	storeStateInit,
	type StateInit,
} from '@ton/core';
import { signVerify } from '@ton/crypto';
import { WalletContractV5R1 } from '@ton/ton';

import { isEmptyBody } from './comment';
import { normalizedHash } from './hashes';
import type { TonAccount } from './keys';
import {
	MAX_MESSAGES,
	type TonOutMessage,
	type TonTransfer,
	UndecodableTonTransaction,
} from './message';

/** SENDRAWMSG's tag in an out-action list; any other action (set code, reserve, library) is refused. */
const ACTION_SEND_MSG = 0x0ec3c86d;
/** v4R2's wallet_id: 698983191 + workchain 0, the same on every chain. */
const V4_WALLET_ID = 698983191;

const refuse = (reason: string) =>
	new UndecodableTonTransaction(`The signed TON message cannot be read: ${reason}`);

const stateInitCell = (init: StateInit) => beginCell().store(storeStateInit(init)).endCell();

/**
 * An internal message a wallet sends: Toncoin only (no extra currency), to a standard address. Its body is
 * what follows the header (inline) or its reference, as @ton/core reads it.
 */
function outMessage(cell: Cell, mode: number): TonOutMessage {
	const message = loadMessageRelaxed(cell.beginParse());
	if (message.info.type !== 'internal') throw refuse('an out message is not an internal message');
	if (message.info.value.other && message.info.value.other.size)
		throw refuse('an out message carries extra currencies');
	return {
		to: message.info.dest.toRawString(),
		value: message.info.value.coins,
		bounce: message.info.bounce,
		mode,
		...(isEmptyBody(message.body) ? {} : { body: message.body }),
		...(message.init ? { stateInit: stateInitCell(message.init) } : {}),
	};
}

/** W5's out list (c5): a chain of send-message actions, each cell read whole, oldest first. */
function outList(first: Cell): TonOutMessage[] {
	const messages: TonOutMessage[] = [];
	let cell = first;
	for (;;) {
		const slice = cell.beginParse();
		if (!slice.remainingBits && !slice.remainingRefs) break;
		if (messages.length === MAX_MESSAGES.W5)
			throw refuse('its out list holds more than 255 actions');
		const previous = slice.loadRef();
		if (slice.loadUint(32) !== ACTION_SEND_MSG)
			throw refuse('its out list holds an action that is not a message sent');
		const mode = slice.loadUint(8);
		const message = slice.loadRef();
		slice.endParse();
		messages.push(outMessage(message, mode));
		cell = previous;
	}
	return messages.reverse();
}

interface ReadBody {
	signature: Buffer;
	signed: Cell;
	walletId: number;
	validUntil: number;
	seqno: number;
	messages: TonOutMessage[];
}

/** W5 (v5R1): the signed part first (op "sign", wallet_id, valid_until, seqno, out list, extended actions), the signature in its last 512 bits. */
function readW5(body: Cell): ReadBody {
	const all = body.beginParse();
	if (all.remainingBits < 512) throw refuse('its body is too short to hold a signature');
	const signedBits = all.loadBits(all.remainingBits - 512);
	const signature = all.loadBuffer(64);
	const signed = beginCell().storeBits(signedBits);
	for (const ref of body.refs) signed.storeRef(ref);
	const signedCell = signed.endCell();
	const slice = signedCell.beginParse();
	if (slice.loadUint(32) !== WalletContractV5R1.OpCodes.auth_signed_external)
		throw refuse('its body is not a W5 signed external request');
	const walletId = slice.loadInt(32);
	const validUntil = slice.loadUint(32);
	const seqno = slice.loadUint(32);
	const list = slice.loadMaybeRef();
	if (slice.loadBit())
		throw refuse(
			'it holds extended actions (an extension added or removed, signature authentication switched), which hand the wallet to another key or contract',
		);
	slice.endParse();
	return {
		signature,
		signed: signedCell,
		walletId,
		validUntil,
		seqno,
		messages: list ? outList(list) : [],
	};
}

/** v4R2: the signature first, then wallet_id, valid_until, seqno, op 0 (simple send) and one mode and message per reference. */
function readV4(body: Cell): ReadBody {
	const slice = body.beginParse();
	const signature = slice.loadBuffer(64);
	const signed = beginCell().storeSlice(slice.clone()).endCell();
	const walletId = slice.loadUint(32);
	const validUntil = slice.loadUint(32);
	const seqno = slice.loadUint(32);
	const op = slice.loadUint(8);
	if (op !== 0) throw refuse(`its op ${op} is a plugin operation, not a simple send`);
	const messages: TonOutMessage[] = [];
	while (slice.remainingRefs) {
		const mode = slice.loadUint(8);
		messages.push(outMessage(slice.loadRef(), mode));
	}
	slice.endParse();
	return { signature, signed, walletId, validUntil, seqno, messages };
}

/** The wallet_id the account's wallet holds: in W5's data after its signature flag and seqno. */
function expectedWalletId(account: TonAccount): number {
	if (account.walletVersion === 'v4R2') return V4_WALLET_ID;
	const data: Slice = account.wallet().init.data.beginParse();
	data.loadBit();
	data.loadUint(32);
	return data.loadInt(32);
}

interface ReadMessage extends ReadBody {
	body: Cell;
	deployWallet: boolean;
}

/** The external message's parts, each read whole; what cannot be read throws. */
function readMessage(rawTransaction: string, account: TonAccount): ReadMessage {
	const wallet = account.wallet();
	const cells = Cell.fromBoc(Buffer.from(rawTransaction, 'base64'));
	if (cells.length !== 1) throw refuse('it is not one cell');
	const message = loadMessage(cells[0].beginParse());
	if (message.info.type !== 'external-in') throw refuse('it is not an external message');
	if (!message.info.dest.equals(wallet.address))
		throw refuse(
			`it is for ${message.info.dest.toRawString()}, not the account's ${account.walletVersion} wallet ${account.address} on chain ${account.chainId}`,
		);
	if (message.init && !stateInitCell(message.init).hash().equals(stateInitCell(wallet.init).hash()))
		throw refuse("its state init is not the account's wallet");
	const read = account.walletVersion === 'W5' ? readW5(message.body) : readV4(message.body);
	return {
		...read,
		body: message.body,
		deployWallet: message.init !== null && message.init !== undefined,
	};
}

/**
 * Reads an external message signed for the account's wallet (W5 or v4R2) back into the transfer it
 * carries: it must go to the account's wallet, carry a signature of the account's key, the wallet_id of
 * the account's chain, and only message sends (W5's extended actions and v4R2's plugin operations are
 * refused). Every out message is read, with its mode. Used to re-read ledger entries and to decode.
 */
export function readSignedTransfer(
	rawTransaction: string,
	account: TonAccount,
): TonTransfer & { transactionHash: string; bodyHash: string } {
	let read: ReadMessage | UndecodableTonTransaction;
	try {
		read = readMessage(rawTransaction, account);
	} catch (error) {
		// The library's own errors are not passed on: they can quote what they were given.
		read =
			error instanceof UndecodableTonTransaction
				? error
				: refuse('it is not a wallet transfer the signer can read');
	}
	if (read instanceof UndecodableTonTransaction) throw read;
	if (!signVerify(read.signed.hash(), read.signature, account.publicKey))
		throw refuse(`its signature is not of the key of ${account.address}`);
	if (read.walletId !== expectedWalletId(account))
		throw refuse(`its wallet_id ${read.walletId} is not the one of chain ${account.chainId}`);
	return {
		chainId: account.chainId,
		seqno: read.seqno,
		validUntil: read.validUntil,
		messages: read.messages,
		...(read.deployWallet ? { deployWallet: true } : {}),
		transactionHash: normalizedHash(account.wallet().address, read.body),
		bodyHash: read.body.hash().toString('hex'),
	};
}

/** The seqno of an external message body the account's key signed for its wallet; undefined for any other body. */
export function signedSeqno(body: Cell, account: TonAccount): number | undefined {
	try {
		const read = account.walletVersion === 'W5' ? readW5(body) : readV4(body);
		return signVerify(read.signed.hash(), read.signature, account.publicKey)
			? read.seqno
			: undefined;
	} catch {
		return undefined;
	}
}
