import type { PolicyFormat } from '../../policy/policy';
import { stellarAccountKey, stellarAssetKey } from './address';
import { SDEX } from './effect';
import { intentMemoKey } from './memo';

const keyOf = (text: string) =>
	text === SDEX ? SDEX : (stellarAccountKey(text) ?? stellarAssetKey(text));

/**
 * Stellar accounts in the spending policy: `G…`, and muxed `M…` keyed with their ID (a `G…` entry does not
 * admit an `M…` of it); assets `CODE:ISSUER` (7 decimals, as every Stellar asset); `SDEX` for offers on
 * the Stellar DEX. An intent's memo in plain text is a text memo.
 */
export const STELLAR_POLICY_FORMAT: PolicyFormat = {
	addressKind: 'Stellar accounts (G… or muxed M…), assets CODE:ISSUER, or SDEX',
	isAddress: (text) => keyOf(text) !== undefined && text !== 'native' && text !== 'XLM',
	key: (address) => keyOf(address) ?? address,
	nativeDecimals: 7,
	nativeSymbol: 'XLM',
	smallestUnit: 'stroop',
	defaultMaxTotalFee: '1',
	gasRules: false,
	tokenDecimals: 7,
	intentMemo: intentMemoKey,
	readableCalls:
		'payments, path payments (the most they can send), create account, claimable balances for one unconditional claimant, with the transaction memo; offers on the Stellar DEX read as paying their selling asset to SDEX and refused unless SDEX is listed; account merge, set options changing signers, thresholds or flags, and bump sequence refused always unless Allow Account Management; other operations refused unless listed',
};
