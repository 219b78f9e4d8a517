/**
 * An amount typed in whole units is converted by the Expand node with the decimals the API gives
 * (fungibletoken/gettokendetails): an API that says USDC has 9 decimals turns a form for 1 USDC into
 * an intent and a transaction for 1,000 USDC alike, so comparing the two finds nothing. The intent
 * now carries what was typed and the decimals used; the Signer holds them to the token's decimals on
 * the chain and refuses. Signed without the rule, the recipient is paid 1,000 USDC.
 */
import { getAddress, JsonRpcProvider } from 'ethers';
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../../devnet';
import { balanceOf } from '../../helpers/chainReads';
import { startDecimalsLyingRpc } from '../../helpers/lyingRpc';
import { EXPAND, ITEMS, SIGNER, runPipeline } from '../../helpers/n8n';
import { startTamperingApi } from '../../helpers/tamperingApi';
import { devnetAccount, devnetExpandApi, devnetSignerKey } from '../../helpers/devnetCredentials';
import { useDevnet } from '../../helpers/useDevnet';

const RECIPIENT = getAddress('0x' + 'a7'.repeat(20));
let devnet: Devnet;
useDevnet((started) => (devnet = started));

const unpinnedKey: Record<string, ICredentialDataDecryptedObject> = {
	expandSignerApi: devnetSignerKey(),
};
/** The credential pinning a chain node (the devnet's own unless `rpcUrl` says another). */
const pinnedKey = (
	rpcUrl = devnet.chains[0].rpcUrl,
): Record<string, ICredentialDataDecryptedObject> => ({
	expandSignerApi: devnetSignerKey({ rpcUrls: `${devnet.chains[0].chainId} = ${rpcUrl}` }),
});
const SIGN_EVM = { operation: 'signTransaction', source: 'input', accountIndex: 1 };

/** The API's token details say `decimals`, whatever the token has. */
const lyingDecimals = (decimals: number) => ({
	answer: (path: string, answer: IDataObject) =>
		path === '/fungibletoken/gettokendetails'
			? { ...answer, data: { ...(answer.data as IDataObject), decimals } }
			: undefined,
});

/** Expand (version 2) builds through an API that lies as `tampering` says, then the Signer signs From Input Item. */
async function expandThenSign(
	tampering: Parameters<typeof startTamperingApi>[1],
	expand: INodeParameters,
	sign: INodeParameters,
	key: Record<string, ICredentialDataDecryptedObject>,
): Promise<{ built: IDataObject; signed: IDataObject }> {
	const api = await startTamperingApi(devnet.baseUrl, tampering);
	try {
		const result = await runPipeline(
			[
				{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
				{ name: 'Build', type: EXPAND, typeVersion: 2, parameters: expand },
				{ name: 'Sign', type: SIGNER, parameters: sign, continueOnFail: true },
			],
			{
				expandApi: devnetExpandApi(devnet, { baseUrl: api.url }),
				...key,
			},
		);
		if (result.error) throw result.error;
		return { built: result.output('Build')[0].json, signed: result.output('Sign')[0].json };
	} finally {
		await api.close();
	}
}

/** The Signer alone on an item (by default EVM, the default credential). */
async function signAlone(
	item: IDataObject,
	sign: INodeParameters = SIGN_EVM,
	key: Record<string, ICredentialDataDecryptedObject> = pinnedKey(),
): Promise<IDataObject> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([item]) } },
			{ name: 'Sign', type: SIGNER, parameters: sign, continueOnFail: true },
		],
		{
			expandApi: devnetExpandApi(devnet),
			...key,
		},
	);
	return result.output('Sign')[0].json;
}

const oneUsdc = (): INodeParameters => {
	const chain = devnet.chains[0];
	return {
		resource: 'fungibletoken',
		operation: 'transfer',
		chainId: chain.chainId,
		from: devnetAccount(1).address,
		to: RECIPIENT,
		tokenAddress: chain.tokens.USDC.address,
		amount: '1',
		gas: '80000',
	};
};

