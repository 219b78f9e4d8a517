import type { ICredentialDataDecryptedObject, IExecuteFunctions } from 'n8n-workflow';

import { type ExecutionTotals, executionTotals } from '../policy/check';
import { PayoutLedger } from '../policy/ledger';

/** The execution's totals for this node and credential, so a loop over the node counts against one total. */
export function totalsOf(this: IExecuteFunctions, credentialType: string): ExecutionTotals {
	const credentialId = this.getNode().credentials?.[credentialType]?.id ?? '';
	return executionTotals(`${this.getExecutionId()}:${this.getNode().name}:${credentialId}`);
}

/** The payout ledger in the credential's folder; undefined when it names none. */
export function ledgerOf(this: IExecuteFunctions, credentials: ICredentialDataDecryptedObject): PayoutLedger | undefined {
	const folder = String(credentials.payoutLedgerFolder ?? '').trim();
	return folder ? new PayoutLedger(this.getNode(), this.helpers, folder) : undefined;
}
