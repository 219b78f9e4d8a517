import type { IExecuteFunctions } from 'n8n-workflow';

import { evmKeyring } from '../../families/evm/accounts';
import { ChainAnswers } from '../../families/evm/fees';
import { EVM_POLICY_FORMAT } from '../../families/evm/policyFormat';
import { NonceTracker } from '../../nonces/tracker';
import { countedInOf } from '../../ledger/settings';
import { CredentialFieldError, readPolicy } from '../../policy/policy';
import { SigningKeyError } from '../../policy/vocabulary';
import { ledgerOf, nonceClaimsOf, rpcUrlsOf, spendingOf } from '../session';
import { checkPayouts } from '../checkPayouts.operation';
import * as getAddress from '../getAddress.operation';
import * as listPayouts from '../listPayouts.operation';
import type { SignerFamily } from '../signerFamily';
import { checkEvmPayout } from './checkPayout';
import * as deployContract from './deployContract.operation';
import * as getSafeProposal from './getSafeProposal.operation';
import * as proposeToSafe from './proposeToSafe.operation';
import { evmKeyView } from './keyView';
import type { EvmSession } from './session';
import * as signMessage from './signMessage.operation';
import * as signTransaction from './signTransaction.operation';
import * as signTypedData from './signTypedData.operation';
import * as speedUpPayout from './speedUpPayout.operation';

/** Its keys' credential type (credentials/, in this package). */
const CREDENTIAL = 'expandSignerApi';

/** Ethereum and the EVM chains, signed with ethers. */
export const evm: SignerFamily<EvmSession> = {
	option: {
		name: 'EVM',
		value: 'evm',
		description: 'Ethereum, Polygon, BNB Chain, Base, Arbitrum and the other EVM chains',
	},
	credential: CREDENTIAL,
	turnkeyKeys: true,
	credentialTest: { name: 'expandSignerKeyTest', view: evmKeyView },
	operations: [
		getAddress,
		signMessage,
		signTransaction,
		deployContract,
		signTypedData,
		speedUpPayout,
		listPayouts,
		checkPayouts(checkEvmPayout, true),
		proposeToSafe,
		getSafeProposal,
	],
	defaultOperation: 'signTransaction',
	async openSession(this: IExecuteFunctions): Promise<EvmSession> {
		const credentials = await this.getCredentials(CREDENTIAL);
		const keyring = evmKeyring(credentials);
		const policy = readPolicy(credentials, EVM_POLICY_FORMAT, () => countedInOf(credentials));
		return {
			keyring,
			policy,
			nonces: new NonceTracker(),
			answers: new ChainAnswers(),
			rpcUrls: rpcUrlsOf(credentials),
			spending: spendingOf.call(this, CREDENTIAL, credentials, policy),
			ledger: ledgerOf.call(this, credentials, 'evm'),
			claims: nonceClaimsOf.call(this, credentials),
		};
	},
	describeError: (error) =>
		error instanceof SigningKeyError || error instanceof CredentialFieldError
			? error.message
			: undefined,
};
