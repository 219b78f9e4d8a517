import type { IExecuteFunctions } from 'n8n-workflow';

import { TRON_POLICY_FORMAT, describeTronError, tronKeyring } from '../../families/tron';
import { countedInOf } from '../../ledger/settings';
import { CredentialFieldError, readPolicy } from '../../policy/policy';
import { checkPayouts } from '../checkPayouts.operation';
import * as getAddress from '../getAddress.operation';
import * as listPayouts from '../listPayouts.operation';
import type { SignerFamily } from '../signerFamily';
import { ledgerOf, rpcUrlsOf, spendingOf } from '../session';
import { checkTronPayout } from './checkPayout';
import { tronKeyView } from './keyView';
import type { TronSession } from './session';
import * as signMessage from './signMessage.operation';
import * as signTransaction from './signTransaction.operation';
import * as speedUpPayout from './speedUpPayout.operation';
import * as transferTrc20 from './transferTrc20.operation';
import * as transferTrx from './transferTrx.operation';

/** Its keys' credential type (credentials/, in this package). */
const CREDENTIAL = 'expandTronKeyApi';

/** Tron (1000) and Tron Nile (1001), built offline on a reference block and signed with tronweb's utilities. */
export const tron: SignerFamily<TronSession> = {
	option: {
		name: 'Tron',
		value: 'tron',
		description:
			'Tron and Tron Nile: TRX and TRC-20 (USDT) transfers, transactions from input items',
	},
	credential: CREDENTIAL,
	turnkeyKeys: true,
	credentialTest: { name: 'expandTronKeyTest', view: tronKeyView },
	operations: [
		getAddress,
		signMessage,
		signTransaction,
		transferTrx,
		transferTrc20,
		speedUpPayout,
		listPayouts,
		checkPayouts(checkTronPayout),
	],
	defaultOperation: 'transferTrc20',
	async openSession(this: IExecuteFunctions): Promise<TronSession> {
		const credentials = await this.getCredentials(CREDENTIAL);
		const keyring = tronKeyring(credentials);
		const policy = readPolicy(credentials, TRON_POLICY_FORMAT, () => countedInOf(credentials));
		return {
			keyring,
			policy,
			rpcUrls: rpcUrlsOf(credentials),
			spending: spendingOf.call(this, CREDENTIAL, credentials, policy),
			ledger: ledgerOf.call(this, credentials, 'tron'),
		};
	},
	describeError: (error) =>
		error instanceof CredentialFieldError ? error.message : describeTronError(error),
};
