/**
 * Solana transactions a test builds by hand: a version 0 message with its fee payer, a blockhash
 * lifetime and its instructions; its unsigned wire form (what an item's `data` holds); and the same
 * signed by the signers its instructions carry and sent on the devnet's Solana chain.
 */
import {
	type Address,
	type Blockhash,
	type Instruction,
	appendTransactionMessageInstructions,
	compileTransaction,
	createTransactionMessage,
	getBase64EncodedWireTransaction,
	getTransactionEncoder,
	pipe,
	setTransactionMessageFeePayer,
	setTransactionMessageLifetimeUsingBlockhash,
	signTransactionMessageWithSigners,
} from '@solana/kit';

import type { Devnet } from '../../devnet';

export function solanaMessage(
	feePayer: Address,
	blockhash: Blockhash | string,
	instructions: Instruction[],
	lastValidBlockHeight = 0n,
) {
	return pipe(
		createTransactionMessage({ version: 0 }),
		(draft) => setTransactionMessageFeePayer(feePayer, draft),
		(draft) =>
			setTransactionMessageLifetimeUsingBlockhash(
				{ blockhash: blockhash as Blockhash, lastValidBlockHeight },
				draft,
			),
		(draft) => appendTransactionMessageInstructions(instructions, draft),
	);
}

/** The message compiled, unsigned, in base64 wire form. */
export const unsignedWire = (message: Parameters<typeof compileTransaction>[0]): string =>
	getBase64EncodedWireTransaction(compileTransaction(message));

/** Signs the message with the signers its instructions and fee payer carry and sends it on the devnet's chain 901. */
export async function sendSigned(
	devnet: Devnet,
	message: ReturnType<typeof solanaMessage>,
): Promise<void> {
	const signed = await signTransactionMessageWithSigners(message);
	devnet.solana.chain.send(getTransactionEncoder().encode(signed) as Uint8Array);
}
