/**
 * The policy reads every form of an address ethers accepts (with or without 0x, ICAP) as that address:
 * a token limit line or a list entry written without 0x was accepted and never matched anything, so a
 * 1 USDC cap let a 1,000 USDC transfer to the outsider, which an input item asked, be signed.
 */
import { Interface, JsonRpcProvider } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { EVM_POLICY_FORMAT } from '../../../../packages/signer/nodes/ExpandSigner/families/evm/policyFormat';
import { balanceOf } from '../../../helpers/chainReads';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import {
	devnetAccount,
	devnetCredentials,
	devnetSignerKey,
} from '../../../helpers/devnetCredentials';
import { useDevnet } from '../../../helpers/useDevnet';

const token = new Interface(['function transfer(address,uint256)']);

let devnet: Devnet;
useDevnet((started) => (devnet = started));

test('an address without 0x or as ICAP is keyed as its 0x form', () => {
	const address = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
	expect(EVM_POLICY_FORMAT.key(address.slice(2))).toBe(address.toLowerCase());
	expect(EVM_POLICY_FORMAT.key(address)).toBe(address.toLowerCase());
});

test('a 1 USDC cap written without 0x refuses a 1,000 USDC transfer an input item asks; signed without it, the outsider is paid', async () => {
	const chain = devnet.chains[0];
	const usdc = chain.tokens.USDC.address;
	const outsider = devnetAccount(8);
	const item = {
		chainId: chain.chainId,
		to: usdc,
		value: '0',
		gas: '80000',
		data: token.encodeFunctionData('transfer', [outsider.address, 1_000_000_000n]),
	};
	const sign = async (policy: IDataObject) => {
		const result = await runPipeline(
			[
				{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([item]) } },
				{
					name: 'Sign',
					type: SIGNER,
					parameters: { operation: 'signTransaction', source: 'input', accountIndex: 3 },
					continueOnFail: true,
				},
			],
			devnetCredentials(devnet, {
				signer: devnetSignerKey({
					requireIntent: 'never',
					...policy,
				}),
			}),
		);
		return result.output('Sign')[0].json;
	};
	const refused = await sign({ maxPerTransaction: `${usdc.slice(2)}:6 = 1` });
	expect(refused.rawTransaction).toBeUndefined();
	expect(refused.error).toMatch(
		/^Refused by the rule "maxPerTransaction": transfer of 1000 \(1000000000 in the smallest unit\) of token 0x\w+ is above the limit of 1 per transaction/,
	);

	const before = await balanceOf(devnet, chain.chainId, outsider.address, usdc);
	const signed = await sign({});
	const provider = new JsonRpcProvider(chain.rpcUrl, Number(chain.chainId), {
		staticNetwork: true,
	});
	await (await provider.broadcastTransaction(signed.rawTransaction as string)).wait();
	expect((await balanceOf(devnet, chain.chainId, outsider.address, usdc)) - before).toBe(
		1_000_000_000n,
	);
});
