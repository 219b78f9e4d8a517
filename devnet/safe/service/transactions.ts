import type { SafeChainReader } from '../onChain';
import {
	type ParsedSignature,
	type SafeTx,
	ZERO_ADDRESS,
	parseSignatures,
	safeTxHash,
} from '../safeTx';
import type { DelegateRegistry } from './delegates';
import {
	type Body,
	FieldErrors,
	ServiceValidationError,
	addressField,
	hexField,
	pythonList,
	pythonSet,
	stringField,
	uintField,
} from './fields';
import type { Answer, Page } from './http';
import { sortRecords, transactionFilter } from './filters';
import {
	type Proposal,
	type TxRecord,
	confirmationsOf,
	isTrusted,
	joinRecords,
	serializeTransaction,
} from './records';

/** The service's MAX_SIGNATURE_LENGTH (bytes) for confirmation signatures. */
const MAX_SIGNATURE_LENGTH = 5000;
const OPERATIONS = [0, 1, 2];

const now = () => new Date().toISOString();

/** Multisig transactions of the stand-in: proposals in memory, execution state from the chain. */
export class TransactionStore {
	private readonly proposals = new Map<string, Proposal>();

	constructor(
		private readonly chain: SafeChainReader,
		private readonly delegates: DelegateRegistry,
		/** Safes whose on-chain executions are looked up by hash (the service indexes every Safe of its chain). */
		private readonly knownSafes: Set<string>,
	) {}

	/** Every multisig transaction of a Safe: proposals joined with what the chain executed. */
	async records(safe: string): Promise<TxRecord[]> {
		const proposals = [...this.proposals.values()].filter((proposal) => proposal.safe === safe);
		return joinRecords(safe, proposals, await this.chain.executions(safe));
	}

	async record(hash: string): Promise<TxRecord | undefined> {
		const proposal = this.proposals.get(hash.toLowerCase());
		if (!proposal) return undefined;
		return (await this.records(proposal.safe)).find(
			(record) => record.safeTxHash === proposal.safeTxHash,
		);
	}

	/** GET …/safes/{address}/multisig-transactions/ with the service's filters, ordering and pagination. */
	async list(safe: string, version: 'v1' | 'v2', page: Page): Promise<Answer> {
		const filter = transactionFilter(page.query);
		if (filter instanceof FieldErrors) return { status: 400, body: filter.errors };
		const records = await this.records(safe);
		// An address without a Safe lists nothing, as the service answers for a Safe it never indexed.
		const threshold = await this.chain.threshold(safe).catch(() => 0);
		const selected = sortRecords(records.filter(filter.matches), page.query.get('ordering'));
		const answer = page.paginate(
			selected.map((record) => serializeTransaction(record, version, threshold)),
		);
		const uniqueNonces = new Set(
			records
				.filter((record) => !filter.onlyTrusted || isTrusted(record))
				.map((record) => record.tx.nonce),
		);
		return { status: 200, body: { ...answer, countUniqueNonce: uniqueNonces.size } };
	}

	/** GET …/multisig-transactions/{safeTxHash}/ */
	async detail(hash: string, version: 'v1' | 'v2'): Promise<Answer> {
		const record = await this.findAnywhere(hash);
		if (!record)
			return { status: 404, body: { detail: 'No MultisigTransaction matches the given query.' } };
		return {
			status: 200,
			body: serializeTransaction(record, version, await this.chain.threshold(record.safe)),
		};
	}

	/** A proposal, or a transaction of a known Safe executed on chain without one. */
	private async findAnywhere(hash: string): Promise<TxRecord | undefined> {
		const proposed = await this.record(hash);
		if (proposed) return proposed;
		for (const safe of this.knownSafes) {
			const found = (await this.records(safe)).find(
				(record) => record.safeTxHash === hash.toLowerCase(),
			);
			if (found) return found;
		}
		return undefined;
	}

