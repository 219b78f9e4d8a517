/** The Expand node "Send" that sends each item's signed transaction (chain/sendtransaction). */
import type { INodeParameters } from 'n8n-workflow';

import { EXPAND, type NodeSpec } from './n8n';

/** Send Transaction of the item's `rawTransaction` on the item's `chainId`; `parameters` add to or override these. */
export const sendTransactionNode = (
	parameters: INodeParameters = {},
	continueOnFail = false,
): NodeSpec => ({
	name: 'Send',
	type: EXPAND,
	parameters: {
		resource: 'chain',
		operation: 'sendtransaction',
		chainId: '={{ $json.chainId }}',
		rawTransaction: '={{ $json.rawTransaction }}',
		...parameters,
	},
	continueOnFail,
});
