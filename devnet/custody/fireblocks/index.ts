import type { JsonWebKey, KeyObject } from 'crypto';

import { Interface, parseUnits } from 'ethers';

import { closeServer } from '../../chains/closeServer';
import type { ChainRuntime } from '../../gateway/evm';
import { writeEvmFunding } from '../evmFunding';
import { NonceMemory } from './auth';
import { fireblocksKeys, vaultWallet } from './keys';
import {
	type AuthorizationRule,
	type FireblocksAsset,
	FireblocksLedger,
	type StoredTransaction,
	transactionResponse,
} from './ledger';
import { type FireblocksApiFaults, type FireblocksRequestRecord, serveFireblocks } from './server';
import {
	type DeliveredWebhook,
	type WebhookFaults,
	WebhookDispatcher,
	webhookEvent,
	webhookJwks,
} from './webhooks';

export { AUTH_ERRORS, checkRequestToken, NonceMemory, signFireblocksRequest } from './auth';
export { signWebhookBody, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from './webhooks';
export type {
	AuthorizationRule,
	DeliveredWebhook,
	FireblocksApiFaults,
	FireblocksAsset,
	FireblocksRequestRecord,
	WebhookFaults,
};
export type { FireblocksWebhookEvent } from './webhooks';

/** The devnet API user's key. */
export const FIREBLOCKS_API_KEY = 'devnet-fireblocks-0000-4000-8000-000000000001';
/** The chain the stand-in's assets live on. */
export const FIREBLOCKS_CHAIN_ID = '31337';
/** The vault account whose key the stand-in holds. */
export const FIREBLOCKS_VAULT_ACCOUNT_ID = '0';
/**
 * What vault account 0 holds at start on chain 31337, in whole units, written into the chain's state
 * (no devnet wallet pays for it): ETH and fixture tokens (no WETH: WETH9's storage differs; the vault
 * can wrap ETH with a contract call).
 */
export const FIREBLOCKS_FUNDING: Record<string, string> = {
	ETH: '1000',
	USDC: '1000000',
	DAI: '100000',
	LINK: '10000',
};

/**
 * The Fireblocks stand-in (devnet/custody/fireblocks): Fireblocks' REST API subset on its own port, with
 * authentication checked as the API documents it, a vault account whose key it holds on chain 31337,
 * an approval hold, webhooks v2 and faults.
 *
 * API (authenticated with `X-API-Key` + `Authorization: Bearer <RS256 JWT>`):
 * `POST /v1/transactions`, `GET /v1/transactions/{id}`, `GET /v1/transactions/external_tx_id/{externalTxId}`,
 * `GET /v1/vault/accounts/{vaultAccountId}`, `GET /v1/vault/accounts/{vaultAccountId}/{assetId}/addresses_paginated`.
 * Open: `GET /.well-known/jwks.json`; admin `GET /devnet/transactions`, `POST /devnet/transactions/{id}/approve`,
 * `POST /devnet/transactions/{id}/reject` (`{reason?}`), `POST /devnet/webhooks` (`{url}`).
 */
export interface DevnetFireblocks {
	/** Base URL, as a credential's custom base URL (paths are `/v1/...`). */
	url: string;
	/** The API user's key (`X-API-Key`, the JWT's `sub`). */
	apiKey: string;
	/** The API user's RSA private key (PKCS#8 PEM) that signs request JWTs. A devnet key only. */
	privateKeyPem: string;
	/** The vault account whose key the stand-in holds: "0". */
	vaultAccountId: string;
	/** The vault account's address per chain ID (only 31337). */
	addresses: Record<string, string>;
	/** The workspace's assets by asset ID: `ETH_DEVNET` and `<SYMBOL>_DEVNET` per ERC-20 fixture of chain 31337. */
	assets: Record<string, FireblocksAsset>;
	/** The JWKS with the webhook signing key's public half. */
	jwksUrl: string;
	/** Approves a transaction held at PENDING_AUTHORIZATION; resolves with it once final (COMPLETED or FAILED). */
	approve(id: string): Promise<Record<string, unknown>>;
	/** Rejects a held transaction (REJECTED, subStatus REJECTED_BY_USER). */
	reject(id: string, reason?: string): Record<string, unknown>;
	/** Every transaction as the API answers it, oldest first. */
	transactions(): Array<Record<string, unknown>>;
	/** How many distinct transactions were created. */
	readonly created: number;
	/** Every API request received: method, path with query, the status answered (0: answer dropped). */
	requests: FireblocksRequestRecord[];
	/** When transactions are held at PENDING_AUTHORIZATION (a TAP-like rule): `{hold: 'all'}` by default. */
	authorization: AuthorizationRule;
	/** Shorthand: true sets `authorization` to `{hold: 'none'}`, false to `{hold: 'all'}`. */
	autoApprove: boolean;
	/** Faults of the API; each count is used up by the requests it applies to. */
	faults: FireblocksApiFaults;
	/** Subscribes a URL to webhooks v2 events (every transaction.created and transaction.status.updated). */
	subscribe(url: string): void;
	/** Every webhook POST made, in order, with its body, signature, attempt and the subscriber's status. */
	delivered: DeliveredWebhook[];
	/** Faults of the next webhook deliveries (duplicate, replay, outOfOrder, badSignature counts). */
	webhookFaults: WebhookFaults;
	/** Resolves when every event so far was delivered (or given up after retries). */
	webhooksIdle(): Promise<void>;
	/** The JWKS served at jwksUrl. */
	jwks: { keys: JsonWebKey[] };
	/** The webhook signing key (PKCS#8 PEM), for tests that sign events as the stand-in would. A devnet key only. */
	webhookPrivateKeyPem: string;
}

/** Reads an asset's balance of `address` on its chain. */
async function balanceOf(
	chain: ChainRuntime,
	asset: FireblocksAsset,
	address: string,
): Promise<bigint> {
	if (!asset.address) return BigInt(await chain.rpc<string>('eth_getBalance', [address, 'latest']));
	const erc20 = new Interface(['function balanceOf(address) view returns (uint256)']);
	return BigInt(
		await chain.rpc<string>('eth_call', [
			{ to: asset.address, data: erc20.encodeFunctionData('balanceOf', [address]) },
			'latest',
		]),
	);
}

/** The assets of chain 31337: its native ETH and each ERC-20 fixture. */
function assetsOf(chain: ChainRuntime): Record<string, FireblocksAsset> {
	const assets: Record<string, FireblocksAsset> = {
		ETH_DEVNET: { assetId: 'ETH_DEVNET', chainId: chain.chainId, symbol: 'ETH', decimals: 18 },
	};
	for (const token of Object.values(chain.fixtures.tokens))
		assets[`${token.symbol}_DEVNET`] = {
			assetId: `${token.symbol}_DEVNET`,
			chainId: chain.chainId,
			symbol: token.symbol,
			decimals: token.decimals,
			address: token.address,
		};
	return assets;
}

/**
 * Funds the vault on `chain` by writing state (evmFunding.ts): its ETH balance and each funded
 * token's balance set, no transaction sent, so no devnet wallet's nonce or balance moves.
 */
async function fundVault(chain: ChainRuntime, address: string): Promise<void> {
	await writeEvmFunding(chain, address, parseUnits(FIREBLOCKS_FUNDING.ETH, 18), (symbol) =>
		FIREBLOCKS_FUNDING[symbol] === undefined ? undefined : BigInt(FIREBLOCKS_FUNDING[symbol]),
	);
}

/** Starts the stand-in on 127.0.0.1 (`port` 0: a free one) and funds its vault on chain 31337. */
export async function startFireblocks(
	chains: Map<string, ChainRuntime>,
	port = 0,
): Promise<DevnetFireblocks & { close(): Promise<void> }> {
	const chain = chains.get(FIREBLOCKS_CHAIN_ID);
	if (!chain) throw new Error(`no devnet chain ${FIREBLOCKS_CHAIN_ID} for the Fireblocks stand-in`);
	const keys = fireblocksKeys();
	const wallet = vaultWallet(FIREBLOCKS_VAULT_ACCOUNT_ID);
	const assets = assetsOf(chain);
	await fundVault(chain, wallet.address);
	const dispatcher = new WebhookDispatcher(keys.webhook.privateKeyPem);
	const ledger = new FireblocksLedger({
		vaults: new Map([[FIREBLOCKS_VAULT_ACCOUNT_ID, wallet]]),
		chains,
		publish: (type, tx) => void dispatcher.publish(webhookEvent(type, transactionResponse(tx))),
	});
	const jwks = webhookJwks(keys.webhook.publicKey);
	const faults: FireblocksApiFaults = {
		dropCreateAnswers: 0,
		tooManyRequests: 0,
		retryAfterSeconds: 1,
		serverErrors: 0,
		serverErrorStatus: 500,
		createServerErrors: 0,
		tamperedAnswers: new Map(),
	};
	const requests: FireblocksRequestRecord[] = [];
	const approve = async (id: string) => transactionResponse(await ledger.approve(id));
	const reject = (id: string, reason?: string) => transactionResponse(ledger.reject(id, reason));
	const subscribe = (url: string) => void dispatcher.subscriptions.add(url);
	const { server, url } = await serveFireblocks({
		port,
		users: new Map<string, KeyObject>([[FIREBLOCKS_API_KEY, keys.apiUser.publicKey]]),
		nonces: new NonceMemory(),
		ledger,
		vaults: new Map([[FIREBLOCKS_VAULT_ACCOUNT_ID, wallet.address]]),
		assets,
		faults,
		requests,
		jwks: () => jwks,
		balance: (asset, address) => balanceOf(chain, asset, address),
		approve: (id) => ledger.approve(id),
		reject: (id, reason) => ledger.reject(id, reason),
		subscribe,
	});
	return {
		url,
		apiKey: FIREBLOCKS_API_KEY,
		privateKeyPem: keys.apiUser.privateKeyPem,
		vaultAccountId: FIREBLOCKS_VAULT_ACCOUNT_ID,
		addresses: { [FIREBLOCKS_CHAIN_ID]: wallet.address },
		assets,
		jwksUrl: `${url}/.well-known/jwks.json`,
		approve,
		reject,
		transactions: () => ledger.list().map(transactionResponse),
		get created() {
			return ledger.byId.size;
		},
		requests,
		get authorization() {
			return ledger.rule;
		},
		set authorization(rule: AuthorizationRule) {
			ledger.rule = rule;
		},
		get autoApprove() {
			return ledger.rule.hold === 'none';
		},
		set autoApprove(on: boolean) {
			ledger.rule = { hold: on ? 'none' : 'all' };
		},
		faults,
		subscribe,
		delivered: dispatcher.delivered,
		webhookFaults: dispatcher.faults,
		webhooksIdle: () => dispatcher.idle(),
		jwks,
		webhookPrivateKeyPem: keys.webhook.privateKeyPem,
		async close() {
			dispatcher.stop();
			await closeServer(server);
		},
	};
}

export type { StoredTransaction };
