import { TOKEN_PROGRAM_ADDRESS, findAssociatedTokenPda } from '@solana-program/token';
import { address } from '@solana/kit';

import type { Movement, OpaqueCall, TransactionEffect } from '../../policy/vocabulary';
import type { DecodedInstruction, DecodedTransaction } from './decode';

/** Size of an SPL Token account, whose rent a new associated token account costs its payer. */
export const TOKEN_ACCOUNT_SIZE = 165;

/**
 * Rent-exempt minimum of an account of this size with Solana's rent parameters (3,480 lamports per byte-year,
 * two years, 128 bytes of account overhead): 2,039,280 lamports for a token account. Computed here rather
 * than asked of an RPC node, which could understate it.
 */
export function rentExemption(bytes: number): bigint {
	return (128n + BigInt(bytes)) * 3480n * 2n;
}

/** What the chain says about accounts. Untrusted: a token account's owner is believed only when the account is that owner's associated token account, which the Signer derives itself. */
export interface SolanaChainReader {
	tokenAccount(account: string): Promise<{ mint: string; owner: string } | null>;
}

export interface SolanaEffect extends TransactionEffect {
	/** Rent of the token accounts the transaction creates, paid by the fee payer (included in movements). */
	rent: bigint;
}

async function isAssociatedAccount(account: string, owner: string, mint: string): Promise<boolean> {
	const [derived] = await findAssociatedTokenPda({
		owner: address(owner),
		mint: address(mint),
		tokenProgram: TOKEN_PROGRAM_ADDRESS,
	});
	return derived === account;
}

/** The owner of a receiving token account when it is provably that owner's associated token account of the mint. */
async function tokenAccountOwner(
	account: string,
	mint: string,
	created: DecodedInstruction[],
	reader: SolanaChainReader,
): Promise<string | undefined> {
	for (const instruction of created) {
		if (
			instruction.kind === 'createTokenAccount' &&
			instruction.account === account &&
			instruction.mint === mint
		) {
			if (await isAssociatedAccount(account, instruction.owner, mint)) return instruction.owner;
		}
	}
	const onChain = await reader.tokenAccount(account);
	if (onChain && onChain.mint === mint && (await isAssociatedAccount(account, onChain.owner, mint)))
		return onChain.owner;
	return undefined;
}

/** The mint of one of the signer's own token accounts, when it is provably the signer's associated account of that mint. */
async function sourceMint(
	source: string,
	authority: string,
	reader: SolanaChainReader,
): Promise<string | undefined> {
	const onChain = await reader.tokenAccount(source);
	if (onChain && (await isAssociatedAccount(source, authority, onChain.mint))) return onChain.mint;
	return undefined;
}

/**
 * What a decoded transaction does to the signing account, in the spending policy's terms: SOL sent, tokens
 * sent or approved (to the recipient wallet when the receiving account is its associated token account,
 * otherwise to the token account itself), rent for created token accounts, and the fee when it pays it.
 */
export async function solanaEffect(
	decoded: DecodedTransaction,
	chainId: string,
	from: string,
	reader: SolanaChainReader,
): Promise<SolanaEffect> {
	const movements: Movement[] = [];
	let rent = 0n;
	const opaque: OpaqueCall[] = [];
	for (const instruction of decoded.instructions) {
		switch (instruction.kind) {
			case 'transferSol':
				if (instruction.from === from)
					movements.push({
						asset: 'native',
						recipient: instruction.to,
						amount: instruction.lamports,
						via: 'System transfer',
						action: 'transfer',
					});
				break;
			case 'createTokenAccount':
				if (instruction.payer === from) {
					const cost = rentExemption(TOKEN_ACCOUNT_SIZE);
					rent += cost;
					movements.push({
						asset: 'native',
						recipient: instruction.owner,
						amount: cost,
						via: "rent of the recipient's new token account",
						action: 'transfer',
						cost: true,
					});
				}
				break;
			case 'tokenTransfer':
			case 'tokenApprove': {
				if (instruction.authority !== from) {
					// Under a multisig authority the key co-signs, the key's signature moves the multisig's tokens.
					if (instruction.multiSigners.includes(from))
						opaque.push({
							to: TOKEN_PROGRAM_ADDRESS,
							what: `an SPL Token ${instruction.kind === 'tokenApprove' ? 'approval' : 'transfer'} under multisig authority ${instruction.authority}, which the signer co-signs`,
						});
					break;
				}
				const mint = instruction.mint ?? (await sourceMint(instruction.source, from, reader));
				if (!mint) {
					opaque.push({
						to: TOKEN_PROGRAM_ADDRESS,
						what: 'a token transfer from an account whose mint cannot be established',
					});
					break;
				}
				const recipient =
					instruction.kind === 'tokenApprove'
						? instruction.destination
						: ((await tokenAccountOwner(
								instruction.destination,
								mint,
								decoded.instructions,
								reader,
							)) ?? instruction.destination);
				movements.push({
					asset: mint,
					recipient,
					amount: instruction.amount,
					via: instruction.kind === 'tokenApprove' ? 'SPL Token approve' : 'SPL Token transfer',
					action: instruction.kind === 'tokenApprove' ? 'approve' : 'transfer',
				});
				break;
			}
			case 'opaque':
				opaque.push({ to: instruction.programAddress, what: instruction.what });
				break;
			default:
				break;
		}
	}
	return {
		chainId,
		from,
		movements,
		maxFee: decoded.feePayer === from ? decoded.fee : 0n,
		rent,
		opaque,
	};
}
