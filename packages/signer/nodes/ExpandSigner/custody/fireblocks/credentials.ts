import type { KeyObject } from 'node:crypto';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { type Pacer, pacerFor } from '../../core';
import { CredentialFieldError } from '../../policy/vocabulary';
import { type AssetMap, readAssetMap } from './assets';
import { readSecretKey } from './jwt';

/** The Fireblocks credential's type name (credentials/ExpandFireblocksApi.credentials.ts). */
export const FIREBLOCKS_CREDENTIAL = 'expandFireblocksApi';

export const FIREBLOCKS_URLS = {
	sandbox: 'https://sandbox-api.fireblocks.io',
	production: 'https://api.fireblocks.io',
} as const;

/**
 * Fireblocks publishes no number: its limits are per API user and answered with 429. A few requests
 * per second stays well below what a workspace's API user is allowed, and a payout run makes about
 * three requests per payout.
 */
export const DEFAULT_REQUESTS_PER_SECOND = 5;

/** The credential as read once per execution; the secret key only as a KeyObject, never as text. */
export interface FireblocksCredentials {
	apiKey: string;
	key: KeyObject;
	/** Without a trailing slash; paths `/v1/...` are appended. */
	baseUrl: string;
	vaultAccountId: string;
	perSecond: number;
	assets: AssetMap;
	/** The credential's pace (the core's transport, by a hash of its URL and API key), shared across executions. */
	pacer: Pacer;
}

/** The Base URL the credential names: Sandbox, Production or a custom one (a devnet stand-in). */
export function baseUrlOf(data: ICredentialDataDecryptedObject): string {
	const environment = String(data.environment ?? 'sandbox');
	if (environment === 'sandbox' || environment === 'production')
		return FIREBLOCKS_URLS[environment];
	const url = String(data.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
	if (!/^https?:\/\/[^\s/]+(\/\S*)?$/i.test(url))
		throw new CredentialFieldError(
			`The credential field "Base URL" must be an http(s) URL such as https://api.fireblocks.io; got "${url.slice(0, 80)}"`,
		);
	return url;
}

/** Reads and checks the credential's Fireblocks fields (the policy and ledger fields are read by the session). */
export function readFireblocksCredentials(
	data: ICredentialDataDecryptedObject,
): FireblocksCredentials {
	const apiKey = String(data.apiKey ?? '').trim();
	if (!/^[\w-]{8,100}$/.test(apiKey))
		throw new CredentialFieldError(
			'The credential field "API Key" must be the API user\'s key (a UUID such as 1a2b3c4d-…)',
		);
	const vaultAccountId = String(data.vaultAccountId ?? '').trim();
	if (!/^\d{1,12}$/.test(vaultAccountId))
		throw new CredentialFieldError(
			`The credential field "Vault Account ID" must be the vault account's number (0, 1, …); got "${vaultAccountId.slice(0, 40)}"`,
		);
	const rate = data.maxRequestsPerSecond;
	const perSecond =
		rate === undefined || rate === '' || rate === null ? DEFAULT_REQUESTS_PER_SECOND : Number(rate);
	if (!Number.isFinite(perSecond) || perSecond <= 0 || perSecond > 1000)
		throw new CredentialFieldError(
			`The credential field "Max Requests per Second" must be a number above 0; got "${String(rate).slice(0, 20)}"`,
		);
	const baseUrl = baseUrlOf(data);
	return {
		apiKey,
		key: readSecretKey(data.secretKey),
		baseUrl,
		vaultAccountId,
		perSecond,
		assets: readAssetMap(data.assetIds),
		pacer: pacerFor(baseUrl, apiKey),
	};
}
