/** The Signer's TON key the devnet tests use: the devnet mnemonic's W5 wallets. */
import { DEVNET_MNEMONIC } from '../../devnet/fixtures';

/** The devnet mnemonic as a W5 TON key, its ledger in `folder`, and `rpcUrl` pinned for chain 1101 when given. */
export const tonMnemonicKey = (folder: string, rpcUrl?: string | null) => ({
	keyType: 'mnemonic',
	mnemonic: DEVNET_MNEMONIC,
	walletVersion: 'W5',
	payoutLedgerFolder: folder,
	...(rpcUrl ? { rpcUrls: `1101 = ${rpcUrl}` } : {}),
});
