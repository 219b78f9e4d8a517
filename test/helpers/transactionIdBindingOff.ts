/** The Signer as it was before the rule oneItemPerTransaction, for a test that first shows the theft. */
import { TransactionIdBindings } from '../../packages/signer/nodes/ExpandSigner/ledger/transactionIds';

/**
 * Passes through the binding of a transaction ID to one payout or item (and, with
 * `ownBlockhashToo`, Solana's wait for a blockhash no other payout signed on); returns the restore.
 */
export function transactionIdBindingOff({ ownBlockhashToo = false } = {}) {
	const spies = [
		jest
			.spyOn(TransactionIdBindings.prototype, 'once')
			.mockImplementation(async (_chainId, _id, _itemIndex, _signedFor, sign) => await sign()),
		...(ownBlockhashToo
			? [jest.spyOn(TransactionIdBindings.prototype, 'signedForAnother').mockResolvedValue(false)]
			: []),
	];
	return () => spies.forEach((spy) => spy.mockRestore());
}
