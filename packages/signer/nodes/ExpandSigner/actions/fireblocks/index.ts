import type { IExecuteFunctions } from 'n8n-workflow';

import { FireblocksClient } from '../../custody/fireblocks/client';
import {
	FIREBLOCKS_CREDENTIAL,
	readFireblocksCredentials,
} from '../../custody/fireblocks/credentials';
import { EVM_POLICY_FORMAT } from '../../families/evm/policyFormat';
import { countedInOf } from '../../ledger/settings';
import { CredentialFieldError, readPolicy } from '../../policy/policy';
import { SigningKeyError } from '../../policy/vocabulary';
import { checkPayouts } from '../checkPayouts.operation';
import * as listPayouts from '../listPayouts.operation';
import { ledgerOf, rpcUrlsOf, spendingOf } from '../session';
import type { SignerFamily } from '../signerFamily';
import { checkFireblocksPayout } from './checkPayout';
import * as createTransaction from './createTransaction.operation';
import * as getTransaction from './getTransaction.operation';
import * as getVaultAddress from './getVaultAddress.operation';
import { fireblocksKeyView } from './keyView';
import { type FireblocksSession, noKeyring } from './session';

/**
 * Fireblocks as a custodian of EVM funds: the Signer's policy, payout IDs and journal in front of a
 * vault account whose keys Fireblocks holds. The policy is the EVM family's, with the vault's address
 * as the sender; each payout is created once at Fireblocks (its externalTxId is the payout ID).
 */
export const fireblocks: SignerFamily<FireblocksSession> = {
	option: {
		name: 'Fireblocks (Custodian)',
		value: 'fireblocks',
		description:
			'EVM payouts from a Fireblocks vault account: checked against the policy in n8n, then created at Fireblocks once per payout ID',
	},
	builtOn: 'evm',
	credential: FIREBLOCKS_CREDENTIAL,
	credentialTest: { name: 'expandFireblocksTest', view: fireblocksKeyView },
	operations: [
		getVaultAddress,
		createTransaction,
		getTransaction,
		checkPayouts(checkFireblocksPayout),
		listPayouts,
	],
	defaultOperation: 'createTransaction',
	async openSession(this: IExecuteFunctions): Promise<FireblocksSession> {
		const credentials = await this.getCredentials(FIREBLOCKS_CREDENTIAL);
		const fireblocks = readFireblocksCredentials(credentials);
		const policy = readPolicy(credentials, EVM_POLICY_FORMAT, () => countedInOf(credentials));
		return {
			keyring: noKeyring,
			policy,
			fireblocks,
			client: new FireblocksClient(this, fireblocks),
			vaultAddresses: new Map(),
			rpcUrls: rpcUrlsOf(credentials),
			spending: spendingOf.call(this, FIREBLOCKS_CREDENTIAL, credentials, policy),
			ledger: ledgerOf.call(this, credentials, 'fireblocks'),
		};
	},
	describeError: (error) =>
		error instanceof SigningKeyError || error instanceof CredentialFieldError
			? error.message
			: undefined,
};
