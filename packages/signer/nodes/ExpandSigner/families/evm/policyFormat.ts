import { isAddress } from 'ethers';

import { DEFAULT_MAX_TOTAL_FEE, type PolicyFormat } from '../../policy/policy';

/** EVM addresses in the spending policy: 0x hex, compared in lower case (a checksum is only letter case). */
export const EVM_POLICY_FORMAT: PolicyFormat = {
	addressKind: '0x addresses',
	isAddress: (text) => isAddress(text),
	key: (address) => address.toLowerCase(),
	nativeDecimals: 18,
	smallestUnit: 'wei',
	defaultMaxTotalFee: DEFAULT_MAX_TOTAL_FEE,
	gasRules: true,
	readableCalls:
		'native transfers and token transfer/transferFrom/approve; other contract calls refused',
};
