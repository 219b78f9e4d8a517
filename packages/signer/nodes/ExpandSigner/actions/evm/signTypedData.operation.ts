import { TypedDataEncoder } from 'ethers';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { itemError } from '../../core';
import { typedDataMovements } from '../../families/evm/typedData';
import { chainRefusal, checkEffect } from '../../policy/check';
import { guarded, hasPolicy, type SpendingPolicy } from '../../policy/policy';
import { Refusal, refusedItem } from '../../policy/refusal';
import type { TransactionEffect } from '../../policy/vocabulary';
import { localWallet } from '../../families/evm/accounts';
import { accountOf } from '../account';
import type { EvmSession } from './session';

/**
 * The policy on typed data: its domain's chain must be allowed, a known approval (a permit) is checked
 * like `approve`, and while any policy field is set, typed data of no known kind is refused unless the
 * credential allows any. Returns the refusal, or the approval's effect to count once signed.
 */
function typedDataRule(
	policy: SpendingPolicy,
	data: {
		domain: IDataObject;
		types: Record<string, Array<{ name: string; type: string }>>;
		message: IDataObject;
	},
	primaryType: string,
	from: string,
): { refusal?: Refusal; effect?: TransactionEffect } {
	const raw = data.domain.chainId;
	let chainId: string | undefined;
	try {
		chainId =
			raw === undefined || raw === null || raw === '' ? undefined : BigInt(String(raw)).toString();
	} catch {
		chainId = String(raw);
	}
	if (policy.chainIds.size && chainId === undefined) {
		return {
			refusal: new Refusal(
				'allowedChainIds',
				'the typed data names no chain (domain.chainId), so its signature could be used on any chain',
			),
		};
	}
	const wrongChain = chainId === undefined ? undefined : chainRefusal(policy, chainId);
	if (wrongChain) return { refusal: wrongChain };
	const movements = typedDataMovements(data.domain, data.types, primaryType, data.message);
	if (!movements) {
		if (!hasPolicy(policy) || policy.allowAnyMessage) return {};
		return {
			refusal: new Refusal(
				'allowAnyMessage',
				`typed data of type "${primaryType}" is not an approval the signer can read (an EIP-2612, DAI or Permit2 permit); while a policy is set, it is signed only with Allow Any Message and Typed Data on`,
			),
		};
	}
	// A limit line may be for one chain: an approval that names none would pass it by.
	if (chainId === undefined && movements.length && guarded(policy)) {
		return {
			refusal: new Refusal(
				'maxPerTransaction',
				`the ${movements[0].via} names no chain (domain.chainId), so the amount limits, which may be per chain, cannot be applied to it; while an amount limit or the recipient list is set, such an approval is not signed`,
			),
		};
	}
	const effect: TransactionEffect = {
		chainId: chainId ?? '',
		from,
		movements,
		opaque: [],
		maxFee: 0n,
	};
	const refusal = checkEffect(policy, effect);
	return refusal ? { refusal } : { effect };
}

export const option: INodePropertyOptions = {
	name: 'Sign Typed Data',
	value: 'signTypedData',
	description: 'Sign EIP-712 typed data',
	action: 'Sign typed data',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Typed Data',
		name: 'typedData',
		type: 'json',
		default: '{\n  "domain": {},\n  "types": {},\n  "message": {}\n}',
		required: true,
		description: 'EIP-712 data: domain, types (without EIP712Domain) and message, as JSON',
		displayOptions: { show: { operation: ['signTypedData'] } },
	},
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
): Promise<IDataObject> {
	const account = accountOf(this, itemIndex, session);
	localWallet(account, 'Sign Typed Data');
	const raw = this.getNodeParameter('typedData', itemIndex) as string | IDataObject;
	let data: {
		domain?: IDataObject;
		types?: Record<string, Array<{ name: string; type: string }>>;
		message?: IDataObject;
	};
	try {
		data = typeof raw === 'string' ? JSON.parse(raw) : raw;
	} catch {
		throw itemError(this.getNode(), itemIndex, `The parameter "typedData" is not valid JSON`);
	}
	if (!data?.domain || !data.types || !data.message) {
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "typedData" needs domain, types and message`,
		);
	}
	const types = Object.fromEntries(
		Object.entries(data.types).filter(([name]) => name !== 'EIP712Domain'),
	);
	let hash: string;
	try {
		// Encoding errors describe the typed data only, so their text can be passed on.
		hash = TypedDataEncoder.hash(data.domain, types, data.message);
	} catch (error) {
		throw itemError(
			this.getNode(),
			itemIndex,
			`The typed data cannot be encoded: ${(error as Error).message}`,
		);
	}
	const rule = typedDataRule(
		session.policy,
		{ domain: data.domain, types, message: data.message },
		TypedDataEncoder.getPrimaryType(types),
		account.address,
	);
	if (rule.refusal) throw refusedItem(this.getNode(), itemIndex, rule.refusal);
	// A permit lets its spender take the amount: it counts against the totals like approve, before signing.
	const reserved = rule.effect ? await session.spending.reserve(rule.effect, itemIndex) : undefined;
	if (reserved instanceof Refusal) throw refusedItem(this.getNode(), itemIndex, reserved);
	let signature: string | undefined;
	try {
		// Signing errors are left to the router, which replaces the library's text.
		signature = await localWallet(account, 'Sign Typed Data').signTypedData(
			data.domain,
			types,
			data.message,
		);
	} finally {
		if (signature === undefined) await reserved?.release();
	}
	return {
		signature,
		hash,
		address: account.address,
		accountIndex: account.index,
	};
}