	/**
	 * POST …/safes/{address}/multisig-transactions/: the checks of the service's
	 * SafeMultisigTransactionSerializer, in its order; 422 with the serializer's errors.
	 */
	async propose(safe: string, body: Body): Promise<Answer> {
		const errors = new FieldErrors();
		const to = addressField(body, 'to', errors, { allowZero: true, allowSentinel: true });
		const value = uintField(body, 'value', errors);
		const data = hexField(body, 'data', errors, {
			required: false,
			allowNull: true,
			allowBlank: true,
		});
		const operation = uintField(body, 'operation', errors);
		if (operation !== undefined && !OPERATIONS.includes(Number(operation)))
			errors.add('operation', 'Unknown operation');
		const gasToken = addressField(body, 'gasToken', errors, {
			required: false,
			allowNull: true,
			allowZero: true,
		});
		const safeTxGas = uintField(body, 'safeTxGas', errors);
		const baseGas = uintField(body, 'baseGas', errors);
		const gasPrice = uintField(body, 'gasPrice', errors);
		const refundReceiver = addressField(body, 'refundReceiver', errors, {
			required: false,
			allowNull: true,
			allowZero: true,
		});
		const nonce = uintField(body, 'nonce', errors);
		const contractTransactionHash = hexField(body, 'contractTransactionHash', errors, {
			minLength: 32,
			maxLength: 32,
		});
		const sender = addressField(body, 'sender', errors);
		const signature = hexField(body, 'signature', errors, {
			required: false,
			allowNull: true,
			minLength: 65,
		});
		const origin = stringField(body, 'origin', errors, {
			required: false,
			allowNull: true,
			maxLength: 200,
		});
		if (errors.any) return { status: 422, body: errors.errors };

		const tx: SafeTx = {
			to: to as string,
			value: String(value),
			data: data ?? '0x',
			operation: Number(operation),
			safeTxGas: String(safeTxGas),
			baseGas: String(baseGas),
			gasPrice: String(gasPrice),
			gasToken: gasToken ?? ZERO_ADDRESS,
			refundReceiver: refundReceiver ?? ZERO_ADDRESS,
			nonce: String(nonce),
		};
		try {
			const proposal = await this.validateProposal(
				safe,
				tx,
				contractTransactionHash as string,
				sender as string,
				signature,
			);
			this.knownSafes.add(safe);
			this.save(proposal, origin);
			return { status: 201 };
		} catch (error) {
			if (error instanceof ServiceValidationError) return { status: 422, body: error.body };
			throw error;
		}
	}

	private async validateProposal(
		safe: string,
		tx: SafeTx,
		contractTransactionHash: string,
		sender: string,
		signature: string | undefined,
	) {
		if (tx.operation === 2)
			throw new ServiceValidationError('Operation CREATE not supported. Please use Safe CreateLib');
		const hash = safeTxHash(this.chain.chainId, safe, tx);
		if (hash !== contractTransactionHash)
			throw new ServiceValidationError(
				`Contract-transaction-hash=${hash} does not match provided contract-tx-hash=${contractTransactionHash}`,
			);
		// The nonce may not be one the Safe already used: the service refuses it once an execution at that nonce is indexed.
		const executedAtNonce = (await this.chain.executions(safe)).filter(
			(execution) => execution.tx.nonce === tx.nonce,
		);
		const sameHash = executedAtNonce.find((execution) => execution.safeTxHash === hash);
		if (sameHash)
			throw new ServiceValidationError(
				`Tx with safe-tx-hash=${hash} for safe=${safe} was already executed in tx-hash=${sameHash.transactionHash}`,
			);
		if (executedAtNonce.length)
			throw new ServiceValidationError(
				`Tx with nonce=${tx.nonce} for safe=${safe} already executed in tx-hash=${executedAtNonce[0].transactionHash}`,
			);
		const owners = await this.chain.owners(safe);
		if (!owners)
			throw new ServiceValidationError(
				`Could not get Safe ${safe} owners from blockchain, check contract exists on network ${networkName(this.chain.chainId)}`,
			);
		const delegates = this.delegates.delegatesOf(safe, owners);
		const allowed = new Set([...owners, ...delegates]);
		const rights = `Current owners=${pythonList(owners)}. Delegates=${pythonSet(delegates)}`;
		if (!allowed.has(sender))
			throw new ServiceValidationError(`Sender=${sender} is not an owner or delegate. ${rights}`);

		const parsed = signature ? parseSignatures(signature, hash) : [];
		const signers: string[] = [];
		for (const entry of parsed) {
			const { owner } = entry;
			if (!(await this.isValid(safe, entry, hash)))
				throw new ServiceValidationError(
					`Signature=${entry.signature} for owner=${owner} is not valid`,
				);
			if (delegates.has(owner) && !owners.includes(owner) && parsed.length > 1)
				throw new ServiceValidationError('Just one signature is expected if using delegates');
			if (!allowed.has(owner))
				throw new ServiceValidationError(`Signer=${owner} is not an owner or delegate. ${rights}`);
			if (signers.includes(owner))
				throw new ServiceValidationError(`Signature for owner=${owner} is duplicated`);
			signers.push(owner);
		}
		if (signers.length && !signers.includes(sender))
			throw new ServiceValidationError(
				`Signature does not match sender=${sender}. Calculated owners=${pythonList(signers)}`,
			);

		const byOwner = owners.includes(sender);
		const time = now();
		const proposal: Proposal = {
			safe,
			tx,
			safeTxHash: hash,
			proposer: byOwner ? sender : (this.delegates.delegatorOf(safe, owners, sender) as string),
			proposedByDelegate: byOwner ? null : sender,
			origin: '{}',
			trusted: parsed.length > 0,
			submissionDate: time,
			modified: time,
			// Only owners' signatures confirm: a delegate's proposal starts with none.
			confirmations: parsed
				.filter((entry) => owners.includes(entry.owner))
				.map((entry) => ({
					owner: entry.owner,
					submissionDate: time,
					transactionHash: null,
					signature: entry.signature,
					signatureType: entry.type,
				})),
		};
		return proposal;
	}

