import { getTransferSolInstruction } from '@solana-program/system';
import {
	TOKEN_PROGRAM_ADDRESS,
	findAssociatedTokenPda,
	getCreateAssociatedTokenIdempotentInstruction,
	getTransferCheckedInstruction,
} from '@solana-program/token';
import {
	getSetComputeUnitPriceInstruction,
	updateOrAppendSetComputeUnitPriceInstruction,
} from '@solana-program/compute-budget';
import {
	type Blockhash,
	type Instruction,
	type MicroLamports,
	type Transaction,
	address,
	appendTransactionMessageInstructions,
	compileTransaction,
	createNoopSigner,
	createTransactionMessage,
	decompileTransactionMessage,
	getCompiledTransactionMessageDecoder,
	pipe,
	setTransactionMessageFeePayer,
	setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';

/** A recent blockhash and the last block height at which a transaction using it can land. */
export interface Lifetime {
	blockhash: string;
	lastValidBlockHeight: bigint;
}

/** An unsigned transaction from the signer (fee payer), built with the programs' own instruction builders. */
function unsigned(
	from: string,
	lifetime: Lifetime,
	instructions: Instruction[],
	computeUnitPrice?: bigint,
): Transaction {
	const all = computeUnitPrice
		? [getSetComputeUnitPriceInstruction({ microLamports: computeUnitPrice }), ...instructions]
		: instructions;
	const message = pipe(
		createTransactionMessage({ version: 0 }),
		(draft) => setTransactionMessageFeePayer(address(from), draft),
		(draft) =>
			setTransactionMessageLifetimeUsingBlockhash(
				{
					blockhash: lifetime.blockhash as Blockhash,
					lastValidBlockHeight: lifetime.lastValidBlockHeight,
				},
				draft,
			),
		(draft) => appendTransactionMessageInstructions(all, draft),
	);
	return compileTransaction(message);
}

export function transferSolTransaction(options: {
	from: string;
	to: string;
	lamports: bigint;
	lifetime: Lifetime;
	computeUnitPrice?: bigint;
}): Transaction {
	const instruction = getTransferSolInstruction({
		source: createNoopSigner(address(options.from)),
		destination: address(options.to),
		amount: options.lamports,
	});
	return unsigned(options.from, options.lifetime, [instruction], options.computeUnitPrice);
}

/**
 * A TransferChecked from the owner's associated token account of the mint to the recipient's; with
 * `createAccount`, the recipient's account is created first (idempotently: nothing happens if it exists),
 * its rent paid by the owner.
 */
export async function transferTokenTransaction(options: {
	owner: string;
	mint: string;
	recipient: string;
	amount: bigint;
	decimals: number;
	createAccount: boolean;
	lifetime: Lifetime;
	computeUnitPrice?: bigint;
}): Promise<{ transaction: Transaction; sourceAccount: string; recipientAccount: string }> {
	const owner = createNoopSigner(address(options.owner));
	const mint = address(options.mint);
	const [source] = await findAssociatedTokenPda({
		owner: owner.address,
		mint,
		tokenProgram: TOKEN_PROGRAM_ADDRESS,
	});
	const [destination] = await findAssociatedTokenPda({
		owner: address(options.recipient),
		mint,
		tokenProgram: TOKEN_PROGRAM_ADDRESS,
	});
	const instructions: Instruction[] = [];
	if (options.createAccount) {
		instructions.push(
			getCreateAssociatedTokenIdempotentInstruction({
				payer: owner,
				ata: destination,
				owner: address(options.recipient),
				mint,
			}),
		);
	}
	instructions.push(
		getTransferCheckedInstruction({
			source,
			mint,
			destination,
			authority: owner,
			amount: options.amount,
			decimals: options.decimals,
		}),
	);
	return {
		transaction: unsigned(options.owner, options.lifetime, instructions, options.computeUnitPrice),
		sourceAccount: source,
		recipientAccount: destination,
	};
}

/**
 * The same message with another lifetime and compute-unit price, nothing else changed: the fee payer
 * and every instruction stay as they were (a price instruction is updated, or appended when there was
 * none). Unsigned: its signatures are to be made again.
 */
export function repricedTransaction(
	transaction: Transaction,
	lifetime: Lifetime,
	computeUnitPrice: bigint,
): Transaction {
	const message = decompileTransactionMessage(
		getCompiledTransactionMessageDecoder().decode(transaction.messageBytes),
	);
	return compileTransaction(
		pipe(
			message,
			(draft) =>
				setTransactionMessageLifetimeUsingBlockhash(
					{
						blockhash: lifetime.blockhash as Blockhash,
						lastValidBlockHeight: lifetime.lastValidBlockHeight,
					},
					draft,
				),
			(draft) =>
				updateOrAppendSetComputeUnitPriceInstruction(computeUnitPrice as MicroLamports, draft),
		),
	);
}
