import {
	COMPUTE_BUDGET_PROGRAM_ADDRESS,
	ComputeBudgetInstruction,
	MAX_COMPUTE_UNIT_LIMIT,
	parseComputeBudgetInstruction,
} from '@solana-program/compute-budget';
import {
	SYSTEM_PROGRAM_ADDRESS,
	SystemInstruction,
	parseSystemInstruction,
} from '@solana-program/system';
import {
	ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
	AssociatedTokenInstruction,
	TOKEN_PROGRAM_ADDRESS,
	TokenInstruction,
	parseAssociatedTokenInstruction,
	parseTokenInstruction,
} from '@solana-program/token';
import {
	type Instruction,
	type Transaction,
	decompileTransactionMessage,
	getBase58Encoder,
	getBase64Encoder,
	getCompiledTransactionMessageDecoder,
	getTransactionDecoder,
} from '@solana/kit';

/** Solana's base fee, a protocol constant: lamports per signature the transaction carries. */
export const LAMPORTS_PER_SIGNATURE = 5000n;
/** Compute units an instruction may use when the transaction sets no limit. */
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000n;

/** One instruction as the spending policy reads it. */
export type DecodedInstruction =
	| { kind: 'transferSol'; from: string; to: string; lamports: bigint }
	| {
			kind: 'tokenTransfer' | 'tokenApprove';
			/** The signer's token account the tokens leave (or are delegated from). */
			source: string;
			/** The receiving token account, or the delegate of an approval. */
			destination: string;
			authority: string;
			/** When the authority is an SPL multisig: the signer accounts after the named ones. */
			multiSigners: string[];
			amount: bigint;
			/** Named by the Checked variants; resolved from the source account otherwise. */
			mint?: string;
			decimals?: number;
	  }
	| { kind: 'createTokenAccount'; payer: string; account: string; owner: string; mint: string }
	| { kind: 'computeUnitLimit'; units: bigint }
	| { kind: 'computeUnitPrice'; microLamports: bigint }
	| { kind: 'opaque'; programAddress: string; what: string };

export interface DecodedTransaction {
	feePayer: string;
	/** The accounts whose signatures the transaction needs, fee payer first. */
	signers: string[];
	/** The recent blockhash, or the durable nonce's value. */
	blockhash: string;
	/** The transaction's lifetime is a durable nonce (it stays valid until the nonce account advances), not a recent blockhash. */
	durableNonce: boolean;
	instructions: DecodedInstruction[];
	/** What the network charges: 5,000 lamports per signature plus the priority fee (compute-unit price × limit, rounded up). */
	fee: bigint;
}

/** A transaction the Signer cannot read at all (it would not know what it signs). */
export class UndecodableTransaction extends Error {}

function decodeInstruction(instruction: Instruction): DecodedInstruction {
	const program = instruction.programAddress;
	const withData = instruction as Parameters<typeof parseSystemInstruction>[0];
	try {
		if (program === SYSTEM_PROGRAM_ADDRESS) {
			const parsed = parseSystemInstruction(withData);
			if (parsed.instructionType === SystemInstruction.TransferSol) {
				return {
					kind: 'transferSol',
					from: parsed.accounts.source.address,
					to: parsed.accounts.destination.address,
					lamports: parsed.data.amount,
				};
			}
			return {
				kind: 'opaque',
				programAddress: program,
				what: `System ${SystemInstruction[parsed.instructionType]}`,
			};
		}
		if (program === TOKEN_PROGRAM_ADDRESS) {
			const parsed = parseTokenInstruction(withData);
			switch (parsed.instructionType) {
				case TokenInstruction.Transfer:
				case TokenInstruction.TransferChecked:
				case TokenInstruction.Approve:
				case TokenInstruction.ApproveChecked: {
					const accounts = parsed.accounts as Record<string, { address: string } | undefined>;
					const checked =
						parsed.instructionType === TokenInstruction.TransferChecked ||
						parsed.instructionType === TokenInstruction.ApproveChecked;
					const transfer =
						parsed.instructionType === TokenInstruction.Transfer ||
						parsed.instructionType === TokenInstruction.TransferChecked;
					const data = parsed.data as { amount: bigint; decimals?: number };
					return {
						kind: transfer ? 'tokenTransfer' : 'tokenApprove',
						source: (accounts.source as { address: string }).address,
						destination: (
							(transfer ? accounts.destination : accounts.delegate) as { address: string }
						).address,
						authority: ((transfer ? accounts.authority : accounts.owner) as { address: string })
							.address,
						multiSigners: (instruction.accounts ?? [])
							.slice(checked ? 4 : 3)
							.map((account) => account.address),
						amount: data.amount,
						...(checked
							? { mint: (accounts.mint as { address: string }).address, decimals: data.decimals }
							: {}),
					};
				}
				default:
					return {
						kind: 'opaque',
						programAddress: program,
						what: `SPL Token ${TokenInstruction[parsed.instructionType]}`,
					};
			}
		}
		if (program === ASSOCIATED_TOKEN_PROGRAM_ADDRESS) {
			const parsed = parseAssociatedTokenInstruction(withData);
			if (parsed.instructionType === AssociatedTokenInstruction.RecoverNestedAssociatedToken) {
				return { kind: 'opaque', programAddress: program, what: 'Associated Token RecoverNested' };
			}
			const { payer, ata, owner, mint } = parsed.accounts as unknown as Record<
				string,
				{ address: string }
			>;
			return {
				kind: 'createTokenAccount',
				payer: payer.address,
				account: ata.address,
				owner: owner.address,
				mint: mint.address,
			};
		}
		if (program === COMPUTE_BUDGET_PROGRAM_ADDRESS) {
			const parsed = parseComputeBudgetInstruction(withData);
			if (parsed.instructionType === ComputeBudgetInstruction.SetComputeUnitLimit)
				return { kind: 'computeUnitLimit', units: BigInt(parsed.data.units) };
			if (parsed.instructionType === ComputeBudgetInstruction.SetComputeUnitPrice)
				return { kind: 'computeUnitPrice', microLamports: BigInt(parsed.data.microLamports) };
			return {
				kind: 'opaque',
				programAddress: program,
				what: `Compute Budget ${ComputeBudgetInstruction[parsed.instructionType]}`,
			};
		}
	} catch {
		return {
			kind: 'opaque',
			programAddress: program,
			what: 'an instruction its program client cannot parse',
		};
	}
	return {
		kind: 'opaque',
		programAddress: program,
		what: 'an instruction of a program the Signer does not read',
	};
}

