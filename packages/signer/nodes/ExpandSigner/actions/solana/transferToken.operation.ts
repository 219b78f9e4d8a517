import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { formatUnits, itemError } from '../../core';
import {
	TOKEN_ACCOUNT_SIZE,
	latestLifetime,
	mintDecimals,
	rentExemption,
	rpcChainReader,
	transferTokenTransaction,
} from '../../families/solana';
import { accountOf } from '../account';
import { payoutIdProperty } from '../signOnce';
import {
	amountProperties,
	chainIdProperty,
	computeUnitPriceProperty,
	readAddress,
	readAmount,
	readChainId,
	readComputeUnitPrice,
	rpcOf,
} from './fields';
import type { SolanaSession } from './session';
import { onOwnBlockhash } from './ownBlockhash';
import { signSolanaItem } from './signing';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';

export const option: INodePropertyOptions = {
	name: 'Transfer SPL Token',
	value: 'transferToken',
	description:
		'Build and sign an SPL token transfer (USDC, USDT, PYUSD, …) for Expand chain/sendtransaction',
	action: 'Sign an SPL token transfer',
};

/** The blockhash, the mint's decimals and the recipient's token account come from the chain's JSON-RPC. */
export const usesApi = true;

const show = { operation: ['transferToken'] };

export const journals: JournalKind = 'transaction';

export const description: INodeProperties[] = [
	chainIdProperty('transferToken'),
	{
		displayName: 'Token Mint',
		name: 'mint',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
		description: "The token's mint address; its decimals are read from the chain",
		displayOptions: { show },
	},
	{
		displayName: 'Recipient',
		name: 'recipient',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'Base58 wallet address',
		description:
			"The recipient's wallet; the tokens go to its associated token account of the mint",
		displayOptions: { show },
	},
	...amountProperties('transferToken', 'Base Units', 'Tokens'),
	{
		displayName: "Create Recipient's Token Account",
		name: 'createAccount',
		type: 'boolean',
		default: false,
		description:
			"Whether to create the recipient's associated token account when it does not exist yet; the signer pays its rent (0.00203928 SOL), shown in the output. Off: a recipient without one is refused before signing.",
		displayOptions: { show },
	},
	payoutIdProperty('transferToken'),
	computeUnitPriceProperty('transferToken'),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: SolanaSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const node = this.getNode();
	const chainId = readChainId.call(this, itemIndex, session);
	const mint = readAddress.call(this, itemIndex, 'mint');
	const recipient = readAddress.call(this, itemIndex, 'recipient');
	const createAccount = this.getNodeParameter('createAccount', itemIndex, false) as boolean;
	const computeUnitPrice = readComputeUnitPrice.call(this, itemIndex);
	const account = accountOf(this, itemIndex, session);
	const rpc = rpcOf.call(this, itemIndex, session, chainId);
	// The decimals only convert a decimal amount: TransferChecked names them, and the token program refuses them unless the mint has them.
	const decimals = await mintDecimals(rpc, mint);
	if (decimals === undefined)
		throw itemError(
			node,
			itemIndex,
			`The parameter "mint" must be an SPL Token mint on chain ${chainId}; ${mint} is not one`,
		);
	const amount = readAmount.call(this, itemIndex, decimals);
	const lifetime = await latestLifetime(rpc);
	const probe = await transferTokenTransaction({
		owner: account.address,
		mint,
		recipient,
		amount,
		decimals,
		createAccount: false,
		lifetime,
		computeUnitPrice,
	});
	const existing = await rpcChainReader(rpc).tokenAccount(probe.recipientAccount);
	const exists = existing?.mint === mint && existing.owner === recipient;
	if (!exists && !createAccount) {
		throw itemError(
			node,
			itemIndex,
			`The recipient ${recipient} has no token account for the mint ${mint}; turn on "Create Recipient's Token Account" to create it (rent ${formatUnits(rentExemption(TOKEN_ACCOUNT_SIZE).toString(), 9)} SOL, paid by the signer). Nothing was signed`,
		);
	}
	const { transaction, lifetime: signedLifetime } = await onOwnBlockhash.call(
		this,
		itemIndex,
		session,
		{
			chainId,
			account,
			rpc,
			build: async (fresh) =>
				(
					await transferTokenTransaction({
						owner: account.address,
						mint,
						recipient,
						amount,
						decimals,
						createAccount: !exists,
						lifetime: fresh,
						computeUnitPrice,
					})
				).transaction,
		},
	);
	return await signSolanaItem.call(this, itemIndex, session, draft, {
		chainId,
		account,
		transaction,
		rpc,
		decimals: new Map([[mint, decimals]]),
		details: {
			recipient,
			recipientTokenAccount: probe.recipientAccount,
			recipientTokenAccountCreated: !exists,
			mint,
			decimals,
			amountRaw: amount.toString(),
			amount: formatUnits(amount.toString(), decimals),
			lastValidBlockHeight: signedLifetime.lastValidBlockHeight.toString(),
		},
	});
}
