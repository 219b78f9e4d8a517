/**
 * The credentials of a test run against the devnet, by n8n's credential type names: the Expand API
 * credential on the devnet's gateway, the EVM signing credential on the devnet's mnemonic, the Safe
 * API credential on the stand-in service. A test names only what it changes.
 */
import { HDNodeWallet } from 'ethers';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../devnet';
import { DEVNET_MNEMONIC } from '../../devnet/fixtures';

type CredentialData = ICredentialDataDecryptedObject;

/** The Expand API credential on the devnet: its API key, base and historical URLs, no stream. */
export function devnetExpandApi(
	devnet: Pick<Devnet, 'apiKey' | 'baseUrl' | 'historicalUrl'>,
	data: CredentialData = {},
): CredentialData {
	return {
		apiKey: devnet.apiKey,
		baseUrl: devnet.baseUrl,
		historicalUrl: devnet.historicalUrl,
		streamUrl: '',
		...data,
	};
}

/**
 * The EVM signing credential on the devnet's mnemonic (every funded account of it), with `data`'s
 * policy and ledger fields (tests keep a policy as node data, IDataObject).
 */
export function devnetSignerKey(data: IDataObject = {}): CredentialData {
	return {
		keyType: 'mnemonic',
		mnemonic: DEVNET_MNEMONIC,
		derivationPath: "m/44'/60'/0'/0/{index}",
		...data,
	} as CredentialData;
}

/** The devnet mnemonic's account `index`: the key devnetSignerKey signs with at Account Index `index`. */
export const devnetAccount = (index: number): HDNodeWallet =>
	HDNodeWallet.fromPhrase(DEVNET_MNEMONIC, undefined, `m/44'/60'/0'/0/${index}`);

/** The Safe API credential on the devnet's stand-in transaction service. */
export function devnetSafeApi(
	devnet: Pick<Devnet, 'safe'>,
	data: CredentialData = {},
): CredentialData {
	return { serviceUrl: devnet.safe.serviceUrl, apiKey: '', maxRequestsPerSecond: 5, ...data };
}

export interface DevnetCredentialSet {
	/** Fields over the Expand API credential's (another base URL: a lying front, a recording proxy). */
	expand?: CredentialData;
	/** The EVM signing credential, whole (devnetSignerKey builds the usual one). */
	signer?: CredentialData;
	/** The Solana signing credential, whole. */
	solana?: CredentialData;
	/** The Tron signing credential, whole. */
	tron?: CredentialData;
	/** The TON signing credential, whole. */
	ton?: CredentialData;
	/** The Stellar signing credential, whole. */
	stellar?: CredentialData;
	/** The Safe API credential: `true` for the stand-in service as it is, or fields over it. */
	safe?: CredentialData | true;
}

/** The credentials of a devnet run: always the Expand API's, and each signing or Safe credential asked for. */
export function devnetCredentials(
	devnet: Devnet,
	set: DevnetCredentialSet = {},
): Record<string, CredentialData> {
	return {
		expandApi: devnetExpandApi(devnet, set.expand),
		...(set.signer ? { expandSignerApi: set.signer } : {}),
		...(set.solana ? { expandSolanaKeyApi: set.solana } : {}),
		...(set.tron ? { expandTronKeyApi: set.tron } : {}),
		...(set.ton ? { expandTonKeyApi: set.ton } : {}),
		...(set.stellar ? { expandStellarKeyApi: set.stellar } : {}),
		...(set.safe
			? { expandSafeApi: devnetSafeApi(devnet, set.safe === true ? {} : set.safe) }
			: {}),
	};
}
