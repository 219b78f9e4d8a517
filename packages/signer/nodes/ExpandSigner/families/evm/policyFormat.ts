import { getAddress, isAddress } from 'ethers';

import { DEFAULT_MAX_TOTAL_FEE, type PolicyFormat } from '../../policy/policy';

/** EVM addresses in the spending policy: 0x hex, compared in lower case (a checksum is only letter case). */
export const EVM_POLICY_FORMAT: PolicyFormat = {
	addressKind: '0x addresses',
	isAddress: (text) => isAddress(text),
	// Every form ethers accepts (without 0x, ICAP) is keyed as its 0x form, which is what transactions name.
	key: (address) =>
		(!address.startsWith('0x') && isAddress(address) ? getAddress(address) : address).toLowerCase(),
	nativeDecimals: 18,
	smallestUnit: 'wei',
	defaultMaxTotalFee: DEFAULT_MAX_TOTAL_FEE,
	gasRules: true,
	readableCalls:
		'native transfers and token transfer/transferFrom/approve; other contract calls refused',
};
