import { SYSTEM_PROGRAM_ADDRESS, parseTransferSolInstruction } from '@solana-program/system';
import {
	TOKEN_PROGRAM_ADDRESS,
	findAssociatedTokenPda,
	getCreateAssociatedTokenIdempotentInstruction,
	getMintDecoder,
	getTokenDecoder,
	getTransferCheckedInstruction,
	identifyTokenInstruction,
	parseTransferCheckedInstruction,
	TokenInstruction,
} from '@solana-program/token';
import {
	type Address,
	type Instruction,
	address as toAddress,
	appendTransactionMessageInstructions,
	compileTransaction,
	createNoopSigner,
	createTransactionMessage,
	decompileTransactionMessage,
	getBase64Decoder,
	getCompiledTransactionMessageDecoder,
	getTransactionEncoder,
	isAddress,
	pipe,
	setTransactionMessageFeePayer,
	setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';

import {
	type LandedTransaction,
	RejectedTransaction,
	type SolanaChain,
} from '../../chains/solana/chain';
import type { SolanaRuntime } from '../../chains/solana';
import type { Handler } from '../context';
import { ApiFailure, fail, missing } from '../failure';
import { type Params, required, text, wholeNumber } from '../params';
import { type FamilyHandler, familyRoute } from './familyRoute';

type SolanaHandler = FamilyHandler<SolanaRuntime>;

function publicKey(params: Params, name: string, optional = false): Address | undefined {
	const value = optional ? text(params, name) : required(params, name);
	if (value === undefined) return undefined;
	if (!isAddress(value)) fail('invalidPublicKey');
	return toAddress(value);
}

function mintDecimals(chain: SolanaChain, mint: Address): number {
	const account = chain.svm.getAccount(mint);
	if (!account.exists || account.programAddress !== TOKEN_PROGRAM_ADDRESS) fail('invalidSPLToken');
	try {
		return getMintDecoder().decode(account.data).decimals;
	} catch {
		return fail('invalidSPLToken');
	}
}

/** The owner's balance of a mint: the sum of every token account of that mint it owns, as the API reports it. */
function tokenBalance(chain: SolanaChain, owner: Address, mint: Address): bigint {
	let total = 0n;
	for (const account of chain.svm.getProgramAccounts(TOKEN_PROGRAM_ADDRESS)) {
		if (account.data.length !== 165) continue;
		const token = getTokenDecoder().decode(account.data);
		if (token.owner === owner && token.mint === mint) total += token.amount;
	}
	return total;
}

/** What moved in a transaction: the first SOL or SPL transfer among its instructions. */
function transferOf(landed: LandedTransaction): { to: string | null; value: string } {
	const message = decompileTransactionMessage(
		getCompiledTransactionMessageDecoder().decode(landed.transaction.messageBytes),
	);
	for (const instruction of message.instructions) {
		if (instruction.programAddress === SYSTEM_PROGRAM_ADDRESS) {
			try {
				const transfer = parseTransferSolInstruction(instruction as never);
				return {
					to: transfer.accounts.destination.address,
					value: transfer.data.amount.toString(),
				};
			} catch {
				continue;
			}
		}
		if (
			instruction.programAddress === TOKEN_PROGRAM_ADDRESS &&
			identifyTokenInstruction(instruction.data as Uint8Array) === TokenInstruction.TransferChecked
		) {
			const transfer = parseTransferCheckedInstruction(instruction as never);
			return { to: transfer.accounts.destination.address, value: transfer.data.amount.toString() };
		}
	}
	return { to: null, value: '0' };
}

/** chain/gettransaction's Solana shape (reference §2.1); the fields the backend leaves null stay null. */
function transactionRecord(landed: LandedTransaction) {
	const { to, value } = transferOf(landed);
	return {
		hash: landed.signature,
		transactionStatus: null,
		blockNumber: landed.slot,
		timestamp: landed.blockTime,
		from: landed.accountKeys[0],
		to,
		value,
		transactionFees: landed.fee.toString(),
		gas: null,
		gasPrice: null,
		input: landed.wire,
		nonce: null,
		network: null,
	};
}

const getbalance: SolanaHandler = async (params, { chain }) => {
	const owner = publicKey(params, 'address') as Address;
	const mint = publicKey(params, 'tokenAddress', true);
	if (!mint) return { balance: chain.balance(owner).toString() };
	mintDecimals(chain, mint);
	return { balance: tokenBalance(chain, owner, mint).toString() };
};

const gettransaction: SolanaHandler = async (params, { chain }) => {
	const landed = chain.transaction(required(params, 'transactionHash'));
	if (!landed) fail('invalidTransactionHash');
	return transactionRecord(landed);
};

const sendtransaction: SolanaHandler = async (params, { chain }) => {
	const raw = required(params, 'rawTransaction');
	try {
		return { transactionHash: chain.sendBase64(raw).signature };
	} catch (error) {
		if (error instanceof RejectedTransaction) throw new ApiFailure(`Error: ${error.message}`);
		throw error;
	}
};

const getblock: SolanaHandler = async (params, { chain }) => {
	const slot = wholeNumber(params, 'blockNumber');
	if (slot === undefined) missing('blockNumber');
	const block = chain.block(Number(slot));
	if (!block) fail('invalidBlockNumber');
	return {
		blocks: [
			{
				blockNumber: block.slot,
				blockHeight: block.slot,
				blockhash: block.blockhash,
				previousBlockhash: block.previousBlockhash,
				parentSlot: block.parentSlot,
				timestamp: block.blockTime,
				transactions: block.signatures.map((signature) =>
					transactionRecord(chain.transaction(signature) as LandedTransaction),
				),
			},
		],
	};
};

const getdecimals: SolanaHandler = async (params, { chain }) => ({
	decimals: String(mintDecimals(chain, publicKey(params, 'token') as Address)),
});

/**
 * The Solana variant of fungibletoken/transfer (parameters per reference §2.2: token, feePayer, destination,
 * sender, amount, decimals). The response is not documented; this answers like the EVM writes do, with the
 * unsigned transaction as the SDK's Solana signer reads it: `data` is the base64 wire transaction (legacy
 * message, empty signature slots). `amount` is in the token's smallest unit. The recipient's associated token
 * account is created in the same transaction (idempotently, rent paid by the fee payer) when it does not exist.
 */
const transfer: SolanaHandler = async (params, runtime) => {
	const { chain } = runtime;
	const mint = publicKey(params, 'token') as Address;
	const sender = publicKey(params, 'sender') as Address;
	const destination = publicKey(params, 'destination') as Address;
	const feePayer = publicKey(params, 'feePayer') as Address;
	const amount = wholeNumber(params, 'amount') ?? 1n;
	const decimals = mintDecimals(chain, mint);
	const given = wholeNumber(params, 'decimals');
	if (given !== undefined && Number(given) !== decimals) fail('invalidInput');
	const [source] = await findAssociatedTokenPda({
		owner: sender,
		mint,
		tokenProgram: TOKEN_PROGRAM_ADDRESS,
	});
	const [target] = await findAssociatedTokenPda({
		owner: destination,
		mint,
		tokenProgram: TOKEN_PROGRAM_ADDRESS,
	});
	const instructions: Instruction[] = [];
	if (!chain.svm.getAccount(target).exists) {
		instructions.push(
			getCreateAssociatedTokenIdempotentInstruction({
				payer: createNoopSigner(feePayer),
				ata: target,
				owner: destination,
				mint,
			}),
		);
	}
	instructions.push(
		getTransferCheckedInstruction({
			source,
			mint,
			destination: target,
			authority: createNoopSigner(sender),
			amount,
			decimals,
		}),
	);
	const message = pipe(
		createTransactionMessage({ version: 'legacy' }),
		(draft) => setTransactionMessageFeePayer(feePayer, draft),
		(draft) => setTransactionMessageLifetimeUsingBlockhash(chain.latestBlockhash() as never, draft),
		(draft) => appendTransactionMessageInstructions(instructions, draft),
	);
	const data = getBase64Decoder().decode(
		getTransactionEncoder().encode(compileTransaction(message)),
	);
	return {
		chainId: runtime.chainId,
		from: sender,
		feePayer,
		data,
		lastValidBlockHeight: chain.latestBlockhash().lastValidBlockHeight,
	};
};

const getpublicrpc: SolanaHandler = async (_params, { rpcUrl }) => ({ rpc: rpcUrl });

const handlers: Record<string, SolanaHandler> = {
	'/chain/getbalance': getbalance,
	'/chain/gettransaction': gettransaction,
	'/chain/sendtransaction': sendtransaction,
	'/chain/getblock': getblock,
	'/chain/getpublicrpc': getpublicrpc,
	'/fungibletoken/transfer': transfer,
	'/fungibletoken/getdecimals': getdecimals,
};

/**
 * The handler for a call on a Solana chain, or undefined when the call names no Solana chain (the EVM
 * handlers answer it). A path without a Solana variant answers "Given function is not applicable".
 */
export function solanaRoute(
	path: string,
	params: Params,
	runtimes: Map<string, SolanaRuntime>,
): Handler | undefined {
	return familyRoute(path, params, runtimes, handlers);
}
