/** Messages of the API's error catalogue (reference §7) that the devnet answers with. */
export const MESSAGES = {
	notApplicable: 'Given function is not applicable',
	invalidChainId: 'Invalid chain ID',
	invalidAddress: 'Invalid Address',
	invalidBlockRange: 'Block range exceeded',
	invalidStartEndBlock: 'endBlock should be greater than startBlock',
	invalidStartOrEndBlock: 'Start/End Block should not be greater than the current chain block',
	invalidBlockNumber: 'Invalid Block Number',
	invalidTransactionHash: 'The transactionHash Provided Is Incorrect',
	invalidToken: 'This token is not supported',
	invalidDexId: 'Invalid Dex Id',
	poolNotFound: 'Pool not found',
	invalidAbi: 'This is an unverified contract. Please provide ABI',
	invalidMethodName: 'Please provide proper methodName',
	invalidParameters: 'Please provide proper parameters',
	invalidRawTransaction: 'Invalid Raw Transaction',
	unsupportedTxType: 'Unsupported transaction type',
	executionReverted: 'Error: Returned error: execution reverted',
	invalidPageNumber: 'Requested page is greater than total pages',
	invalidInput: 'Please provide proper input data',
	invalidPublicKey: 'Not a valid Solana Address',
	invalidSPLToken: 'Invalid SPL token address',
	invalidUserAddress: 'Invalid User Address',
	invalidIssuer: 'Invalid Asset Issuer',
	assetNotFound: 'Asset Not Found',
} as const;

/** A failure answered as HTTP 400 with the API's failure envelope. */
export class ApiFailure extends Error {
	constructor(
		message: string,
		readonly code = 400,
		/** An AJV-style validation result instead of a message, as the schema validator answers. */
		readonly validation?: Record<string, unknown>,
	) {
		super(message);
	}
}

export function fail(key: keyof typeof MESSAGES, code = 400): never {
	throw new ApiFailure(MESSAGES[key], code);
}

/** What the schema validator answers for a missing required parameter. */
export function missing(name: string): never {
	throw new ApiFailure(`missing ${name}`, 400, {
		valid: false,
		message: { missingProperty: name },
		code: 400,
	});
}
