import { Keypair, StrKey } from '@stellar/stellar-base';

import {
	buildStellarTransaction,
	paymentOperation,
	type StellarAccount,
	stellarKeyring,
	type StellarMemo,
} from '../../../../packages/signer/nodes/ExpandSigner/families/stellar';
import type { xdr } from '@stellar/stellar-base';

/** SEP-0005's first published vector: its 12 words, and the accounts of m/44'/148'/0', 1' and 4'. */
export const SEP5_MNEMONIC =
	'illness spike retreat truth genius clock brain pass fit cave bargain toe';
export const SEP5_ACCOUNTS = {
	0: [
		'GDRXE2BQUC3AZNPVFSCEZ76NJ3WWL25FYFK6RGZGIEKWE4SOOHSUJUJ6',
		'SBGWSG6BTNCKCOB3DIFBGCVMUPQFYPA2G4O34RMTB343OYPXU5DJDVMN',
	],
	1: ['GBAW5XGWORWVFE2XTJYDTLDHXTY2Q2MO73HYCGB3XMFMQ562Q2W2GJQX', undefined],
	4: ['GBCUXLFLSL2JE3NWLHAWXQZN6SQC6577YMAU3M3BEMWKYPFWXBSRCWV4', undefined],
} as const;

export const seedAccount = (seed: string): StellarAccount =>
	stellarKeyring({ keyType: 'privateKey', privateKey: seed }).account(0);

export const signer = seedAccount(Keypair.fromRawEd25519Seed(Buffer.alloc(32, 1)).secret());
export const other = seedAccount(Keypair.fromRawEd25519Seed(Buffer.alloc(32, 2)).secret());
export const RECIPIENT = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 3)).publicKey();
export const ISSUER = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 4)).publicKey();
export const USDC = `USDC:${ISSUER}`;
/** RECIPIENT as a muxed account with ID 42. */
export const RECIPIENT_42 = StrKey.encodeMed25519PublicKey(
	Buffer.concat([StrKey.decodeEd25519PublicKey(RECIPIENT), Buffer.from('000000000000002a', 'hex')]),
);

/** Fixed times: the transactions are built valid from NOW for 300 s. */
export const NOW_SECONDS = 1_800_000_000;
export const NOW = NOW_SECONDS * 1000;

export function envelope(
	operations: xdr.Operation[],
	options: {
		chainId?: string;
		source?: string;
		memo?: StellarMemo;
		maxTime?: number;
		minTime?: number;
	} = {},
): string {
	return buildStellarTransaction({
		chainId: options.chainId ?? '1501',
		source: options.source ?? signer.address,
		sequence: 100n,
		fee: 100n,
		minTime: options.minTime ?? NOW_SECONDS,
		maxTime: options.maxTime ?? NOW_SECONDS + 300,
		memo: options.memo ?? { type: 'none' },
		operations,
	}).toXDR();
}

export const pay = (amount = 5n, destination = RECIPIENT, asset = 'native') =>
	paymentOperation({ destination, asset, amount });
