/** A signed TON output sent as chain/sendtransaction hands it on. */
import type { IDataObject } from 'n8n-workflow';

/** The signed output's BOC to the toncenter API's sendBoc at `rpcUrl`: the API's answer. */
export async function sendBoc(
	rpcUrl: string,
	signed: IDataObject,
): Promise<Record<string, unknown>> {
	const reply = await fetch(`${rpcUrl}/sendBoc`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ boc: signed.rawTransaction }),
	});
	return (await reply.json()) as Record<string, unknown>;
}
