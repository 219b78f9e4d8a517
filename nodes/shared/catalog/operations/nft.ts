import type { OperationSpec, ParameterSpec } from '../types';
import { NUMBER, POSITIVE } from './shared';

/*
 * NFTs (docs/reference/expand-api.md §2 nft). nftProtocolId picks the implementation: 721 or 1155 on EVM chains
 * (default 721), Metaplex on Solana.
 */

const ERC_721 = ['ERC-721'];
const ERC_1155 = ['ERC-1155'];

const nftCollection = (
	description = 'Address of the NFT collection contract (Solana: mint address of the NFT)',
): ParameterSpec => ({
	name: 'nftCollection',
	type: 'text',
	required: true,
	description,
	role: 'what',
});

const blockRange: ParameterSpec[] = [
	{ name: 'startBlock', type: 'text', description: 'First block of the range', ...NUMBER },
	{ name: 'endBlock', type: 'text', description: 'Last block of the range', ...POSITIVE },
];

export const nftOperations: OperationSpec[] = [
	{
		resource: 'nft',
		operation: 'getbalance',
		name: 'Get Balance',
		description:
			'Get the number of NFTs of a collection (or of one ERC-1155 token ID) held by an address',
		method: 'GET',
		path: '/nft/getbalance',
		host: 'base',
		computeUnits: 18,
		kind: 'read',
		chain: true,
		protocol: 'nftProtocolId',
		parameters: [
			nftCollection(),
			{
				name: 'address',
				type: 'text',
				required: true,
				description: 'Address of the holder',
				role: 'who',
			},
			{
				name: 'tokenId',
				type: 'text',
				description: 'ID of the token',
				protocols: ERC_1155,
				...NUMBER,
				role: 'what',
			},
		],
	},
	{
		resource: 'nft',
		operation: 'getmetadata',
		name: 'Get Metadata',
		description: 'Get the metadata of an NFT collection (Solana: of an NFT)',
		method: 'GET',
		path: '/nft/getmetadata',
		host: 'base',
		computeUnits: 25,
		kind: 'read',
		chain: true,
		protocol: 'nftProtocolId',
		availability: 'ERC-721 and Metaplex',
		parameters: [nftCollection()],
	},
	{
		resource: 'nft',
		operation: 'getowner',
		name: 'Get Owner',
		description: 'Get the owner of an NFT',
		method: 'GET',
		path: '/nft/getowner',
		host: 'base',
		computeUnits: 23,
		kind: 'read',
		chain: true,
		protocol: 'nftProtocolId',
		availability: 'ERC-721 and Metaplex',
		parameters: [
			nftCollection(),
			{
				name: 'nftIndex',
				type: 'text',
				description: 'Token ID of the NFT in the collection',
				protocols: ERC_721,
				...NUMBER,
				role: 'what',
			},
		],
	},
	{
		resource: 'nft',
		operation: 'historical/logs',
		name: 'Historical Logs',
		description: 'Get the transfer or approval event logs of an NFT collection over a block range',
		method: 'GET',
		path: '/nft/historical/logs',
		host: 'base',
		computeUnits: 39,
		kind: 'read',
		chain: true,
		protocol: 'nftProtocolId',
		availability: 'EVM chains',
		parameters: [
			nftCollection('Address of the NFT collection contract'),
			{
				name: 'type',
				type: 'text',
				required: true,
				options: ['Transfer', 'Approval', 'TransferSingle', 'ApprovalForAll'],
				description:
					'Event to return: Transfer or Approval for ERC-721, TransferSingle or ApprovalForAll for ERC-1155',
			},
			{
				name: 'page',
				type: 'text',
				required: true,
				default: '1',
				description: 'Page to return, from 1',
				...POSITIVE,
			},
			...blockRange,
		],
		pagination: {
			style: 'page',
			requestParam: 'page',
			itemsField: 'logs',
			totalPagesField: 'totalPages',
		},
	},
	{
		resource: 'nft',
		operation: 'historical/transactions',
		name: 'Historical Transactions',
		description:
			'Get the transfers of an NFT collection over a block range, optionally only those of one address',
		method: 'GET',
		path: '/nft/historical/transactions',
		host: 'base',
		computeUnits: 14,
		kind: 'read',
		chain: true,
		protocol: 'nftProtocolId',
		availability: 'EVM chains',
		parameters: [
			nftCollection('Address of the NFT collection contract'),
			{
				name: 'sort',
				type: 'text',
				required: true,
				options: ['asc', 'desc'],
				default: 'desc',
				description: 'Sort order',
			},
			{
				name: 'address',
				type: 'text',
				description: 'Only transfers from or to this address',
				placeholder: '0x...',
			},
			...blockRange,
		],
	},
];
