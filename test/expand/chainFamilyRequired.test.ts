/**
 * Required parameters follow the chosen chain's family (catalog data: a required parameter tagged with
 * families is required on those chains only), through the engine on the devnet: Fungible Token →
 * Transfer on Solana (901) takes the Solana fields alone, on EVM (31337) an empty gas limit is still
 * estimated, and an EVM field left empty is refused before any request.
 */
import {
	getBase64Encoder,
	getCompiledTransactionMessageDecoder,
	getTransactionDecoder,
} from '@solana/kit';
import type { INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../devnet';
import { runExpand } from '../helpers/n8n';
import { devnetExpandApi } from '../helpers/devnetCredentials';
import { useDevnet } from '../helpers/useDevnet';

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const credentials = () => devnetExpandApi(devnet);
const endpoints = () => devnet.usage().map((entry) => entry['api-endpoint']);
/** Fungible Token → Transfer of the devnet's USDC on Solana (901), its first wallet paying its second; `fields` over these. */
const solanaTransfer = (fields: INodeParameters): INodeParameters => {
	const [sender, recipient] = devnet.solana.wallets;
	return {
		resource: 'fungibletoken',
		operation: 'transfer',
		chainId: '901',
		token: devnet.solana.usdc.address,
		sender: sender.address,
		destination: recipient.address,
		feePayer: sender.address,
		...fields,
	};
};

test('on Solana (901) Transfer prepares a transaction from the Solana fields alone, with no gas estimate', async () => {
	const [sender] = devnet.solana.wallets;
	const before = endpoints().length;
	const result = await runExpand(
		solanaTransfer({ amount: '1500000', decimals: String(devnet.solana.usdc.decimals) }),
		{ credentials: credentials() },
	);
	expect(result.error).toBeUndefined();
	expect(endpoints().slice(0, endpoints().length - before)).toEqual(['/fungibletoken/transfer']);
	const transaction = getTransactionDecoder().decode(
		getBase64Encoder().encode(String(result.output('Expand')[0].json.data)),
	);
	const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
	expect(message.staticAccounts[0]).toBe(sender.address);
});

test('on Solana a Solana field left empty is refused before any request, naming the parameter, the chain and the item', async () => {
	const before = endpoints().length;
	const result = await runExpand(solanaTransfer({ amount: '1', feePayer: '', decimals: '6' }), {
		credentials: credentials(),
		items: [{}, {}],
		continueOnFail: true,
	});
	expect(result.output('Expand').map((item) => [item.json.error, item.pairedItem])).toEqual([
		[
			'The parameter "feePayer" is required on Solana Devnet (chain 901) but empty (item 0)',
			{ item: 0 },
		],
		[
			'The parameter "feePayer" is required on Solana Devnet (chain 901) but empty (item 1)',
			{ item: 1 },
		],
	]);
	expect(endpoints().length).toBe(before);
});

test('on EVM (31337) an empty gas limit is still estimated, and an empty "to" is refused before any request', async () => {
	const usdc = devnet.chains[0].tokens.USDC.address;
	const holder = devnet.chains[0].wallets[1].address;
	const to = '0x' + '73'.repeat(20);
	const transfer = (recipient: string) =>
		runExpand(
			{
				resource: 'fungibletoken',
				operation: 'transfer',
				chainId: '31337',
				amount: '2500000',
				from: holder,
				to: recipient,
				tokenAddress: usdc,
				gas: '',
			},
			{ credentials: credentials(), continueOnFail: true },
		);
	let before = endpoints().length;
	const estimated = await transfer(to);
	expect(estimated.output('Expand')[0].json).toMatchObject({
		from: holder,
		to: usdc,
		gas: expect.stringMatching(/^[1-9]\d*$/),
	});
	// Newest first: the estimate, then the transfer built with it.
	expect(endpoints().slice(0, endpoints().length - before)).toEqual([
		'/fungibletoken/transfer',
		'/chain/estimategas',
	]);

	before = endpoints().length;
	const refused = await transfer('');
	expect(refused.output('Expand')[0].json.error).toBe(
		'The parameter "to" is required on Local Devnet A (chain 31337) but empty (item 0)',
	);
	expect(endpoints().length).toBe(before);
});
