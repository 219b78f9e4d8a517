import { StrKey } from '@stellar/stellar-base';
import type { IncomingMessage, Server } from 'http';

import { readBody } from '../../readBody';
import type { CallFaults } from '../callFaults';
import { type ChainHttpAnswer as Answer, serveChainHttp } from '../chainHttp';
import { baseAccount } from './accounts';
import { MalformedEnvelope, RefusedTransaction, type StellarChain } from './chain';
import { accountJson, ledgerJson, notFound, rootJson, transactionJson } from './horizonJson';

const badRequest = (detail: string): Answer => ({
	status: 400,
	body: {
		type: 'https://stellar.org/horizon-errors/bad_request',
		title: 'Bad Request',
		status: 400,
		detail,
	},
});

function transactionFailed(
	envelopeXdr: string,
	hash: string | undefined,
	resultCodes: unknown,
	resultXdr: string,
): Answer {
	return {
		status: 400,
		body: {
			type: 'https://stellar.org/horizon-errors/transaction_failed',
			title: 'Transaction Failed',
			status: 400,
			detail:
				'The transaction failed when submitted to the stellar network. The `extras.result_codes` field on this response contains further details.  Descriptions of each code can be found at: https://developers.stellar.org/api/errors/http-status-codes/horizon-specific/transaction-failed/',
			extras: { envelope_xdr: envelopeXdr, result_codes: resultCodes, result_xdr: resultXdr, hash },
		},
	};
}

/** POST /transactions: a refused or failed transaction answers 400 transaction_failed; one that applied, its record. */
function submit(chain: StellarChain, envelopeXdr: string | undefined): Answer {
	if (!envelopeXdr)
		return badRequest('The request you sent was invalid in some way. tx: field is required');
	try {
		const record = chain.submit(envelopeXdr);
		if (!record.successful)
			return transactionFailed(
				record.envelopeXdr,
				record.hash,
				record.resultCodes,
				record.resultXdr,
			);
		return { status: 200, body: transactionJson(record) };
	} catch (error) {
		if (error instanceof RefusedTransaction)
			return transactionFailed(envelopeXdr, undefined, error.resultCodes, error.resultXdr);
		if (error instanceof MalformedEnvelope)
			return {
				status: 400,
				body: {
					type: 'https://stellar.org/horizon-errors/transaction_malformed',
					title: 'Transaction Malformed',
					status: 400,
					detail:
						'Horizon could not decode the transaction envelope in this request. A transaction should be an XDR TransactionEnvelope struct encoded using base64.  The envelope read from this request is echoed in the `extras.envelope_xdr` field of this response for your convenience.',
					extras: { envelope_xdr: envelopeXdr },
				},
			};
		throw error;
	}
}

function ledgers(chain: StellarChain, url: URL): Answer {
	chain.liveHead();
	const limit = Math.min(Math.max(Number(url.searchParams.get('limit') ?? 10) || 10, 1), 200);
	const ordered = chain.ledgers.map((ledger, index) =>
		ledgerJson(ledger, chain.ledgers[index - 1]),
	);
	const records = (url.searchParams.get('order') === 'desc' ? ordered.reverse() : ordered).slice(
		0,
		limit,
	);
	return { status: 200, body: { _embedded: { records } } };
}

async function answerOf(
	chain: StellarChain,
	request: IncomingMessage,
	url: URL,
	path: string,
	faults: CallFaults | undefined,
): Promise<Answer> {
	const text = await readBody(request);
	const form = new URLSearchParams(text);
	faults?.heard(request, { ...Object.fromEntries(url.searchParams), ...Object.fromEntries(form) });
	const [, resource, id] = path.split('/');
	if (request.method === 'POST')
		return resource === 'transactions' && id === undefined
			? submit(chain, form.get('tx') ?? undefined)
			: { status: 404, body: notFound };
	if (resource === undefined) return { status: 200, body: rootJson(chain) };
	if (resource === 'ledgers' && id === undefined) return ledgers(chain, url);
	if (resource === 'accounts' && id !== undefined) {
		if (!StrKey.isValidEd25519PublicKey(id) && !StrKey.isValidMed25519PublicKey(id))
			return badRequest(`Invalid account ID: ${id}`);
		const account = chain.account(baseAccount(id));
		return account ? { status: 200, body: accountJson(account) } : { status: 404, body: notFound };
	}
	if (resource === 'transactions' && id !== undefined) {
		const record = chain.transaction(id);
		return record
			? { status: 200, body: transactionJson(record, id.toLowerCase()) }
			: { status: 404, body: notFound };
	}
	return { status: 404, body: notFound };
}

/**
 * The chain's Horizon subset on 127.0.0.1. With `faults`, each call takes the devnet's faults as a gateway
 * call does, named by its URL without the query (`<url>/transactions`).
 */
export async function serveHorizon(
	chain: StellarChain,
	port = 0,
	faults?: CallFaults,
): Promise<{ server: Server; url: string }> {
	const { server, origin } = await serveChainHttp({
		port,
		faults,
		answer: (request, url, path) => answerOf(chain, request, url, path, faults),
		failed: (error) => ({
			status: 500,
			body: {
				type: 'https://stellar.org/horizon-errors/server_error',
				title: 'Internal Server Error',
				status: 500,
				detail: error.message,
			},
		}),
		contentType: (status) => (status === 200 ? 'application/hal+json' : 'application/problem+json'),
	});
	return { server, url: origin };
}