/**
 * Whether an instruction is the System program's AdvanceNonceAccount as the runtime reads it (its
 * data's first 4 bytes), in whatever form; @solana/kit names a lifetime a nonce only for the exact
 * 3-account, 4-byte one, and the runtime takes the others as durable-nonce transactions too.
 */
function advancesNonce(instruction: Instruction | undefined): boolean {
	const data = (instruction as { data?: Uint8Array } | undefined)?.data;
	return (
		instruction?.programAddress === SYSTEM_PROGRAM_ADDRESS &&
		!!data &&
		data.length >= 4 &&
		data[0] === 4 &&
		data[1] === 0 &&
		data[2] === 0 &&
		data[3] === 0
	);
}

function readMessage(
	transaction: Transaction,
): ReturnType<typeof decompileTransactionMessage> | undefined {
	try {
		return decompileTransactionMessage(
			getCompiledTransactionMessageDecoder().decode(transaction.messageBytes),
		);
	} catch {
		return undefined;
	}
}

/** Reads a transaction's message with the programs' own clients (@solana-program/*): what moves, to whom, and the fee. */
export function decodeTransaction(transaction: Transaction): DecodedTransaction {
	const message = readMessage(transaction);
	if (!message) {
		// Address lookup tables name accounts the message does not contain; without them nothing can be checked.
		throw new UndecodableTransaction(
			'The transaction cannot be read (a message with address lookup tables, or malformed)',
		);
	}
	const messageInstructions = message.instructions as readonly Instruction[];
	const instructions = messageInstructions.map((instruction) => decodeInstruction(instruction));
	const signers = Object.keys(transaction.signatures);
	const limitInstruction = instructions.find(
		(instruction) => instruction.kind === 'computeUnitLimit',
	);
	const priceInstruction = instructions.find(
		(instruction) => instruction.kind === 'computeUnitPrice',
	);
	const budgetInstructions = messageInstructions.filter(
		(instruction) => instruction.programAddress === COMPUTE_BUDGET_PROGRAM_ADDRESS,
	).length;
	const defaultLimit =
		DEFAULT_UNITS_PER_INSTRUCTION * BigInt(messageInstructions.length - budgetInstructions);
	const limit =
		limitInstruction?.kind === 'computeUnitLimit'
			? limitInstruction.units
			: defaultLimit < BigInt(MAX_COMPUTE_UNIT_LIMIT)
				? defaultLimit
				: BigInt(MAX_COMPUTE_UNIT_LIMIT);
	const price =
		priceInstruction?.kind === 'computeUnitPrice' ? BigInt(priceInstruction.microLamports) : 0n;
	return {
		feePayer: message.feePayer.address,
		signers,
		blockhash:
			'blockhash' in message.lifetimeConstraint
				? message.lifetimeConstraint.blockhash
				: message.lifetimeConstraint.nonce,
		durableNonce:
			!('blockhash' in message.lifetimeConstraint) ||
			advancesNonce(messageInstructions[0] as Instruction | undefined),
		instructions,
		fee: BigInt(signers.length) * LAMPORTS_PER_SIGNATURE + (price * limit + 999_999n) / 1_000_000n,
	};
}

/** A wire transaction from its text (base64, as the API's Solana operations return it, or base58); undefined when it is not one. */
export function readWireTransaction(
	text: string,
	encoding: 'base64' | 'base58',
): Transaction | undefined {
	const pattern = encoding === 'base58' ? /^[1-9A-HJ-NP-Za-km-z]+$/ : /^[A-Za-z0-9+/]+={0,2}$/;
	if (!pattern.test(text)) return undefined;
	try {
		return getTransactionDecoder().decode(
			encoding === 'base58' ? getBase58Encoder().encode(text) : getBase64Encoder().encode(text),
		);
	} catch {
		return undefined;
	}
}

/** The signing domain that starts every Solana off-chain message (`\xffsolana offchain`). */
const OFFCHAIN_DOMAIN = new Uint8Array([0xff, ...new TextEncoder().encode('solana offchain')]);

/**
 * What a message's bytes are, for the policy: a transaction message (whose signature would let anyone send
 * that transaction), an off-chain message, UTF-8 text, or other bytes.
 */
export function messageKind(bytes: Uint8Array): 'transaction' | 'offchain' | 'text' | 'bytes' {
	try {
		const [, end] = getCompiledTransactionMessageDecoder().read(bytes, 0);
		if (end === bytes.length) return 'transaction';
	} catch {
		// Not a transaction message.
	}
	if (
		bytes.length >= OFFCHAIN_DOMAIN.length &&
		OFFCHAIN_DOMAIN.every((byte, index) => bytes[index] === byte)
	)
		return 'offchain';
	try {
		new TextDecoder('utf-8', { fatal: true }).decode(bytes);
		return 'text';
	} catch {
		return 'bytes';
	}
}
