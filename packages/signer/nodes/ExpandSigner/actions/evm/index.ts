import type { IExecuteFunctions } from 'n8n-workflow';

import { SIGNING_KEY_CREDENTIAL } from '../../../shared/credentials';
import { evmKeyring } from '../../families/evm/accounts';
import { SigningKeyError } from '../../policy/vocabulary';
import { ChainAnswers } from '../../families/evm/fees';
import { EVM_POLICY_FORMAT } from '../../families/evm/policyFormat';
import { NonceTracker } from '../../nonces/tracker';
import { PolicyError, readPolicy } from '../../policy/policy';
import type { EvmSession } from './session';
import * as deployContract from './deployContract.operation';
import type { SignerFamily } from '../signerFamily';
import * as getAddress from './getAddress.operation';
import { ledgerOf, nonceClaimsOf, totalsOf } from '../session';
import * as signMessage from './signMessage.operation';
import * as signTransaction from './signTransaction.operation';
import * as signTypedData from './signTypedData.operation';

/** Ethereum and the EVM chains, signed with ethers. */
export const evm: SignerFamily<EvmSession> = {
	option: { name: 'EVM', value: 'evm', description: 'Ethereum, Polygon, BNB Chain, Base, Arbitrum and the other EVM chains' },
	credential: SIGNING_KEY_CREDENTIAL,
	operations: [getAddress, signMessage, signTransaction, deployContract, signTypedData],
	defaultOperation: 'signTransaction',
	async openSession(this: IExecuteFunctions): Promise<EvmSession> {
		const credentials = await this.getCredentials(SIGNING_KEY_CREDENTIAL);
		return {
			keyring: evmKeyring(credentials),
			policy: readPolicy(credentials, EVM_POLICY_FORMAT),
			nonces: new NonceTracker(),
			answers: new ChainAnswers(),
			rpcUrls: new Map(),
			totals: totalsOf.call(this, SIGNING_KEY_CREDENTIAL),
			ledger: ledgerOf.call(this, credentials),
			claims: nonceClaimsOf.call(this, credentials),
		};
	},
	describeError: (error) => (error instanceof SigningKeyError || error instanceof PolicyError ? error.message : undefined),
};
