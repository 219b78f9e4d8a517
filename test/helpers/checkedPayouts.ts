/** Check Payouts, through n8n-core's engine, of the payouts the ledger holds. */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { ITEMS, SIGNER, runPipeline } from './n8n';

/**
 * List Payouts (of `status`) → Check Payouts of `family` in one execution: for each of `payoutIds`,
 * its transaction hash ('' when none) and where it stands on the chain.
 */
export async function checkedPayouts(
	family: string,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	payoutIds: string[],
	status = 'all',
) {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
			{
				name: 'List',
				type: SIGNER,
				parameters: { chainFamily: family, operation: 'listPayouts', status },
			},
			{
				name: 'Check',
				type: SIGNER,
				parameters: { chainFamily: family, operation: 'checkPayouts' },
			},
		],
		credentials,
	);
	const rows = result.output('Check').map((item) => item.json);
	return payoutIds.map((payoutId) => {
		const row = rows.find((entry) => entry.payoutId === payoutId);
		return [row?.transactionHash ?? '', row?.chainStatus];
	});
}
