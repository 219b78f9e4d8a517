import type { IExecuteFunctions } from 'n8n-workflow';

import {
	TON_POLICY_FORMAT,
	describeTonError,
	tonKeyring,
	UnexpectedTonAnswer,
} from '../../families/ton';
import { countedInOf } from '../../ledger/settings';
import { CredentialFieldError, readPolicy } from '../../policy/policy';
import { checkPayouts } from '../checkPayouts.operation';
import * as listPayouts from '../listPayouts.operation';
import type { SignerFamily } from '../signerFamily';
import { ledgerOf, rpcUrlsOf, spendingOf } from '../session';
import { checkTonPayout } from './checkPayout';
import * as getAddress from './getAddress.operation';
import { tonKeyView } from './keyView';
import type { TonSession } from './session';
import * as signTransaction from './signTransaction.operation';
import * as speedUpPayout from './speedUpPayout.operation';
import * as transferJetton from './transferJetton.operation';
import * as transferTon from './transferTon.operation';

/** Its keys' credential type (credentials/, in this package). */
const CREDENTIAL = 'expandTonKeyApi';

/** TON (1100) and TON Testnet (1101): external messages to the account's W5 or v4R2 wallet, signed with @ton/crypto. */
export const ton: SignerFamily<TonSession> = {
	option: {
		name: 'TON',
		value: 'ton',
		description: 'TON and TON Testnet: TON and jetton (USDT) transfers, messages from input items',
	},
	credential: CREDENTIAL,
	credentialTest: { name: 'expandTonKeyTest', view: tonKeyView },
	operations: [
		getAddress,
		signTransaction,
		transferTon,
		transferJetton,
		speedUpPayout,
		listPayouts,
		checkPayouts(checkTonPayout),
	],
	defaultOperation: 'transferJetton',
	async openSession(this: IExecuteFunctions): Promise<TonSession> {
		const credentials = await this.getCredentials(CREDENTIAL);
		const keyring = tonKeyring(credentials);
		const policy = readPolicy(credentials, TON_POLICY_FORMAT, () => countedInOf(credentials));
		return {
			keyring,
			policy,
			rpcUrls: rpcUrlsOf(credentials),
			spending: spendingOf.call(this, CREDENTIAL, credentials, policy),
			ledger: ledgerOf.call(this, credentials, 'ton'),
			seqnos: new Map(),
		};
	},
	describeError: (error) =>
		error instanceof CredentialFieldError || error instanceof UnexpectedTonAnswer
			? error.message
			: describeTonError(error),
};