test("EVM: an API that says USDC has 9 decimals makes a form for 1 USDC ask 1,000 USDC; the default credential refuses it, naming the API's decimals and the chain's; signed without the rule, the recipient is paid 1,000 USDC", async () => {
	const chain = devnet.chains[0];
	const usdc = chain.tokens.USDC.address;
	const { built, signed } = await expandThenSign(
		lyingDecimals(9),
		oneUsdc(),
		SIGN_EVM,
		pinnedKey(),
	);
	expect(built.intent).toMatchObject({
		token: usdc,
		amount: '1000000000',
		amountTyped: '1',
		decimals: 9,
	});
	expect(signed.rawTransaction).toBeUndefined();
	expect(signed.error).toBe(
		`Refused by the rule "intent": the amount was typed in whole units as 1 of ${usdc}, converted with 9 decimals the API gave, but ${usdc} has 6 decimals on the chain; nothing was signed (item 0)`,
	);

	// Without the rule (the intent as it was before: no typed amount, no form item), the default credential signs it.
	const {
		amountTyped: _typed,
		decimals: _decimals,
		formItem: _formItem,
		...intent
	} = built.intent as IDataObject;
	const unbound = await signAlone({ ...built, intent });
	expect(unbound.error).toBeUndefined();
	const provider = new JsonRpcProvider(chain.rpcUrl, Number(chain.chainId), {
		staticNetwork: true,
	});
	const before = await balanceOf(devnet, chain.chainId, RECIPIENT, usdc);
	await (await provider.broadcastTransaction(unbound.rawTransaction as string)).wait();
	expect((await balanceOf(devnet, chain.chainId, RECIPIENT, usdc)) - before).toBe(1_000_000_000n);
});

test('EVM: an intent whose amount is not what was typed at its decimals is refused', async () => {
	const { built } = await expandThenSign({}, oneUsdc(), SIGN_EVM, pinnedKey());
	// Written by a workflow (no form item: one moved onto an edited intent is refused by its digest).
	const { formItem: _formItem, ...asked } = built.intent as IDataObject;
	const signed = await signAlone({ ...built, intent: { ...asked, amountTyped: '2' } });
	expect(signed.error).toBe(
		`Refused by the rule "intent": the amount was typed in whole units as 2 of ${devnet.chains[0].tokens.USDC.address} (6 decimals), which is 2000000 (smallest unit), but the intent asks 1000000 (smallest unit); nothing was signed (item 0)`,
	);
});

test('EVM: an honest run in whole units is signed as before, its intent naming what was typed', async () => {
	const { built, signed } = await expandThenSign({}, oneUsdc(), SIGN_EVM, pinnedKey());
	expect(built.intent).toMatchObject({ amount: '1000000', amountTyped: '1', decimals: 6 });
	expect(signed.error).toBeUndefined();
	expect(signed.rawTransaction).toEqual(expect.any(String));
});

