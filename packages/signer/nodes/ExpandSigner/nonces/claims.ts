import type { INode } from 'n8n-workflow';

import { Refusal, refusedItem } from '../policy/refusal';
import type { LedgerStore } from '../ledger/store';

/** What a claim file holds: who took the nonce, when, and (once signed) the transaction that uses it. */
interface ClaimRecord {
	chainId: string;
	address: string;
	nonce: string;
	claimedAt: string;
	executionId: string;
	workflowId: string;
	node: string;
	itemIndex: number;
	/** Written in the claim itself by earlier versions; now in its `.signed` file. */
	transactionHash?: string;
	/** Written in the claim itself by earlier versions; now its `.released` file. */
	released?: boolean;
}

/** A claim as a reader finds it: its record, or `unreadable` text (empty, garbage), and the state files beside it. */
interface FoundClaim {
	/** Where the claim is (ledger/store.ts `where`). */
	where: string;
	record?: ClaimRecord;
	unreadable?: string;
	transactionHash?: string;
	released: boolean;
}

/**
 * When this process first saw each claim it cannot date (unreadable, or dated in the future), by place
 * and content. n8n's file helpers expose no file time, so the reader's own clock is the time a
 * claim's writer cannot forge: such a claim is stale one lease after it was first seen here.
 */
const firstSeen = new Map<string, number>();

/** Who is claiming: the execution, for the message another execution gets. */
export interface ClaimHolder {
	executionId: string;
	workflowId: string;
}

/** What the claim asks of the chain: the pending count, and whether a transaction is known. */
export interface ChainView {
	pendingNonce(): Promise<bigint>;
	knows(transactionHash: string): Promise<boolean>;
}

/** A nonce this execution holds: `signed` records its transaction, `release` gives it up. */
export interface HeldNonce {
	nonce: bigint;
	signed(transactionHash: string): Promise<void>;
	release(): Promise<void>;
}

/** Claims moved up this many times (each time the chain's pending count had passed them) are given up. */
const MAX_MOVES = 16;
/** Takeovers of one nonce (each a new file, `…-<nonce>.<generation>.json`) beyond this are refused. */
const MAX_GENERATIONS = 64;

/**
 * Nonce claims across executions and processes: before an automatic nonce N of a wallet is signed,
 * the record `expand-nonce-<chain>-<address>-<N>.json` is created exclusively in the ledger store.
 * Whoever creates it holds N. Another execution that wants N then:
 * - moves to the chain's pending count when that has passed N (the holder's transaction was sent);
 * - is refused while the claim is younger than the lease (the holder may still send it): taking
 *   N+1 instead could leave a transaction stuck behind a nonce that is never sent;
 * - takes N over when the claim is older than the lease, or released, and N is still the chain's
 *   pending nonce and the holder's transaction unknown to the chain (it was never sent). A takeover
 *   is the exclusive creation of the next generation's file, so two executions never both take over.
 * A claim is written once; its transaction and its release are files of their own beside it
 * (`….signed.json`, `….released.json`). A claim that cannot be read (empty, garbage: a writer that
 * crashed, or a file put there) or is dated in the future is aged from when this process first saw
 * it, so no file blocks a wallet for longer than a lease.
 */
export class NonceClaims {
	constructor(
		private readonly node: INode,
		private readonly store: LedgerStore,
		private readonly holder: ClaimHolder,
		private readonly leaseSeconds: number,
	) {}

	private fileName(chainId: string, address: string, nonce: bigint, generation: number): string {
		return `expand-nonce-${chainId}-${address.toLowerCase()}-${nonce}${generation ? `.${generation}` : ''}.json`;
	}

	private refuse(itemIndex: number, message: string): never {
		throw refusedItem(this.node, itemIndex, new Refusal('nonceClaim', message));
	}

	async claim(
		chainId: string,
		address: string,
		wanted: bigint,
		itemIndex: number,
		chain: ChainView,
	): Promise<HeldNonce> {
		let nonce = wanted;
		for (let move = 0; move <= MAX_MOVES; move++) {
			const held = await this.claimAt(chainId, address, nonce, itemIndex, chain);
			if (typeof held !== 'bigint') return held;
			nonce = held;
		}
		return this.refuse(
			itemIndex,
			`the nonces of ${address} on chain ${chainId} were taken by other executions ${MAX_MOVES} times in a row (from ${wanted} to ${nonce}); run again`,
		);
	}

