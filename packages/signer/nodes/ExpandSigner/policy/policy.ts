import { getAddress } from 'ethers';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { formatUnits, toSmallestUnit } from '../core';
import { CredentialFieldError } from './vocabulary';

/**
 * The spending policy of a signing credential. Every field is optional; the fee ceilings have
 * defaults, so a transaction is never signed without them. Documented in docs/signer.md.
 */
export interface SpendingPolicy {
	/** Empty: any chain. */
	chainIds: Set<string>;
	/** Lower-case addresses; empty: any recipient. */
	recipients: Set<string>;
	/** Contracts (programs) that may be called with what the Signer cannot read as a payment; keys as `recipients`. */
	contracts: Set<string>;
	/** Whether Deploy Contract may sign while the spending rules are set. */
	allowDeploy: boolean;
	/** Whether messages and typed data the Signer cannot read may be signed while any policy field is set. */
	allowAnyMessage: boolean;
	/** Whether Propose to Safe may propose a call to the Safe itself or a change of its owners, threshold, modules, guard or fallback handler. */
	allowSafeManagement: boolean;
	/**
	 * When a From Input Item transaction must arrive with the intent an Expand write outputs beside it:
	 * `auto` while an amount limit, the recipient list or Allowed Contracts and Programs is set.
	 */
	requireIntent: RequireIntent;
	perTransaction: AssetLimit[];
	perExecution: AssetLimit[];
	/** Per UTC day, and over the 30 UTC days up to and including today; counted in the payout ledger. */
	perDay: AssetLimit[];
	per30Days: AssetLimit[];
	/** Where the totals are counted, in words ("the Payout Ledger Folder"); undefined: Max Per Execution in this process's memory. */
	countedIn?: string;
	maxFeePerGas: bigint;
	maxGasLimit: bigint;
	/** Per transaction, in the native asset's smallest unit. */
	maxTotalFee: bigint;
	/** How the chain family writes addresses, and its native asset's decimals. */
	format: PolicyFormat;
}

/**
 * What the policy needs to know of a chain family's addresses: how to check one, and the key it is
 * compared by (EVM: lower case, as its checksum is only letter case; Solana: base58 exactly).
 */
export interface PolicyFormat {
	addressKind: string;
	isAddress(text: string): boolean;
	key(address: string): string;
	nativeDecimals: number;
	/** The native asset's symbol where the whole family has one (SOL); the EVM chains each have their own. */
	nativeSymbol?: string;
	/** The smallest unit's name, for messages: wei, lamports. */
	smallestUnit: string;
	/** Max Total Fee when the field is empty, in whole native units. */
	defaultMaxTotalFee: string;
	/** Whether fees are gas × fee per gas, with the gas limit and fee-per-gas ceilings (EVM). */
	gasRules: boolean;
	/**
	 * Who sets and pays the fee when the Signer does not (a custodian: "Fireblocks"): the policy then
	 * holds no fee ceiling, and its summary says so instead of quoting the gas and total fee limits.
	 */
	feesSetBy?: string;
	/** What the recipient allowlist reads, in words. */
	readableCalls: string;
	/** The decimals every token of the family has (Stellar's 7): an amount line may leave them out, and may not write others. */
	tokenDecimals?: number;
	/** An intent's memo as the family's movements write theirs (a Stellar plain text memo as `text:…`); undefined: as it is. */
	intentMemo?(memo: string): string;
}

export interface AssetLimit {
	/** 'native' or a token address in lower case. */
	asset: string;
	/** Only on this chain; undefined: on every chain. */
	chainId?: string;
	decimals: number;
	/** In the smallest unit. */
	amount: bigint;
}

export type RequireIntent = 'auto' | 'always' | 'never';

const REQUIRE_INTENT: RequireIntent[] = ['auto', 'always', 'never'];

/** Far above any normal mainnet transfer, far below a runaway fee: see docs/signer.md. */
export const DEFAULT_MAX_FEE_PER_GAS_GWEI = '10000';
export const DEFAULT_MAX_GAS_LIMIT = '15000000';
export const DEFAULT_MAX_TOTAL_FEE = '1';

const GWEI_DECIMALS = 9;

/** Without a payout ledger, the per-execution totals of this many of the newest executions are kept in memory. */
export const EXECUTIONS_IN_MEMORY = 10_000;

