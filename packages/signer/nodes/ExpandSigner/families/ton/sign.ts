import {
	Address,
	beginCell,
	type Cell,
	external,
	internal,
	loadStateInit,
	type MessageRelaxed,
	storeMessage,
} from '@ton/core';

import { WalletContractV5R1 } from '@ton/ton';

import { normalizedHash } from './hashes';
import type { TonAccount } from './keys';
import { MAX_MESSAGES, type TonTransfer, UndecodableTonTransaction } from './message';

/** A signed TON transfer: the external message for the node, and the hashes it is found by. */
export interface TonSignedTransfer {
	/** Base64 BOC of the external message. */
	rawTransaction: string;
	/** Hex of the external message's normalized hash (TEP-467), what explorers and the API name it by. */
	transactionHash: string;
	/** Hex hash of the signed body cell, which the wallet's transaction carries as its inbound message's body. */
	bodyHash: string;
}

/** The external message carrying a signed body to the account's wallet, and its hashes. */
export function externalMessage(
	account: TonAccount,
	body: Cell,
	deployWallet: boolean,
): TonSignedTransfer {
	const wallet = account.wallet();
	const message = external({
		to: wallet.address,
		body,
		init: deployWallet ? wallet.init : undefined,
	});
	return {
		rawTransaction: beginCell().store(storeMessage(message)).endCell().toBoc().toString('base64'),
		transactionHash: normalizedHash(wallet.address, body),
		bodyHash: body.hash().toString('hex'),
	};
}

/** The one send mode of a transfer's messages: @ton/ton's createTransfer gives every message the same. */
function sendModeOf(transfer: TonTransfer, account: TonAccount): number {
	const modes = new Set(transfer.messages.map((message) => message.mode));
	if (modes.size !== 1)
		throw new UndecodableTonTransaction(
			`The TON transfer's messages have ${modes.size ? 'different send modes' : 'no message'}; a wallet transfer sends one or more with one mode`,
		);
	const [mode] = modes;
	// W5 refuses an external message whose actions may fail without being ignored (+2).
	if (account.walletVersion === 'W5' && !(mode & 2))
		throw new UndecodableTonTransaction(
			`A W5 wallet sends an external message's transfers only with mode +2 (ignore errors); the mode is ${mode}`,
		);
	return mode;
}

/**
 * Signs a transfer with @ton/ton's wallet contract (W5: WalletContractV5R1 with the chain's global ID in
 * its wallet_id; v4R2: WalletContractV4) and wraps it in the external message to the account's wallet,
 * with the wallet's state init only when the transfer deploys it (seqno 0).
 */
export function signTonTransfer(account: TonAccount, transfer: TonTransfer): TonSignedTransfer {
	if (transfer.chainId !== account.chainId)
		throw new UndecodableTonTransaction(
			`The TON transfer is for chain ${transfer.chainId}, the account's wallet is on chain ${account.chainId}`,
		);
	if (transfer.messages.length > MAX_MESSAGES[account.walletVersion])
		throw new UndecodableTonTransaction(
			`A ${account.walletVersion} wallet sends at most ${MAX_MESSAGES[account.walletVersion]} messages at once; the transfer has ${transfer.messages.length}`,
		);
	if (
		!Number.isInteger(transfer.validUntil) ||
		transfer.validUntil <= 0 ||
		transfer.validUntil >= 2 ** 32
	)
		throw new UndecodableTonTransaction(
			`The TON transfer's valid until ${transfer.validUntil} is not a time in unix seconds`,
		);
	if (transfer.deployWallet && transfer.seqno !== 0)
		throw new UndecodableTonTransaction(
			`A TON wallet is deployed by its first transfer (seqno 0), not by seqno ${transfer.seqno}`,
		);
	const messages: MessageRelaxed[] = transfer.messages.map((message) =>
		internal({
			to: Address.parse(message.to),
			value: message.value,
			bounce: message.bounce,
			body: message.body,
			init: message.stateInit ? loadStateInit(message.stateInit.beginParse()) : undefined,
		}),
	);
	const args = {
		seqno: transfer.seqno,
		timeout: transfer.validUntil,
		secretKey: account.secretKey(),
		messages,
		sendMode: sendModeOf(transfer, account),
	};
	const wallet = account.wallet();
	const body: Cell =
		wallet instanceof WalletContractV5R1
			? wallet.createTransfer(args)
			: wallet.createTransfer(args);
	return externalMessage(account, body, transfer.deployWallet === true);
}
