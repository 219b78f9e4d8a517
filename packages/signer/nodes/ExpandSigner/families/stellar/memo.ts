import { Memo, xdr } from '@stellar/stellar-base';

import { UndecodableStellarTransaction } from './errors';

/** A Stellar memo: text (at most 28 bytes), an unsigned 64-bit ID, or a 32-byte hash (hex). */
export type StellarMemo =
	| { type: 'none' }
	| { type: 'text'; value: string }
	| { type: 'id'; value: string }
	| { type: 'hash' | 'return'; value: string };

/** The memo of stellar-base for one of ours; stellar-base checks the text length, the ID range and the hash size. */
export function toMemo(memo: StellarMemo): Memo {
	switch (memo.type) {
		case 'none':
			return Memo.none();
		case 'text':
			return Memo.text(memo.value);
		case 'id':
			return Memo.id(memo.value);
		case 'hash':
			return Memo.hash(memo.value);
		case 'return':
			return Memo.return(memo.value);
	}
}

/** A memo read from XDR; text that is not UTF-8 is refused, as a recipient could not read what it was paid with. */
export function readMemo(memo: xdr.Memo): StellarMemo {
	switch (memo.switch()) {
		case xdr.MemoType.memoText(): {
			const bytes = Buffer.from(memo.text());
			const value = bytes.toString('utf8');
			if (!Buffer.from(value, 'utf8').equals(bytes))
				throw new UndecodableStellarTransaction(
					'The Stellar transaction has a text memo that is not UTF-8 text',
				);
			return { type: 'text', value };
		}
		case xdr.MemoType.memoId():
			return { type: 'id', value: memo.id().toString() };
		case xdr.MemoType.memoHash():
			return { type: 'hash', value: Buffer.from(memo.hash()).toString('hex') };
		case xdr.MemoType.memoReturn():
			return { type: 'return', value: Buffer.from(memo.retHash()).toString('hex') };
		default:
			return { type: 'none' };
	}
}

const MEMO_TYPES = /^(text|id|hash|return):/;

/** A memo as movements carry it, typed: `text:…`, `id:…`, `hash:<hex>`, `return:<hex>`; undefined for none. */
export function memoKey(memo: StellarMemo): string | undefined {
	return memo.type === 'none' ? undefined : `${memo.type}:${memo.value}`;
}

/** An intent's memo as compared: typed as memoKey writes it (a hash in lower-case hex), or plain text meaning a text memo. */
export function intentMemoKey(memo: string): string {
	if (!MEMO_TYPES.test(memo)) return `text:${memo}`;
	return /^(hash|return):/.test(memo) ? memo.toLowerCase() : memo;
}