	/** Holds `nonce`, or says which nonce to try next (the chain's pending count, above it). */
	private async claimAt(
		chainId: string,
		address: string,
		nonce: bigint,
		itemIndex: number,
		chain: ChainView,
	): Promise<HeldNonce | bigint> {
		const record: ClaimRecord = {
			chainId,
			address,
			nonce: nonce.toString(),
			claimedAt: new Date().toISOString(),
			...this.holder,
			node: this.node.name,
			itemIndex,
		};
		let generation = 0;
		while (generation < MAX_GENERATIONS) {
			const name = this.fileName(chainId, address, nonce, generation);
			if (await this.store.create(name, record, itemIndex)) return this.handle(name, record);
			// The newest generation is the current holder.
			let current = generation;
			let holder = await this.readClaim(name, itemIndex);
			for (;;) {
				if (current + 1 >= MAX_GENERATIONS) break;
				const newer = await this.readClaim(
					this.fileName(chainId, address, nonce, current + 1),
					itemIndex,
				);
				if (!newer) break;
				current += 1;
				holder = newer;
			}
			const pending = await chain.pendingNonce();
			if (pending > nonce) return pending;
			if (holder?.transactionHash && (await chain.knows(holder.transactionHash))) return nonce + 1n;
			if (holder && !holder.released) {
				const ageSeconds = (Date.now() - claimedAt(holder)) / 1000;
				if (!(ageSeconds >= this.leaseSeconds)) {
					const who = holder.record
						? `execution ${holder.record.executionId} of workflow ${holder.record.workflowId}, since ${holder.record.claimedAt}`
						: `its claim file ${holder.where} cannot be read`;
					this.refuse(
						itemIndex,
						`nonce ${nonce} of ${address} on chain ${chainId} is held by another execution (${who}) whose transaction is not on the chain yet; run again once it is sent, or after the nonce lease of ${this.leaseSeconds} s if it never is`,
					);
				}
			}
			generation = current + 1;
		}
		return this.refuse(
			itemIndex,
			`nonce ${nonce} of ${address} on chain ${chainId} was taken over ${MAX_GENERATIONS} times; check the claim files in ${this.store.described} by hand`,
		);
	}

	/** The record beside a claim that records its transaction (`signed`) or its release (`released`). */
	private stateRecord(claim: string, state: string): string {
		return claim.replace(/\.json$/, `.${state}.json`);
	}

	private async readClaim(name: string, itemIndex: number): Promise<FoundClaim | undefined> {
		const read = async (record: string) =>
			await this.store.readJson<ClaimRecord>(
				record,
				itemIndex,
				'the nonce claim file',
				'nonceClaim',
			);
		const claim = await read(name);
		if (claim.value === undefined && claim.unreadable === undefined) return undefined;
		const record =
			typeof claim.value === 'object' && claim.value !== null ? claim.value : undefined;
		const signed = await read(this.stateRecord(name, 'signed'));
		const released = await read(this.stateRecord(name, 'released'));
		const hash = signed.value?.transactionHash ?? record?.transactionHash;
		return {
			where: this.store.where(name),
			record,
			unreadable: record ? undefined : (claim.unreadable ?? JSON.stringify(claim.value)),
			transactionHash: typeof hash === 'string' ? hash : undefined,
			// Released by its holder, or by an earlier version in the claim itself.
			released:
				released.value !== undefined ||
				released.unreadable !== undefined ||
				record?.released === true,
		};
	}

	private handle(name: string, record: ClaimRecord): HeldNonce {
		const { itemIndex } = record;
		return {
			nonce: BigInt(record.nonce),
			signed: async (transactionHash) => {
				await this.store.create(this.stateRecord(name, 'signed'), { transactionHash }, itemIndex);
			},
			release: async () => {
				await this.store.create(this.stateRecord(name, 'released'), { released: true }, itemIndex);
			},
		};
	}
}

/**
 * When the claim was made, by a time its writer cannot forge: its own date while that is a date in
 * the past, else when this process first saw it (an unreadable claim, or one dated in the future).
 */
function claimedAt(claim: FoundClaim): number {
	const stated = Date.parse(String(claim.record?.claimedAt ?? ''));
	const now = Date.now();
	if (claim.record && Number.isFinite(stated) && stated <= now) return stated;
	const key = `${claim.where}\n${claim.unreadable ?? JSON.stringify(claim.record)}`;
	const seen = firstSeen.get(key);
	if (seen !== undefined) return seen;
	firstSeen.set(key, now);
	return now;
}
