/**
 * The intent is what the Expand node wrote, never what the API answered. Expand puts `intent` at its
 * output's top level; a swap aggregator's transaction sits deeper (`transactionPayload`, Transaction
 * Field in the Signer), inside the API's answer. A hostile API plants its own `intent` there, matching
 * the approval to an outsider it built: the Signer must hold the transaction to the node's intent
 * (a swap: a call, which makes no token approval), not the API's. Signed as the planted intent says,
 * the outsider's key takes the treasury's USDC.
 */
import {
	getAddress,
	HDNodeWallet,
	Interface,
	JsonRpcProvider,
	MaxUint256,
	type Wallet,
} from 'ethers';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { balanceOf } from '../../../helpers/chainReads';
import { EXPAND, ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { startTamperingApi } from '../../../helpers/tamperingApi';
import {
	devnetAccount,
	devnetCredentials,
	devnetSignerKey,
} from '../../../helpers/devnetCredentials';
import { useDevnet } from '../../../helpers/useDevnet';

const TREASURY_INDEX = 1;
const token = new Interface([
	'function approve(address,uint256)',
	'function transferFrom(address,address,uint256)',
]);

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const chain = () => devnet.chains[0];
const wallet = (index: number): Wallet | HDNodeWallet =>
	devnetAccount(index).connect(
		new JsonRpcProvider(chain().rpcUrl, Number(chain().chainId), { staticNetwork: true }),
	);
const treasury = () => wallet(TREASURY_INDEX);
const outsider = () => wallet(8);

const evmKey: ICredentialDataDecryptedObject = devnetSignerKey();

test("a swap aggregator answer whose transactionPayload carries the API's own intent (an unlimited approval to an outsider) is held to the node's intent and refused; signed as the planted intent says, the outsider takes the USDC", async () => {
	const usdc = getAddress(chain().tokens.USDC.address);
	const dai = getAddress(chain().tokens.DAI.address);
	const approval = {
		chainId: chain().chainId,
		from: treasury().address,
		to: usdc,
		value: '0',
		gas: '80000',
		data: token.encodeFunctionData('approve', [outsider().address, MaxUint256]),
	};
	const planted = {
		operation: 'dex/swapaggregator',
		effect: 'approve',
		chainId: chain().chainId,
		sender: treasury().address,
		recipient: outsider().address,
		token: usdc,
		amount: MaxUint256.toString(),
	};
	const api = await startTamperingApi(devnet.baseUrl, {
		answer: (path) =>
			path === '/dex/swapaggregator'
				? {
						status: 200,
						msg: 'success',
						data: { transactionPayload: { ...approval, intent: planted } },
					}
				: undefined,
	});
	let result;
	try {
		result = await runPipeline(
			[
				{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{}]) } },
				{
					name: 'Swap',
					type: EXPAND,
					typeVersion: 2,
					parameters: {
						resource: 'dex',
						operation: 'swapaggregator',
						chainId: chain().chainId,
						from: treasury().address,
						path: `${usdc},${dai}`,
						amountIn: '1',
						to: treasury().address,
						gas: '300000',
					},
				},
				{
					name: 'Sign',
					type: SIGNER,
					parameters: {
						operation: 'signTransaction',
						source: 'input',
						transactionField: 'transactionPayload',
						accountIndex: TREASURY_INDEX,
					},
					continueOnFail: true,
				},
			],
			devnetCredentials(devnet, { expand: { baseUrl: api.url }, signer: evmKey }),
		);
	} finally {
		await api.close();
	}
	if (result.error) throw result.error;
	const built = result.output('Swap')[0].json;
	expect((built.intent as IDataObject).effect).toBe('call');
	const signed = result.output('Sign')[0].json;
	expect(signed.rawTransaction).toBeUndefined();
	expect(signed.error).toMatch(
		/^Refused by the rule "intent": the transaction is not what the form asked \(dex\/swapaggregator\): what it does: asked dex\/swapaggregator, a call the signer cannot read, but the transaction makes approve of /,
	);

	// Signed as the planted intent says, the approval goes out and the outsider's key moves the USDC.
	const plantedOnly = await runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: { items: JSON.stringify([(built as IDataObject).transactionPayload]) },
			},
			{
				name: 'Sign',
				type: SIGNER,
				parameters: { operation: 'signTransaction', source: 'input', accountIndex: TREASURY_INDEX },
				continueOnFail: true,
			},
		],
		devnetCredentials(devnet, { signer: evmKey }),
	);
	const theft = plantedOnly.output('Sign')[0].json;
	expect(theft.error).toBeUndefined();
	const provider = treasury().provider as JsonRpcProvider;
	await (await provider.broadcastTransaction(theft.rawTransaction as string)).wait();
	const held = await balanceOf(devnet, chain().chainId, treasury().address, usdc);
	expect(held).toBeGreaterThan(0n);
	await (
		await outsider().sendTransaction({
			to: usdc,
			data: token.encodeFunctionData('transferFrom', [
				treasury().address,
				outsider().address,
				held,
			]),
		})
	).wait();
	expect(await balanceOf(devnet, chain().chainId, treasury().address, usdc)).toBe(0n);
});
