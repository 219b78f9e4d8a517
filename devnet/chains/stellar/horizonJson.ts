import type { Memo } from '@stellar/stellar-base';

import { amountText, BASE_FEE, BASE_RESERVE, type StellarAccount } from './accounts';
import type { StellarChain, StellarLedger, StellarTransaction } from './chain';

/** Horizon's time format: ISO 8601 to the second. */
export const isoSeconds = (unix: number) =>
	new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

export const notFound = {
	type: 'https://stellar.org/horizon-errors/not_found',
	title: 'Resource Missing',
	status: 404,
	detail:
		'The resource at the url requested was not found.  This usually occurs for one of two reasons:  The url requested is not valid, or no data in our database could be found with the parameters provided.',
};

export function rootJson(chain: StellarChain) {
	const head = chain.liveHead();
	return {
		horizon_version: 'devnet',
		core_version: 'stellar-core devnet stand-in',
		ingest_latest_ledger: head.sequence,
		history_latest_ledger: head.sequence,
		history_latest_ledger_closed_at: isoSeconds(head.closedAt),
		history_elder_ledger: 1,
		core_latest_ledger: head.sequence,
		network_passphrase: chain.passphrase,
		current_protocol_version: 22,
		supported_protocol_version: 22,
		core_supported_protocol_version: 22,
	};
}

export function accountJson(account: StellarAccount) {
	const credits = [...account.trustlines.entries()].map(([key, line]) => {
		const [code, issuer] = key.split(':');
		return {
			balance: amountText(line.balance),
			limit: amountText(line.limit),
			buying_liabilities: '0.0000000',
			selling_liabilities: '0.0000000',
			is_authorized: line.authorized,
			is_authorized_to_maintain_liabilities: line.authorizedToMaintainLiabilities,
			is_clawback_enabled: line.clawbackEnabled,
			asset_type: code.length <= 4 ? 'credit_alphanum4' : 'credit_alphanum12',
			asset_code: code,
			asset_issuer: issuer,
		};
	});
	return {
		id: account.id,
		account_id: account.id,
		sequence: account.sequence.toString(),
		subentry_count: account.numSubEntries,
		num_subentries: account.numSubEntries,
		home_domain: account.homeDomain || undefined,
		thresholds: {
			low_threshold: account.thresholds.low,
			med_threshold: account.thresholds.med,
			high_threshold: account.thresholds.high,
		},
		flags: {
			auth_required: account.flags.authRequired,
			auth_revocable: account.flags.authRevocable,
			auth_immutable: account.flags.authImmutable,
			auth_clawback_enabled: account.flags.authClawbackEnabled,
		},
		balances: [
			...credits,
			{
				balance: amountText(account.balance),
				buying_liabilities: '0.0000000',
				selling_liabilities: '0.0000000',
				asset_type: 'native',
			},
		],
		signers: [
			...[...account.signers.entries()].map(([key, weight]) => ({
				weight,
				key,
				type: 'ed25519_public_key',
			})),
			{ weight: account.masterWeight, key: account.id, type: 'ed25519_public_key' },
		],
		num_sponsoring: 0,
		num_sponsored: 0,
		data: {},
		paging_token: account.id,
	};
}

/** Horizon's memo fields: text as text (and its bytes), id in decimal, hash and return in base64. */
function memoJson(memo: Memo) {
	switch (memo.type) {
		case 'text': {
			const bytes = Buffer.isBuffer(memo.value) ? memo.value : Buffer.from(String(memo.value));
			return {
				memo_type: 'text',
				memo: bytes.toString('utf8'),
				memo_bytes: bytes.toString('base64'),
			};
		}
		case 'id':
			return { memo_type: 'id', memo: String(memo.value) };
		case 'hash':
		case 'return':
			return { memo_type: memo.type, memo: (memo.value as Buffer).toString('base64') };
		default:
			return { memo_type: 'none' };
	}
}

/** A transaction as Horizon's /transactions/{hash} answers it; a fee bump under the hash it was asked by. */
export function transactionJson(record: StellarTransaction, askedHash = record.hash) {
	const hash = record.inner?.hash === askedHash ? askedHash : record.hash;
	const bounds = record.timeBounds;
	return {
		id: hash,
		paging_token: `${record.ledger}`,
		successful: record.successful,
		hash,
		ledger: record.ledger,
		created_at: isoSeconds(record.closedAt),
		source_account: record.sourceAccount,
		source_account_sequence: record.sourceAccountSequence,
		fee_account: record.feeAccount,
		fee_charged: record.feeCharged.toString(),
		max_fee: record.maxFee.toString(),
		operation_count: record.operationCount,
		envelope_xdr: record.envelopeXdr,
		result_xdr: record.resultXdr,
		...memoJson(record.memo),
		...(bounds
			? {
					valid_after: isoSeconds(Number(bounds.minTime)),
					...(bounds.maxTime === '0' ? {} : { valid_before: isoSeconds(Number(bounds.maxTime)) }),
					preconditions: { timebounds: { min_time: bounds.minTime, max_time: bounds.maxTime } },
				}
			: {}),
		...(record.inner
			? {
					fee_bump_transaction: { hash: record.hash },
					inner_transaction: { hash: record.inner.hash, max_fee: record.inner.maxFee.toString() },
				}
			: {}),
	};
}

export function ledgerJson(ledger: StellarLedger, previous?: StellarLedger) {
	return {
		id: ledger.hash,
		paging_token: `${BigInt(ledger.sequence) << 32n}`,
		hash: ledger.hash,
		prev_hash: previous?.hash ?? '',
		sequence: ledger.sequence,
		successful_transaction_count: ledger.successfulTransactionCount,
		failed_transaction_count: ledger.failedTransactionCount,
		operation_count: ledger.operationCount,
		closed_at: isoSeconds(ledger.closedAt),
		base_fee_in_stroops: Number(BASE_FEE),
		base_reserve_in_stroops: Number(BASE_RESERVE),
		max_tx_set_size: 1000,
		protocol_version: 22,
	};
}
