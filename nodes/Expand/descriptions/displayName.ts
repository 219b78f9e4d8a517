const ACRONYMS: Record<string, string> = {
	abi: 'ABI',
	apr: 'APR',
	bdn: 'BDN',
	dex: 'DEX',
	id: 'ID',
	ids: 'IDs',
	mev: 'MEV',
	nft: 'NFT',
	rpc: 'RPC',
	url: 'URL',
	xdr: 'XDR',
};

/** "tokenAddress" → "Token Address", "dexId" → "DEX ID", "topics1" → "Topics 1". */
export function displayNameOf(parameterName: string): string {
	return parameterName
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.replace(/([a-zA-Z])(\d)/g, '$1 $2')
		.split(' ')
		.map((word) => ACRONYMS[word.toLowerCase()] ?? word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');
}