export { CredentialFieldError };

function list(text: unknown): string[] {
	return String(text ?? '')
		.split(/[\s,;]+/)
		.map((entry) => entry.trim())
		.filter(Boolean);
}

function amountOf(field: string, text: string, decimals: number): bigint {
	const raw = toSmallestUnit(text, decimals);
	if (raw === undefined)
		throw new CredentialFieldError(
			`The policy field "${field}" must be a decimal number with at most ${decimals} decimal places; got "${text}"`,
		);
	return BigInt(raw);
}

/** `native = 0.5`, `native@137 = 200`, `0xToken:6 = 1000`, `0xToken:6@1 = 1000`, one per line (a Solana mint, a TON jetton master in any form, in place of 0xToken). */
function limitsOf(field: string, text: unknown, format: PolicyFormat): AssetLimit[] {
	const lines = String(text ?? '')
		.split(/\r?\n/)
		.map((line) => line.trim())
		.filter((line) => line && !line.startsWith('#'));
	return lines.map((line, index) => {
		// The address is what comes before the last colon (a raw TON address holds one), checked by the format.
		const match =
			/^(?:native|(\S+):(\d{1,2}))(?:@(\d+))?\s*=\s*(\S+)$/.exec(line) ??
			(format.tokenDecimals === undefined
				? null
				: /^(?!native\b)(\S+?)()(?:@(\d+))?\s*=\s*(\S+)$/.exec(line));
		if (!match) {
			throw new CredentialFieldError(
				`Line ${index + 1} of the policy field "${field}" must read "native = 0.5", "native@137 = 200" or "0xTokenAddress:decimals = 1000" (optionally @chainId after the asset); got "${line}"`,
			);
		}
		const [, token, decimalsText, chainId, amountText] = match;
		const decimals =
			token === undefined
				? format.nativeDecimals
				: decimalsText
					? Number(decimalsText)
					: (format.tokenDecimals as number);
		if (
			token !== undefined &&
			format.tokenDecimals !== undefined &&
			decimals !== format.tokenDecimals
		)
			throw new CredentialFieldError(
				`Line ${index + 1} of the policy field "${field}" writes ${decimals} decimals for "${token}"; every token of this chain family has ${format.tokenDecimals}`,
			);
		if (token !== undefined && !format.isAddress(token))
			throw new CredentialFieldError(
				`Line ${index + 1} of the policy field "${field}" names an invalid token address "${token}"`,
			);
		return {
			asset: token === undefined ? 'native' : format.key(token),
			chainId,
			decimals,
			amount: amountOf(field, amountText, decimals),
		};
	});
}

/**
 * Reads the policy fields of the signing credential; a field that cannot be read is an error, never
 * ignored. `readCountedIn` gives the credential's payout ledger in words (countedInOf), undefined when
 * it has none; it runs after Require Intent is read, so a credential with several unreadable fields
 * names the same one first as it always did.
 */
