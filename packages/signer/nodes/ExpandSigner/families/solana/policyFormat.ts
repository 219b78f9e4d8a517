import { isAddress } from '@solana/kit';

import type { PolicyFormat } from '../../policy/policy';

/**
 * Solana addresses in the spending policy: base58, compared exactly (letter case is part of the
 * address). Max Total Fee defaults to 0.01 SOL: a transfer costs 0.000005 SOL, and only a
 * compute-unit price makes it more.
 */
export const SOLANA_POLICY_FORMAT: PolicyFormat = {
	addressKind: 'Solana addresses (base58)',
	isAddress: (text) => isAddress(text),
	key: (address) => address,
	nativeDecimals: 9,
	nativeSymbol: 'SOL',
	smallestUnit: 'lamports',
	defaultMaxTotalFee: '0.01',
	gasRules: false,
	readableCalls:
		'SOL transfers, SPL token transfers and approvals, rent of new token accounts; other instructions refused unless their program is listed',
};
