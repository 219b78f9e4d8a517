import type { PolicyFormat } from '../../policy/policy';
import { isTonAddress, tonAddressKey } from './address';

/**
 * TON addresses in the spending policy: raw `0:<hex>` or user-friendly (bounceable or not, base64 or
 * base64url), all keyed raw; jettons named by their master. Max Total Fee bounds the TON attached to
 * jetton wallet messages, the most carrying a jetton transfer out can cost (wallets attach about 0.05).
 */
export const TON_POLICY_FORMAT: PolicyFormat = {
	addressKind: 'TON addresses (raw 0:… or user-friendly EQ…/UQ…)',
	isAddress: isTonAddress,
	key: (address) => tonAddressKey(address) ?? address,
	nativeDecimals: 9,
	nativeSymbol: 'TON',
	smallestUnit: 'nanoton',
	defaultMaxTotalFee: '0.5',
	gasRules: false,
	readableCalls:
		"TON transfers with or without a text comment, jetton transfers and burns from the sender's own jetton wallets; other message bodies refused unless their destination is listed, modes that empty or destroy the wallet always",
};