export function readPolicy(
	credentials: ICredentialDataDecryptedObject,
	format: PolicyFormat,
	readCountedIn: (() => string | undefined) | undefined,
): SpendingPolicy {
	const chainIds = list(credentials.allowedChainIds);
	for (const chainId of chainIds) {
		if (!/^[1-9]\d*$/.test(chainId))
			throw new CredentialFieldError(
				`The policy field "allowedChainIds" must list chain IDs above 0; got "${chainId}"`,
			);
	}
	const addresses = (field: string) => {
		const entries = list(credentials[field]);
		for (const entry of entries) {
			if (!format.isAddress(entry))
				throw new CredentialFieldError(
					`The policy field "${field}" must list ${format.addressKind}; got "${entry}"`,
				);
		}
		return new Set(entries.map((entry) => format.key(entry)));
	};
	const text = (name: string, fallback: string) =>
		String(credentials[name] ?? '').trim() || fallback;
	const requireIntent = text('requireIntent', 'auto') as RequireIntent;
	if (!REQUIRE_INTENT.includes(requireIntent))
		throw new CredentialFieldError(
			`The policy field "requireIntent" must be one of ${REQUIRE_INTENT.join(', ')}; got "${requireIntent}"`,
		);
	const countedIn = readCountedIn?.();
	const perDay = limitsOf('maxPerDay', credentials.maxPerDay, format);
	const per30Days = limitsOf('maxPer30Days', credentials.maxPer30Days, format);
	if ((perDay.length || per30Days.length) && !countedIn)
		throw new CredentialFieldError(
			`The policy fields "maxPerDay" and "maxPer30Days" need a payout ledger (folder or PostgreSQL), where the spending of every execution and process is counted; without it they cannot be counted, so nothing is signed. Set the Payout Ledger Folder or the PostgreSQL Ledger Store, or clear ${perDay.length ? '"maxPerDay"' : '"maxPer30Days"'}`,
		);
	return {
		chainIds: new Set(chainIds),
		recipients: addresses('allowedRecipients'),
		contracts: addresses('allowedContracts'),
		allowDeploy: credentials.allowContractDeployment === true,
		allowAnyMessage: credentials.allowAnyMessage === true,
		allowSafeManagement: credentials.allowSafeManagement === true,
		requireIntent,
		perTransaction: limitsOf('maxPerTransaction', credentials.maxPerTransaction, format),
		perExecution: limitsOf('maxPerExecution', credentials.maxPerExecution, format),
		perDay,
		per30Days,
		countedIn,
		maxFeePerGas: amountOf(
			'maxFeePerGasGwei',
			text('maxFeePerGasGwei', DEFAULT_MAX_FEE_PER_GAS_GWEI),
			GWEI_DECIMALS,
		),
		maxGasLimit: amountOf('maxGasLimit', text('maxGasLimit', DEFAULT_MAX_GAS_LIMIT), 0),
		maxTotalFee: amountOf(
			'maxTotalFee',
			text('maxTotalFee', format.defaultMaxTotalFee),
			format.nativeDecimals,
		),
		format,
	};
}

/**
 * Whether the spending rules are set (a recipient list or an amount limit): then what the Signer cannot
 * read as a payment is refused unless its contract is listed, as a cap means nothing if an unread call can
 * move the same funds.
 */
export function guarded(policy: SpendingPolicy): boolean {
	return policy.recipients.size > 0 || amountLimits(policy).length > 0;
}

/** Every amount limit line, whatever its period. */
export function amountLimits(policy: SpendingPolicy): AssetLimit[] {
	return [...policy.perTransaction, ...policy.perExecution, ...policy.perDay, ...policy.per30Days];
}

/**
 * Whether a spending rule is set: an amount limit, the recipient list or Allowed Contracts and
 * Programs. Then a call the intent cannot bind (a swap) needs its contract listed, and Require Intent
 * applies by default. Allowed Chain IDs alone is none, so a credential that only pins chains keeps
 * signing what its saved workflows signed.
 */
export function spendingRuleSet(policy: SpendingPolicy): boolean {
	return guarded(policy) || policy.contracts.size > 0;
}

/** Whether a From Input Item transaction must arrive with an intent (credential field Require Intent). */
export function intentRequired(policy: SpendingPolicy): boolean {
	if (policy.requireIntent === 'always') return true;
	if (policy.requireIntent === 'never') return false;
	return spendingRuleSet(policy);
}

/** Whether any policy field is set: then what the Signer cannot read is refused rather than signed. */
export function hasPolicy(policy: SpendingPolicy): boolean {
	return guarded(policy) || policy.chainIds.size > 0 || policy.contracts.size > 0;
}

/** The limit of an asset on a chain: a chain-specific line wins over an any-chain one. */
export function limitFor(
	limits: AssetLimit[],
	asset: string,
	chainId: string,
): AssetLimit | undefined {
	const matching = limits.filter((limit) => limit.asset === asset);
	return (
		matching.find((limit) => limit.chainId === chainId) ??
		matching.find((limit) => limit.chainId === undefined)
	);
}

/**
 * The decimals the policy writes for a token on a chain (a limit line's `token:decimals`), if any:
 * the policy's word, which no chain node's answer overrides.
 */
export function writtenDecimals(
	policy: SpendingPolicy,
	asset: string,
	chainId: string,
): number | undefined {
	return limitFor(amountLimits(policy), policy.format.key(asset), chainId)?.decimals;
}

/** An address as people read it: EVM addresses checksummed, others (base58) as they are. */
export function shownAddress(address: string): string {
	return address.startsWith('0x') ? getAddress(address) : address;
}

