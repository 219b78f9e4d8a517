/**
 * For a describe.each over LEDGER_STORES: a devnet of its own and a new ledger of the store before
 * the block's tests, so each store's run starts from the same chain; the devnet stopped after them.
 */
import type { Devnet } from '../../devnet';
import type { StoreKind, TestLedger, ledgerStores } from './ledgerStores';
import { useDevnet } from './useDevnet';

export function devnetPerStore(
	stores: ReturnType<typeof ledgerStores>,
	kind: StoreKind,
	use: (devnet: Devnet, ledger: TestLedger) => void,
): void {
	let devnet: Devnet;
	useDevnet((started) => (devnet = started));
	beforeAll(async () => use(devnet, await stores.newLedger(kind)));
}