test("EVM: an API that lies about USDC's decimals and names a chain node that lies with it (chain/getpublicrpc): trusting a node that agrees, 1 USDC typed pays 1,000 USDC; with no pinned node and no amount limit line giving USDC's decimals the amount is refused, and a line giving them refuses the lie, naming them", async () => {
	const chain = devnet.chains[0];
	const usdc = chain.tokens.USDC.address;
	const node = await startDecimalsLyingRpc(chain.rpcUrl, usdc, 9);
	const tampering = {
		answer: (path: string, answer: IDataObject, asked: IDataObject) =>
			path === '/chain/getpublicrpc'
				? { ...answer, data: { rpc: node.url } }
				: lyingDecimals(9).answer(path, answer),
	};
	try {
		// The theft, as it went before this rule: the node confirming the decimals agrees with the API
		// (here the owner pinned that node; before, the node the API named was taken as this one is).
		const trusting = await expandThenSign(tampering, oneUsdc(), SIGN_EVM, pinnedKey(node.url));
		expect(trusting.built.intent).toMatchObject({ amount: '1000000000', decimals: 9 });
		expect(trusting.signed.error).toBeUndefined();
		const provider = new JsonRpcProvider(chain.rpcUrl, Number(chain.chainId), {
			staticNetwork: true,
		});
		const before = await balanceOf(devnet, chain.chainId, RECIPIENT, usdc);
		await (await provider.broadcastTransaction(trusting.signed.rawTransaction as string)).wait();
		expect((await balanceOf(devnet, chain.chainId, RECIPIENT, usdc)) - before).toBe(1_000_000_000n);

		// RPC URLs pins no node, and no amount limit gives USDC's decimals: only the API's node could vouch for them.
		const unpinned = await expandThenSign(tampering, oneUsdc(), SIGN_EVM, unpinnedKey);
		expect(unpinned.signed.rawTransaction).toBeUndefined();
		expect(unpinned.signed.error).toBe(
			`Refused by the rule "intent": the amount was typed in whole units as 1 of ${usdc}, converted with 9 decimals the API gave, and only a chain node the API names could confirm them (an API lying about decimals names one that agrees); pin chain ${chain.chainId}'s node in the credential's RPC URLs, give the token's decimals in an amount limit line ("${usdc}:9 = …"), or type the amount in smallest units; nothing was signed (item 0)`,
		);

		// The owner wrote USDC's decimals in the policy (a cap of 5,000 USDC): the lie is refused, whatever the node says.
		const capped = {
			expandSignerApi: devnetSignerKey({ maxPerTransaction: `${usdc}:6@${chain.chainId} = 5000` }),
		};
		const { signed } = await expandThenSign(tampering, oneUsdc(), SIGN_EVM, capped);
		expect(signed.rawTransaction).toBeUndefined();
		expect(signed.error).toBe(
			`Refused by the rule "intent": the amount was typed in whole units as 1 of ${usdc}, converted with 9 decimals the API gave, but the credential's amount limits give ${usdc} 6 decimals on chain ${chain.chainId}; nothing was signed (item 0)`,
		);
		// The same line with honest answers: signed, the node the API names asked for nothing more.
		const honest = await expandThenSign({}, oneUsdc(), SIGN_EVM, capped);
		expect(honest.signed.error).toBeUndefined();
		expect(honest.signed.rawTransaction).toEqual(expect.any(String));
	} finally {
		await node.close();
	}
});

test("Solana: an intent whose typed amount was converted with decimals other than the mint's is refused, naming both; with the mint's it is signed", async () => {
	const solana = devnet.solana;
	const payer = solana.wallets[2];
	// Solana's token transfer form names no token to look decimals up by, so the intent is written as a
	// version 2 form in whole units would write it, around the transaction the API builds for 1 USDC.
	const form = {
		resource: 'fungibletoken',
		operation: 'transfer',
		chainId: solana.chainId,
		token: solana.usdc.address,
		sender: payer.address,
		destination: solana.wallets[3].address,
		feePayer: payer.address,
		decimals: '6',
		amount: '1000000',
		amountsIn: 'smallest',
	};
	const sign = {
		chainFamily: 'solana',
		solanaChainId: solana.chainId,
		operation: 'signTransaction',
	};
	const key = {
		expandSolanaKeyApi: {
			keyType: 'secretKey',
			secretKey: payer.secretKey,
			rpcUrls: `${solana.chainId} = ${solana.rpcUrl}`,
		},
	};
	const { built } = await expandThenSign({}, form, sign, key);
	// Written by a workflow (no form item: one moved onto an edited intent is refused by its digest).
	const { formItem: _formItem, ...intent } = built.intent as IDataObject;
	const withTyped = async (amountTyped: string, decimals: number) =>
		await signAlone({ ...built, intent: { ...intent, amountTyped, decimals } }, sign, key);

	const lied = await withTyped('0.001', 9);
	expect(lied.error).toBe(
		`Refused by the rule "intent": the amount was typed in whole units as 0.001 of ${solana.usdc.address}, converted with 9 decimals the API gave, but ${solana.usdc.address} has 6 decimals on the chain; nothing was signed (item 0)`,
	);
	const honest = await withTyped('1', 6);
	expect(honest.error).toBeUndefined();
	expect(honest.rawTransaction).toEqual(expect.any(String));
});