export function assetName(asset: string, decimals?: number): string {
	if (asset === 'native') return 'the native asset';
	return decimals === undefined
		? `token ${shownAddress(asset)}`
		: `token ${shownAddress(asset)} (${decimals} decimals)`;
}

function limitText(limit: AssetLimit): string {
	return `${formatUnits(limit.amount.toString(), limit.decimals)} of ${assetName(limit.asset, limit.decimals)}${limit.chainId ? ` on chain ${limit.chainId}` : ''}`;
}

/** The policy in words, for the credential test and the docs. */
export function describePolicy(policy: SpendingPolicy): string {
	const parts = [
		policy.chainIds.size ? `chains ${[...policy.chainIds].join(', ')} only` : 'any chain',
		policy.recipients.size
			? `only to ${policy.recipients.size} allowed recipient${policy.recipients.size === 1 ? '' : 's'} (${policy.format.readableCalls})`
			: 'any recipient',
		guarded(policy)
			? `calls it cannot read as a payment refused unless their contract is listed (${policy.contracts.size} in Allowed Contracts and Programs)${policy.format.gasRules ? `; contract deployment ${policy.allowDeploy ? 'allowed' : 'refused'}` : ''}`
			: 'NOT COVERED: with no amount limit and no recipient list, calls it cannot read as a payment are signed as they come (the API chooses what they do)',
		policy.perTransaction.length
			? `per transaction at most ${policy.perTransaction.map(limitText).join('; ')}`
			: 'no per-transaction amount limit',
		policy.perExecution.length
			? `per execution at most ${policy.perExecution.map(limitText).join('; ')} (${policy.countedIn ? `counted in ${policy.countedIn} over every Signer node of the execution with this credential, wherever it resumes` : `counted in this n8n process's memory only, with no payout ledger: an execution resumed after a restart or on another worker, or after ${EXECUTIONS_IN_MEMORY} later executions in this process, counts from zero`})`
			: 'no per-execution total',
		...(policy.perDay.length
			? [
					`per UTC day (calendar day, from 00:00 UTC) at most ${policy.perDay.map(limitText).join('; ')}`,
				]
			: []),
		...(policy.per30Days.length
			? [
					`per 30 days (rolling: today and the 29 UTC days before) at most ${policy.per30Days.map(limitText).join('; ')}`,
				]
			: []),
		...(policy.perDay.length || policy.per30Days.length
			? [
					`these budgets are counted in ${policy.countedIn} over every execution and process using it, per chain, from just before signing, and given back when a signature does not leave the node`,
				]
			: []),
		...(policy.perExecution.length || policy.perDay.length || policy.per30Days.length
			? [
					`each of these totals also counts per signing account (for Propose to Safe, the Safe) over every credential that signs for it ${policy.countedIn ? `with ${policy.countedIn}` : 'in this n8n process'}, and the lowest of their limits binds`,
				]
			: []),
		...(policy.format.feesSetBy
			? [
					`no fee ceilings: ${policy.format.feesSetBy} sets and pays the fee (the gas and total fee limits do not apply)`,
				]
			: [
					...(policy.format.gasRules
						? [
								`fee per gas at most ${formatUnits(policy.maxFeePerGas.toString(), GWEI_DECIMALS)} gwei`,
								`gas limit at most ${policy.maxGasLimit}`,
							]
						: []),
					`total fee at most ${formatUnits(policy.maxTotalFee.toString(), policy.format.nativeDecimals)} native units per transaction`,
				]),
		`a transaction from an input item is signed only as the Expand intent beside it asked (chain, sender, ${policy.format.gasRules ? 'native or ERC-20 transfer, transferFrom or approve' : 'SOL or SPL transfer or approval'} with its token, recipient and amount; a call it cannot read, such as a swap, with no more native value than asked${spendingRuleSet(policy) ? ' and only with its contract on Allowed Contracts and Programs' : ' (NOT COVERED: with no spending rule, which contract it calls and what the call does)'})`,
		intentRequired(policy)
			? 'one without an intent refused (Require Intent)'
			: 'NOT COVERED: one without an intent is signed on the rules above alone (Require Intent)',
	];
	return `Policy: ${parts.join('; ')}.`;
}
