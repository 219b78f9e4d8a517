import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../../../shared/errors';
import { expandApiRequest, type ApiContext } from '../../../shared/transport';
import { OWN_ENDPOINTS } from '../../../shared/transport/ownEndpoints';
import { endpointRequest } from '../../../shared/transport/request';
import { quote } from '../../blocks/validate';

export interface TokenDetails {
	symbol: string;
	decimals: number;
}

/** An answer of the API about the token (4xx, or details refused), as opposed to a failed connection or a 5xx. */
function refused(error: unknown): boolean {
	const code = Number((error as { httpCode?: string } | undefined)?.httpCode);
	return error instanceof NodeOperationError || (code >= 400 && code < 500 && code !== 429);
}

/** Tokens one `fungibletoken/gettokendetails` call may name (reference: "comma list, max 10"). */
const TOKENS_PER_LOOKUP = 10;

/**
 * Decimals and symbols of tokens through the API (`fungibletoken/gettokendetails`, whose `data` is
 * an array of `{address, name, symbol, decimals, …}`), each token asked for once per activation.
 * Answers are checked: a token the answer leaves out, or decimals that are not an integer from
 * 0 to 255, is an error naming the token, never a guess.
 */
export class TokenDirectory {
	/** null: the API refused to describe the token (watching any token, the transfer goes out without decimals). */
	private readonly known = new Map<string, TokenDetails | null>();

	constructor(
		private readonly context: ApiContext,
		private readonly chainId: string,
	) {}

	get(token: string): TokenDetails | null | undefined {
		return this.known.get(token.toLowerCase());
	}

	/**
	 * Looks up the tokens not known yet, ten per request. `tolerant` (watching any token): when the
	 * API refuses a batch, each token is asked alone, and one it refuses alone is remembered as
	 * undescribed instead of failing every poll; any contract can emit a Transfer event.
	 */
	async load(tokens: string[], tolerant: boolean): Promise<void> {
		const unknown = [...new Set(tokens.map((token) => token.toLowerCase()))].filter(
			(token) => !this.known.has(token),
		);
		for (let index = 0; index < unknown.length; index += TOKENS_PER_LOOKUP) {
			const batch = unknown.slice(index, index + TOKENS_PER_LOOKUP);
			try {
				await this.lookUp(batch);
			} catch (error) {
				if (!tolerant || !refused(error)) throw asNodeError(this.context.getNode(), error);
				for (const token of batch) {
					await this.lookUp([token]).catch((single: unknown) => {
						if (!refused(single)) throw asNodeError(this.context.getNode(), single);
						this.known.set(token, null);
					});
				}
			}
		}
	}

	private async lookUp(tokens: string[]): Promise<void> {
		const data = await expandApiRequest.call(
			this.context,
			endpointRequest(OWN_ENDPOINTS['fungibletoken/gettokendetails'], {
				chainId: this.chainId,
				tokenAddress: tokens.join(','),
			}),
			0,
		);
		const entries = (Array.isArray(data) ? data : [data]) as unknown[];
		for (const token of tokens) {
			const entry = entries.find(
				(candidate) =>
					String((candidate as IDataObject | null)?.address ?? '').toLowerCase() === token,
			) as IDataObject | undefined;
			const raw = entry?.decimals;
			const decimals = typeof raw === 'string' && /^\d{1,3}$/.test(raw) ? Number(raw) : raw;
			if (
				!entry ||
				typeof decimals !== 'number' ||
				!Number.isInteger(decimals) ||
				decimals < 0 ||
				decimals > 255
			) {
				throw new NodeOperationError(
					this.context.getNode(),
					`The API's token details for ${token} on chain ${this.chainId} were refused: ${entry ? `the decimals are ${quote(decimals)}` : 'the answer does not name the token'}`,
					{
						description:
							'Nothing was emitted and the cursor did not move; the next poll asks again.',
					},
				);
			}
			this.known.set(token, {
				symbol: typeof entry.symbol === 'string' ? entry.symbol : '',
				decimals,
			});
		}
	}
}
