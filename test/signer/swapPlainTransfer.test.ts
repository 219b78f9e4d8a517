/**
 * A swap is a call the Signer cannot read, so under a spending rule its contract must be on Allowed
 * Contracts and Programs. The API answers a swap form with no call at all: a plain native transfer to
 * the outsider (no call data, so no contract was checked), within the native value the intent allows
 * (the swap's amountIn). With token caps only it was signed; now the transfer's recipient is held to
 * the list as the contract called. Signed without the rule, the outsider is paid the ETH.
 */
import { HDNodeWallet, JsonRpcProvider, parseEther } from 'ethers';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../devnet';
import { DEVNET_MNEMONIC } from '../../devnet/fixtures';
import { EXPAND, ITEMS, SIGNER, expandCredentials, runPipeline } from '../helpers/n8n';
import { startTamperingApi } from '../helpers/tamperingApi';

let devnet: Devnet;
beforeAll(async () => {
	devnet = await startDevnet();
});
afterAll(async () => {
	await devnet.stop();
});

const credential = (policy: IDataObject): ICredentialDataDecryptedObject => ({
	keyType: 'mnemonic',
	mnemonic: DEVNET_MNEMONIC,
	derivationPath: "m/44'/60'/0'/0/{index}",
	...policy,
});

test('a swap answered with a plain transfer of its amountIn in ETH to the outsider is refused under token caps; signed without the rule, the outsider is paid the ETH', async () => {
	const chain = devnet.chains[0];
	const provider = new JsonRpcProvider(chain.rpcUrl, Number(chain.chainId), {
		staticNetwork: true,
	});
	const treasury = HDNodeWallet.fromPhrase(DEVNET_MNEMONIC, undefined, "m/44'/60'/0'/0/1");
	const outsider = HDNodeWallet.fromPhrase(DEVNET_MNEMONIC, undefined, "m/44'/60'/0'/0/8");
	const { USDC, DAI } = chain.tokens;
	const amountIn = parseEther('50');
	const policy = { maxPerTransaction: `${USDC.address}:6 = 1000` };
	const api = await startTamperingApi(devnet.baseUrl, {
		answer: (path, _answer, asked) =>
			path === '/dex/swap'
				? {
						status: 200,
						msg: 'success',
						data: {
							chainId: chain.chainId,
							from: asked.from,
							to: outsider.address,
							value: amountIn.toString(),
							gas: '21000',
							data: '0x',
						},
					}
				: undefined,
	});
	let result;
	try {
		result = await runPipeline(
			[
				{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
				{
					name: 'Build',
					type: EXPAND,
					typeVersion: 2,
					parameters: {
						resource: 'dex',
						operation: 'swap',
						dexId: devnet.dexId,
						from: treasury.address,
						path: `${DAI.address},${USDC.address}`,
						amountIn: amountIn.toString(),
						amountsIn: 'smallest',
						additionalFields: {
							amountOutMin: '0',
							to: treasury.address,
							deadline: String(2n ** 40n),
							gas: '300000',
						},
					},
				},
				{
					name: 'Sign',
					type: SIGNER,
					parameters: { operation: 'signTransaction', source: 'input', accountIndex: 1 },
					continueOnFail: true,
				},
			],
			{
				...expandCredentials({
					apiKey: devnet.apiKey,
					baseUrl: api.url,
					historicalUrl: devnet.historicalUrl,
				}),
				expandSignerApi: credential(policy),
			},
		);
	} finally {
		await api.close();
	}
	if (result.error) throw result.error;
	const built = result.output('Build')[0].json;
	const signed = result.output('Sign')[0].json;
	expect(signed.rawTransaction).toBeUndefined();
	expect(signed.error).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked (dex/swap): native value: asked dex/swap from ${DAI.address}, not the native asset, but the transaction sends ${amountIn} (smallest unit) of the native asset; a path that pays value (a wrapped-native input) cannot be bound to the form, type the native asset ("native" or 0xeeee…eeee) as the input; called contract: dex/swap is a call whose effect the signer cannot read from the transaction, so its contract (program) must be on Allowed Contracts and Programs, and ${outsider.address} is not; nothing was signed (item 0)`,
	);

	// Without the rule (no intent, Require Intent Never): the token caps alone sign it, and the ETH goes.
	const { intent: _intent, ...withoutIntent } = built;
	const unbound = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([withoutIntent]) } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: { operation: 'signTransaction', source: 'input', accountIndex: 1 },
				continueOnFail: true,
			},
		],
		{
			...expandCredentials({
				apiKey: devnet.apiKey,
				baseUrl: devnet.baseUrl,
				historicalUrl: devnet.historicalUrl,
			}),
			expandSignerApi: credential({ ...policy, requireIntent: 'never' }),
		},
	);
	const theft = unbound.output('Sign')[0].json;
	expect(theft.error).toBeUndefined();
	const before = await provider.getBalance(outsider.address);
	const receipt = await (
		await provider.broadcastTransaction(theft.rawTransaction as string)
	).wait();
	expect((await provider.getBalance(outsider.address, receipt?.blockNumber)) - before).toBe(
		amountIn,
	);
});
