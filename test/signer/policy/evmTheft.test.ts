/**
 * Thefts through Expand Signer's EVM policy when amount limits are set without a recipient list, tried
 * on the devnet's chain 31337. Each attack goes through the Signer in n8n's engine and must be refused;
 * then the same transaction is signed with the treasury's key directly, as a Signer without the rule
 * did, and lands: the outsider is paid, so the refusal is what stands between them.
 */
import { getAddress, Interface, JsonRpcProvider, MaxUint256 } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../devnet';
import { balanceOf } from '../../helpers/chainReads';
import { ITEMS, SIGNER, runPipeline } from '../../helpers/n8n';
import { devnetAccount, devnetCredentials, devnetSignerKey } from '../../helpers/devnetCredentials';
import { useDevnet } from '../../helpers/useDevnet';

const TREASURY_INDEX = 1;
const OUTSIDER = '0x' + 'be'.repeat(20);
const router = new Interface([
	'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
]);
const erc20 = new Interface([
	'function approve(address,uint256)',
	'function transfer(address,uint256)',
]);

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const treasury = () => devnetAccount(TREASURY_INDEX);

/** The Signer (Sign Transaction from the input item, or Deploy Contract) with the treasury's key and this policy. */
async function throughSigner(
	parameters: IDataObject,
	item: IDataObject,
	policy: IDataObject,
): Promise<IDataObject> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([item]) } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: { accountIndex: TREASURY_INDEX, ...parameters },
				continueOnFail: true,
			},
		],
		devnetCredentials(devnet, { signer: devnetSignerKey(policy) }),
	);
	return result.output('Sign')[0].json;
}

test('a 1 USDC cap and no allowlist: a router swap of 1,000 USDC paying an outsider is refused as a call the Signer cannot read; signed without the rule, the outsider is paid', async () => {
	const chain = devnet.chains[0];
	const usdc = chain.tokens.USDC.address;
	const dai = chain.tokens.DAI.address;
	// An approval the treasury gave the router long ago, for its own swaps.
	await devnet.rpc(chain.chainId, 'eth_sendTransaction', [
		{
			from: treasury().address,
			to: usdc,
			data: erc20.encodeFunctionData('approve', [chain.uniswapV2.router, MaxUint256]),
		},
	]);
	const swap = {
		chainId: chain.chainId,
		to: chain.uniswapV2.router,
		data: router.encodeFunctionData('swapExactTokensForTokens', [
			1_000_000_000n,
			0n,
			[usdc, dai],
			OUTSIDER,
			2n ** 40n,
		]),
	};

	const refused = await throughSigner({ operation: 'signTransaction', source: 'input' }, swap, {
		maxPerTransaction: `${usdc}:6 = 1`,
		maxPerExecution: `${usdc}:6 = 1`,
	});
	expect(refused.error).toBe(
		`Refused by the rule "allowedContracts": the call to contract ${getAddress(chain.uniswapV2.router)} is not a token transfer, transferFrom or approve the signer can read, and the contract is not on Allowed Contracts and Programs; nothing was signed (item 0)`,
	);
	expect(refused.rawTransaction).toBeUndefined();

	// With the router listed, the swap is the treasury's own business again: signed.
	const listed = await throughSigner({ operation: 'signTransaction', source: 'input' }, swap, {
		maxPerTransaction: `${usdc}:6 = 1`,
		allowedContracts: chain.uniswapV2.router,
		// A hand-built item has no intent (test/signer/policy/intentBinding.test.ts binds the ones Expand builds).
		requireIntent: 'never',
	});
	expect(listed.error).toBeUndefined();
	expect(listed.rawTransaction).toMatch(/^0x02/);

	// The theft, as it went when a cap without an allowlist let every unread call through.
	const before = await balanceOf(devnet, chain.chainId, treasury().address, usdc);
	const wallet = treasury().connect(
		new JsonRpcProvider(chain.rpcUrl, Number(chain.chainId), { staticNetwork: true }),
	);
	await (await wallet.sendTransaction({ to: swap.to, data: swap.data })).wait();
	expect(before - (await balanceOf(devnet, chain.chainId, treasury().address, usdc))).toBe(
		1_000_000_000n,
	);
	expect(await balanceOf(devnet, chain.chainId, OUTSIDER, dai)).toBeGreaterThan(0n);
});

test('with a recipient list, a transfer(recipient, …) call to a contract the policy does not name is refused: the Signer cannot know what that contract does', async () => {
	const chain = devnet.chains[0];
	const allowed = '0x' + 'a1'.repeat(20);
	const lookalike = {
		chainId: chain.chainId,
		to: chain.uniswapV2.router,
		data: erc20.encodeFunctionData('transfer', [allowed, 1]),
		// Every field given, so nothing is simulated: the rule is what refuses it, not the chain.
		nonce: '0',
		gas: '60000',
		maxFeePerGas: '2000000000',
		maxPriorityFeePerGas: '1',
	};
	const refused = await throughSigner(
		{ operation: 'signTransaction', source: 'input' },
		lookalike,
		{
			allowedRecipients: allowed,
		},
	);
	expect(refused.error).toBe(
		`Refused by the rule "allowedContracts": the call to contract ${getAddress(chain.uniswapV2.router)} reads as transfer, but the contract is neither a token with a limit line nor on Allowed Contracts and Programs, so what it really does is not known; nothing was signed (item 0)`,
	);
	const usdcTransfer = { ...lookalike, to: chain.tokens.USDC.address };
	const known = await throughSigner(
		{ operation: 'signTransaction', source: 'input' },
		usdcTransfer,
		{
			allowedRecipients: allowed,
			maxPerTransaction: `${chain.tokens.USDC.address}:6 = 10`,
			requireIntent: 'never',
		},
	);
	expect(known.error).toBeUndefined();
});

test('Deploy Contract is refused while an amount limit is set, and signed once Allow Contract Deployment is on', async () => {
	// Creation code returning a 1-byte runtime (STOP).
	const parameters = {
		operation: 'deployContract',
		chainId: '31337',
		bytecode: '0x600180600b6000396000f300',
	};
	const policy = { maxPerTransaction: 'native = 1' };
	const refused = await throughSigner(parameters, {}, policy);
	expect(refused.error).toBe(
		'Refused by the rule "allowContractDeployment": the transaction deploys a contract, which is refused while an amount limit or the recipient list is set; turn on Allow Contract Deployment to sign it; nothing was signed (item 0)',
	);
	const allowed = await throughSigner(parameters, {}, { ...policy, allowContractDeployment: true });
	expect(allowed.error).toBeUndefined();
	expect(allowed.to).toBeNull();
});
