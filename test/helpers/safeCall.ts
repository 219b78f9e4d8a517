/** A Safe transaction as its owners sign it for a plain call. */
import { type SafeTx, ZERO_ADDRESS } from '../../devnet/safe/safeTx';

/** The Safe calls `to` with `data`: no value, a CALL, no gas refund, at the Safe's `nonce`. */
export const safeCall = (to: string, data: string, nonce: bigint | number): SafeTx => ({
	to,
	value: '0',
	data,
	operation: 0,
	safeTxGas: '0',
	baseGas: '0',
	gasPrice: '0',
	gasToken: ZERO_ADDRESS,
	refundReceiver: ZERO_ADDRESS,
	nonce: String(nonce),
});
