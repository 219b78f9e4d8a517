import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { LedgerEntry, PayoutLedger } from '../ledger/payoutLedger';
import { Refusal, refusedItem } from '../policy/refusal';
import type { SignedTransaction } from '../policy/vocabulary';

/** The Payout ID field of an operation that signs through `signOnce`. */
export function payoutIdProperty(operation: string): INodeProperties {
	return {
		displayName: 'Payout ID',
		name: 'payoutId',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.invoiceId }}',
		description:
			"Your own unique ID of this payment. A payout ID already signed for this account and chain is never signed again: the earlier signed transaction is returned, marked as a repeat. Needs the signing credential's Payout Ledger Folder.",
		displayOptions: { show: { operation: [operation] } },
	};
}

/** A transaction signed for an item and not yet passed on: `keep` once it is, `discard` (giving up what it holds: a nonce claim, its counted amounts) when it is dropped. */
export interface FreshSignature {
	signed: SignedTransaction;
	keep(): void;
	discard?: () => Promise<void>;
}

/** How a chain family signs one item, and reads where an earlier signature of its payout ID stands. */
export interface ItemSigning {
	chainId: string;
	from: string;
	/** What a payout ID is bound to: a payout ID is never signed again for other content. */
	content: string;
	/** That content in words, for the refusal: "recipient, value or data". */
	contentWords: string;
	sign(): Promise<FreshSignature>;
	/** Where the earlier signed payout stands on the chain; one that can never land is refused. */
	status(entry: LedgerEntry): Promise<{ chainStatus: string; alreadySent: boolean }>;
	/** What a repeat changes in the execution, after its status is known. */
	repeated?(entry: LedgerEntry): void;
}

/**
 * Signs one item, the same way in every chain family. With a payout ID the ledger decides: a payout ID
 * already signed for this account and chain gives the earlier transaction back (`repeat: true`, the
 * same hash, so sending it again is harmless), never a new one; for other content it is refused.
 */
export async function signOnce(
	this: IExecuteFunctions,
	itemIndex: number,
	ledger: PayoutLedger | undefined,
	signing: ItemSigning,
): Promise<IDataObject> {
	const node = this.getNode();
	const payoutId = String(this.getNodeParameter('payoutId', itemIndex, '') ?? '').trim();
	if (!payoutId) {
		const fresh = await signing.sign();
		fresh.keep();
		return { ...fresh.signed, repeat: false };
	}
	if (!ledger) {
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'payoutLedgerFolder',
				`payout ID "${payoutId}" needs the Payout Ledger Folder of the signing credential, where signed payout IDs are kept`,
			),
		);
	}
	const { chainId, from, content } = signing;
	let fresh: FreshSignature | undefined;
	const { entry, repeat } = await ledger.once({ chainId, from, payoutId }, itemIndex, async () => {
		fresh = await signing.sign();
		return {
			entry: { payoutId, chainId, from, content, signed: fresh.signed },
			discard: fresh.discard,
		};
	});
	if (!repeat) {
		(fresh as FreshSignature).keep();
		return { ...entry.signed, payoutId, repeat: false, alreadySent: false };
	}
	// A transaction signed here but dropped (another process recorded the payout ID first) used up nothing.
	if (entry.content !== content) {
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'payoutId',
				`payout ID "${payoutId}" was already signed on ${entry.signedAt} as ${entry.signed.transactionHash} for other content (${signing.contentWords}); a payout ID is never signed for new content`,
			),
		);
	}
	const { chainStatus, alreadySent } = await signing.status(entry);
	signing.repeated?.(entry);
	return {
		...entry.signed,
		payoutId,
		repeat: true,
		alreadySent,
		chainStatus,
		firstSignedAt: entry.signedAt,
	};
}
