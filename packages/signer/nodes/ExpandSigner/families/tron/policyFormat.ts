import type { PolicyFormat } from '../../policy/policy';
import { base58Address, isTronAddress } from './address';

/**
 * Tron addresses in the spending policy: base58 `T…` or hex `41…`, both keyed as base58 (letter case is
 * part of it). Max Total Fee bounds fee_limit, the most a contract call may burn in energy; its 30 TRX
 * default is a first estimate, to be settled against the chain's energy price.
 */
export const TRON_POLICY_FORMAT: PolicyFormat = {
	addressKind: 'Tron addresses (base58 T… or hex 41…)',
	isAddress: isTronAddress,
	key: (address) => base58Address(address) ?? address,
	nativeDecimals: 6,
	nativeSymbol: 'TRX',
	smallestUnit: 'sun',
	defaultMaxTotalFee: '30',
	gasRules: false,
	readableCalls:
		'TRX transfers, TRC-20 transfers, transferFrom, approvals and increaseApproval; TRC-10 transfers (no amount limit names them) and other contract calls refused unless their recipient or contract is listed, other contract types always',
};
