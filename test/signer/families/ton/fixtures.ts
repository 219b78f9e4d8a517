/** The TON test keys the devnet funds: the TON mnemonic, and the devnet's BIP-39 mnemonic on m/44'/607'/N'. */
import { DEVNET_MNEMONIC } from '../../../../devnet/fixtures';
import {
	tonKeyring,
	type TonWalletVersion,
} from '../../../../packages/signer/nodes/ExpandSigner/families/ton';

export const TON_MNEMONIC =
	'pill move soccer exhaust canal vendor nerve name gossip acid antenna local trap flat urge call split certain path eyebrow either supply bonus actual';

export { DEVNET_MNEMONIC };

export const tonMnemonicKeyring = (walletVersion: TonWalletVersion = 'W5') =>
	tonKeyring({ keyType: 'tonMnemonic', mnemonic: TON_MNEMONIC, walletVersion });

export const devnetKeyring = (walletVersion: TonWalletVersion = 'W5') =>
	tonKeyring({ keyType: 'mnemonic', mnemonic: DEVNET_MNEMONIC, walletVersion });
