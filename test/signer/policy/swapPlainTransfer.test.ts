/**
 * A swap is a call the Signer cannot read. The API answers a DAI → USDC swap form with no call at all:
 * a plain transfer of native value to the outsider.
 * - Under a spending rule its contract must be on Allowed Contracts and Programs: with no call data no
 *   contract was checked, and with token caps only it was signed; now the transfer's recipient is held
 *   to the list as the contract called.
 * - The intent allowed native value up to amountIn, counted in the input token's smallest unit: a form
 *   swapping 5,000 DAI (18 decimals) let the transaction carry 5,000 ETH, signed by the default
 *   credential. Native value is now allowed only when the swap's input is the native asset.
 * Signed without the rule, the outsider is paid the ETH.
 */
import { JsonRpcProvider, parseEther, parseUnits } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../devnet';
import { EXPAND, ITEMS, SIGNER, runPipeline } from '../../helpers/n8n';
import { startTamperingApi } from '../../helpers/tamperingApi';
import { devnetAccount, devnetCredentials, devnetSignerKey } from '../../helpers/devnetCredentials';
import { useDevnet } from '../../helpers/useDevnet';

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const SIGN = { operation: 'signTransaction', source: 'input', accountIndex: 1 };
const chain = () => devnet.chains[0];
const provider = () =>
	new JsonRpcProvider(chain().rpcUrl, Number(chain().chainId), { staticNetwork: true });
const treasury = devnetAccount(1);
const outsider = devnetAccount(8);

const signWith = async (items: IDataObject[], policy: IDataObject) =>
	await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{ name: 'Sign', type: SIGNER, parameters: SIGN, continueOnFail: true },
		],
		devnetCredentials(devnet, { signer: devnetSignerKey(policy) }),
	);

/** The DAI → USDC swap form, answered by the API with a plain transfer of `amountIn` in ETH to the outsider, then signed. */
async function swapAnsweredWithTransfer(amountIn: bigint, policy: IDataObject) {
	const { USDC, DAI } = chain().tokens;
	const api = await startTamperingApi(devnet.baseUrl, {
		answer: (path, _answer, asked) =>
			path === '/dex/swap'
				? {
						status: 200,
						msg: 'success',
						data: {
							chainId: chain().chainId,
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
				{ name: 'Sign', type: SIGNER, parameters: SIGN, continueOnFail: true },
			],
			devnetCredentials(devnet, { expand: { baseUrl: api.url }, signer: devnetSignerKey(policy) }),
		);
	} finally {
		await api.close();
	}
	if (result.error) throw result.error;
	return { built: result.output('Build')[0].json, signed: result.output('Sign')[0].json };
}

/** Sends what the Signer signed without the rule and returns what the outsider received. */
async function outsiderPaidBy(rawTransaction: unknown): Promise<bigint> {
	const before = await provider().getBalance(outsider.address);
	const receipt = await (await provider().broadcastTransaction(rawTransaction as string)).wait();
	return (await provider().getBalance(outsider.address, receipt?.blockNumber)) - before;
}

const nativeValueRefusal = (amountIn: bigint) =>
	`native value: asked dex/swap from ${chain().tokens.DAI.address}, not the native asset, but the transaction sends ${amountIn} (smallest unit) of the native asset; a path that pays value (a wrapped-native input) cannot be bound to the form, type the native asset ("native" or 0xeeee…eeee) as the input`;

test('a swap answered with a plain transfer of its amountIn in ETH to the outsider is refused under token caps; signed without the rule, the outsider is paid the ETH', async () => {
	const amountIn = parseEther('50');
	const policy = { maxPerTransaction: `${chain().tokens.USDC.address}:6 = 1000` };
	const { built, signed } = await swapAnsweredWithTransfer(amountIn, policy);
	expect(signed.rawTransaction).toBeUndefined();
	expect(signed.error).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked (dex/swap): ${nativeValueRefusal(amountIn)}; called contract: dex/swap is a call whose effect the signer cannot read from the transaction, so its contract (program) must be on Allowed Contracts and Programs, and ${outsider.address} is not; nothing was signed (item 0)`,
	);

	// Without the rule (no intent, Require Intent Never): the token caps alone sign it, and the ETH goes.
	const { intent: _intent, ...withoutIntent } = built;
	const theft = (await signWith([withoutIntent], { ...policy, requireIntent: 'never' })).output(
		'Sign',
	)[0].json;
	expect(theft.error).toBeUndefined();
	expect(await outsiderPaidBy(theft.rawTransaction)).toBe(amountIn);
});

test('a DAI swap answered with its amountIn in ETH to the outsider is refused by the default credential, naming tokenIn and the value; signed without the rule, the outsider is paid the ETH', async () => {
	const amountIn = parseUnits('5000', 18);
	const { built, signed } = await swapAnsweredWithTransfer(amountIn, {});
	expect(signed.rawTransaction).toBeUndefined();
	expect(signed.error).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked (dex/swap): ${nativeValueRefusal(amountIn)}; nothing was signed (item 0)`,
	);

	// Without the rule (the intent allowed value up to amountIn whatever tokenIn was): as if tokenIn were native
	// (an intent of its own, without the form item, whose digest would refuse the edit).
	const { formItem: _formItem, ...asked } = built.intent as IDataObject;
	const asNative = {
		...built,
		intent: { ...asked, tokenIn: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' },
	};
	const theft = (await signWith([asNative], {})).output('Sign')[0].json;
	expect(theft.error).toBeUndefined();
	expect(await outsiderPaidBy(theft.rawTransaction)).toBe(parseEther('5000'));
});