	/** The service's get_or_create: a second post of the same hash only adds trust and missing confirmations. */
	private save(proposal: Proposal, origin: string | undefined) {
		proposal.origin = origin ?? '{}';
		const existing = this.proposals.get(proposal.safeTxHash);
		if (!existing) {
			this.proposals.set(proposal.safeTxHash, proposal);
			return;
		}
		if (proposal.trusted && !existing.trusted) {
			existing.trusted = true;
			existing.origin = proposal.origin;
		}
		for (const confirmation of proposal.confirmations)
			if (!existing.confirmations.some((known) => known.owner === confirmation.owner))
				existing.confirmations.push(confirmation);
	}

	/** SafeSignature.is_valid: EOA and eth_sign signatures by recovery, approved hashes on chain; no EIP-1271 here. */
	private async isValid(safe: string, entry: ParsedSignature, hash: string): Promise<boolean> {
		if (entry.type === 'EOA' || entry.type === 'ETH_SIGN') return entry.owner !== ZERO_ADDRESS;
		if (entry.type === 'APPROVED_HASH') return this.chain.approvedHash(safe, entry.owner, hash);
		return false;
	}

	/** GET /api/v1/multisig-transactions/{safeTxHash}/confirmations/ */
	async confirmations(hash: string, page: Page): Promise<Answer> {
		const record = await this.findAnywhere(hash);
		return { status: 200, body: page.paginate(record ? confirmationsOf(record) : []) };
	}

	/** POST /api/v1/multisig-transactions/{safeTxHash}/confirmations/: owners' signatures only; 400 on a bad one. */
	async confirm(hash: string, body: Body): Promise<Answer> {
		const errors = new FieldErrors();
		const signature = hexField(body, 'signature', errors, {
			minLength: 65,
			maxLength: MAX_SIGNATURE_LENGTH,
		});
		if (errors.any) return { status: 400, body: errors.errors };
		const record = await this.findAnywhere(hash);
		if (!record)
			return {
				status: 404,
				body: { detail: `Multisig transaction with safe-tx-hash=${hash} was not found` },
			};
		const refuse = (message: string): Answer => ({ status: 400, body: { signature: [message] } });
		if (record.execution || !record.proposal)
			return refuse(`Transaction with safe-tx-hash=${hash} was already executed`);
		const owners = (await this.chain.owners(record.safe)) ?? [];
		const parsed = parseSignatures(signature as string, record.safeTxHash);
		const signers: string[] = [];
		for (const entry of parsed) {
			if (!owners.includes(entry.owner))
				return refuse(
					`Signer=${entry.owner} is not an owner. Current owners=${pythonList(owners)}`,
				);
			if (!(await this.isValid(record.safe, entry, record.safeTxHash)))
				return refuse(`Signature=${entry.signature} for owner=${entry.owner} is not valid`);
			if (signers.includes(entry.owner))
				return refuse(`Signature for owner=${entry.owner} is duplicated`);
			signers.push(entry.owner);
		}
		const { proposal } = record;
		const time = now();
		for (const entry of parsed)
			if (!proposal.confirmations.some((known) => known.owner === entry.owner))
				proposal.confirmations.push({
					owner: entry.owner,
					submissionDate: time,
					transactionHash: null,
					signature: entry.signature,
					signatureType: entry.type,
				});
		proposal.trusted = true;
		proposal.modified = time;
		return { status: 201, body: { signature } };
	}
}

/** safe-eth-py's EthereumNetwork name of the chain, as the service prints it (31337 is GoChain's testnet there). */
function networkName(chainId: string): string {
	return chainId === '31337' ? 'GOCHAIN_TESTNET' : 'UNKNOWN';
}
