import type { IExecuteFunctions } from 'n8n-workflow';

import {
	describeStellarError,
	STELLAR_POLICY_FORMAT,
	stellarKeyring,
	UndecodableStellarTransaction,
	UnexpectedHorizonAnswer,
} from '../../families/stellar';
import { countedInOf } from '../../ledger/settings';
import { CredentialFieldError, readPolicy } from '../../policy/policy';
import { checkPayouts } from '../checkPayouts.operation';
import * as listPayouts from '../listPayouts.operation';
import type { SignerFamily } from '../signerFamily';
import { ledgerOf, rpcUrlsOf, spendingOf } from '../session';
import * as changeTrust from './changeTrust.operation';
import { checkStellarPayout } from './checkPayout';
import * as getAddress from './getAddress.operation';
import { stellarKeyView } from './keyView';
import type { StellarSession } from './session';
import * as signTransaction from './signTransaction.operation';
import * as speedUpPayout from './speedUpPayout.operation';
import * as transferAsset from './transferAsset.operation';
import * as transferXlm from './transferXlm.operation';

/** Its keys' credential type (credentials/, in this package). */
const CREDENTIAL = 'expandStellarKeyApi';

/** Stellar (1500) and Stellar Testnet (1501): transaction envelopes of the account, signed with @stellar/stellar-base under the network's passphrase. */
export const stellar: SignerFamily<StellarSession> = {
	option: {
		name: 'Stellar',
		value: 'stellar',
		description:
			'Stellar and Stellar Testnet: XLM and asset (USDC) payments, trustlines, transactions from input items',
	},
	credential: CREDENTIAL,
	credentialTest: { name: 'expandStellarKeyTest', view: stellarKeyView },
	operations: [
		getAddress,
		signTransaction,
		transferXlm,
		transferAsset,
		changeTrust,
		speedUpPayout,
		listPayouts,
		checkPayouts(checkStellarPayout),
	],
	defaultOperation: 'transferAsset',
	async openSession(this: IExecuteFunctions): Promise<StellarSession> {
		const credentials = await this.getCredentials(CREDENTIAL);
		const keyring = stellarKeyring(credentials);
		const policy = readPolicy(credentials, STELLAR_POLICY_FORMAT, () => countedInOf(credentials));
		return {
			keyring,
			policy,
			rpcUrls: rpcUrlsOf(credentials),
			spending: spendingOf.call(this, CREDENTIAL, credentials, policy),
			ledger: ledgerOf.call(this, credentials, 'stellar'),
			sequences: new Map(),
			allowAccountManagement: credentials.allowAccountManagement === true,
		};
	},
	describeError: (error) =>
		error instanceof CredentialFieldError ||
		error instanceof UnexpectedHorizonAnswer ||
		error instanceof UndecodableStellarTransaction
			? error.message
			: describeStellarError(error),
};
