import { Contract, JsonRpcProvider, Wallet } from 'ethers';

import type { DevnetWallet } from '../fixtures';
import { SAFE_INTERFACE } from './artifacts';
import {
	type SafeTx,
	safeTxHash,
	signSafeTx,
	sortedSignatures,
	execTransactionArgs,
} from './safeTx';

export interface ConfirmAndExecuteOptions {
	/** The stand-in's base (devnet.safe.serviceUrl); the real service's `/api/v1/…` paths follow it. */
	serviceUrl: string;
	/** JSON-RPC endpoint of the Safe's chain. */
	rpcUrl: string;
	chainId: string;
	/** Owner keys to confirm with, in the order they are used; the first one sends execTransaction. */
	owners: DevnetWallet[];
	/** `Authorization: Bearer` key, when the stand-in requires one. */
	apiKey?: string;
}

export interface Executed {
	safeTxHash: string;
	/** Owners whose confirmations this call posted. */
	confirmedBy: string[];
	transactionHash: string;
	blockNumber: number;
	/** ExecutionSuccess (true) or ExecutionFailure (false): the Safe's inner call may fail while execTransaction lands. */
	success: boolean;
}

interface ServiceTransaction extends Omit<SafeTx, 'nonce' | 'safeTxGas' | 'baseGas' | 'data'> {
	safe: string;
	nonce: string | number;
	safeTxGas: string | number;
	baseGas: string | number;
	data: string | null;
	isExecuted: boolean;
	transactionHash: string | null;
	confirmations: Array<{ owner: string; signature: string; signatureType: string }>;
}

async function service<T>(
	options: ConfirmAndExecuteOptions,
	path: string,
	body?: unknown,
): Promise<T> {
	const response = await fetch(`${options.serviceUrl}${path}`, {
		method: body === undefined ? 'GET' : 'POST',
		headers: {
			'content-type': 'application/json',
			...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok)
		throw new Error(`Safe transaction service ${response.status} on ${path}: ${text}`);
	return (text === '' ? undefined : JSON.parse(text)) as T;
}

function safeTxOf(tx: ServiceTransaction): SafeTx {
	return {
		to: tx.to,
		value: String(tx.value),
		data: tx.data ?? '0x',
		operation: tx.operation,
		safeTxGas: String(tx.safeTxGas),
		baseGas: String(tx.baseGas),
		gasPrice: String(tx.gasPrice),
		gasToken: tx.gasToken,
		refundReceiver: tx.refundReceiver,
		nonce: String(tx.nonce),
	};
}

/**
 * What two owners do in Safe{Wallet}: confirm a proposal with as many owner keys as the threshold
 * still needs (posting each confirmation to the service), then execute it on chain with the
 * collected signatures sorted by owner address.
 */
export async function confirmAndExecute(
	options: ConfirmAndExecuteOptions,
	hash: string,
): Promise<Executed> {
	const path = `/api/v2/multisig-transactions/${hash}/`;
	let tx = await service<ServiceTransaction>(options, path);
	if (tx.isExecuted)
		throw new Error(`Safe transaction ${hash} was already executed in ${tx.transactionHash}`);
	const safeTx = safeTxOf(tx);
	// Sign only what the hash says: a service answering other fields than the hash covers gets no signature.
	if (safeTxHash(options.chainId, tx.safe, safeTx) !== hash.toLowerCase())
		throw new Error(`Safe transaction ${hash}: the service's fields do not hash to it`);
	const info = await service<{ owners: string[]; threshold: number }>(
		options,
		`/api/v1/safes/${tx.safe}/`,
	);
	const confirmed = () => tx.confirmations.filter((entry) => info.owners.includes(entry.owner));
	const confirmedBy: string[] = [];
	for (const owner of options.owners) {
		if (confirmed().length >= info.threshold) break;
		if (!info.owners.includes(owner.address))
			throw new Error(`${owner.address} is not an owner of Safe ${tx.safe}`);
		if (confirmed().some((entry) => entry.owner === owner.address)) continue;
		const signature = await signSafeTx(owner.privateKey, options.chainId, tx.safe, safeTx);
		await service(options, `/api/v1/multisig-transactions/${hash}/confirmations/`, { signature });
		confirmedBy.push(owner.address);
		tx = await service<ServiceTransaction>(options, path);
	}
	const signatures = confirmed().slice(0, info.threshold);
	if (signatures.length < info.threshold)
		throw new Error(
			`Safe transaction ${hash} has ${signatures.length} of ${info.threshold} confirmations and no more owner keys were given`,
		);

	const provider = new JsonRpcProvider(options.rpcUrl, Number(options.chainId), {
		staticNetwork: true,
	});
	try {
		const executor = new Wallet(options.owners[0].privateKey, provider);
		const safe = new Contract(tx.safe, SAFE_INTERFACE, executor);
		const sent = await safe.execTransaction(
			...execTransactionArgs(safeTx, sortedSignatures(signatures)),
		);
		const receipt = await sent.wait();
		const success = receipt.logs.some(
			(log: { topics: string[] }) =>
				log.topics[0] === SAFE_INTERFACE.getEvent('ExecutionSuccess')?.topicHash,
		);
		return {
			safeTxHash: hash,
			confirmedBy,
			transactionHash: receipt.hash,
			blockNumber: receipt.blockNumber,
			success,
		};
	} finally {
		provider.destroy();
	}
}
