import type { IExecuteFunctions } from 'n8n-workflow';

import { SOLANA_POLICY_FORMAT, describeSolanaError, solanaKeyring } from '../../families/solana';
import { countedInOf } from '../../ledger/settings';
import { CredentialFieldError, readPolicy } from '../../policy/policy';
import { checkPayouts } from '../checkPayouts.operation';
import * as getAddress from '../getAddress.operation';
import * as listPayouts from '../listPayouts.operation';
import type { SignerFamily } from '../signerFamily';
import { ledgerOf, rpcUrlsOf, spendingOf } from '../session';
import { checkSolanaPayout } from './checkPayout';
import { solanaKeyView } from './keyView';
import type { SolanaSession } from './session';
import * as signMessage from './signMessage.operation';
import * as signTransaction from './signTransaction.operation';
import * as speedUpPayout from './speedUpPayout.operation';
import * as transferSol from './transferSol.operation';
import * as transferToken from './transferToken.operation';

/** Its keys' credential type (credentials/, in this package). */
const CREDENTIAL = 'expandSolanaKeyApi';

/** Solana (900) and Solana Devnet (901), built and signed with @solana/kit and the @solana-program clients. */
export const solana: SignerFamily<SolanaSession> = {
	option: {
		name: 'Solana',
		value: 'solana',
		description:
			'Solana and Solana Devnet: SOL and SPL token transfers, transactions the API prepares',
	},
	credential: CREDENTIAL,
	turnkeyKeys: true,
	credentialTest: { name: 'expandSolanaKeyTest', view: solanaKeyView },
	operations: [
		getAddress,
		signMessage,
		signTransaction,
		transferSol,
		transferToken,
		speedUpPayout,
		listPayouts,
		checkPayouts(checkSolanaPayout),
	],
	defaultOperation: 'transferSol',
	async openSession(this: IExecuteFunctions): Promise<SolanaSession> {
		const credentials = await this.getCredentials(CREDENTIAL);
		const keyring = solanaKeyring(credentials);
		const policy = readPolicy(credentials, SOLANA_POLICY_FORMAT, () => countedInOf(credentials));
		return {
			keyring,
			policy,
			rpcUrls: rpcUrlsOf(credentials),
			spending: spendingOf.call(this, CREDENTIAL, credentials, policy),
			ledger: ledgerOf.call(this, credentials, 'solana'),
		};
	},
	describeError: (error) =>
		error instanceof CredentialFieldError ? error.message : describeSolanaError(error),
};
