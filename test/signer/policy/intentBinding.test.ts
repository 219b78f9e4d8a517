/**
 * Intent-bound signing (issue: rules that hold when the API lies). An Expand write outputs, beside the
 * API's unsigned transaction, what its form asked (`intent`); Expand Signer holds the transaction to it.
 * Here the API is hostile: a server on 127.0.0.1 in front of the devnet's gateway changes what it was
 * asked before building, or what it built before answering. Each theft goes through Expand → Signer in
 * n8n's engine and is refused; then the same transaction without its intent is signed (as a Signer
 * without the rule did) and sent, and the outsider's own key moves what it was paid.
 */
import {
	getAddress,
	HDNodeWallet,
	Interface,
	JsonRpcProvider,
	parseEther,
	parseUnits,
	type Wallet,
} from 'ethers';
import {
	TOKEN_PROGRAM_ADDRESS,
	findAssociatedTokenPda,
	getCloseAccountInstruction,
	getCreateAssociatedTokenIdempotentInstruction,
	getTransferCheckedInstruction,
	getTransferInstruction,
} from '@solana-program/token';
import {
	address,
	createKeyPairSignerFromBytes,
	createNoopSigner,
	getBase58Encoder,
	getBase64Encoder,
} from '@solana/kit';
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../../devnet';
import { balanceOf } from '../../helpers/chainReads';
import { EXPAND, ITEMS, SIGNER, runPipeline } from '../../helpers/n8n';
import { startTamperingApi, type Tampering } from '../../helpers/tamperingApi';
import {
	devnetAccount,
	devnetCredentials,
	devnetExpandApi,
	devnetSignerKey,
} from '../../helpers/devnetCredentials';
import { sendSigned, solanaMessage, unsignedWire } from '../../helpers/solanaMessages';
import { sendTransactionNode } from '../../helpers/sendTransactionNode';
import { useDevnet } from '../../helpers/useDevnet';

const TREASURY_INDEX = 1;
const RECIPIENT = getAddress('0x' + 'a1'.repeat(20));
const router = new Interface([
	'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
]);

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const chain = () => devnet.chains[0];
const provider = () =>
	new JsonRpcProvider(chain().rpcUrl, Number(chain().chainId), { staticNetwork: true });
const evmWallet = (index: number): Wallet | HDNodeWallet =>
	devnetAccount(index).connect(provider());
const treasury = () => evmWallet(TREASURY_INDEX);
/** A hardhat account the treasury never pays: the thief. */
const outsider = () => evmWallet(8);

/** Expand (version 2) builds through `api`, then the Signer signs From Input Item with `key`; both outputs. */
async function expandThenSign(
	api: string,
	expand: INodeParameters,
	sign: INodeParameters,
	key: Record<string, ICredentialDataDecryptedObject>,
): Promise<{ built: IDataObject; signed: IDataObject }> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{}]) } },
			{ name: 'Build', type: EXPAND, typeVersion: 2, parameters: expand },
			{ name: 'Sign', type: SIGNER, parameters: sign, continueOnFail: true },
		],
		{
			expandApi: devnetExpandApi(devnet, { baseUrl: api }),
			...key,
		},
	);
	if (result.error) throw result.error;
	return { built: result.output('Build')[0].json, signed: result.output('Sign')[0].json };
}

/** The Signer alone on an item (as a Signer without the rule, or a workflow without an intent, saw it). */
async function signItem(
	item: IDataObject,
	sign: INodeParameters,
	key: Record<string, ICredentialDataDecryptedObject>,
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

/** The form item Expand binds its one intent to: the Build node's item 0 in the execution that built it. */
const builtFormItem = expect.objectContaining({
	node: 'Build',
	run: 0,
	item: 0,
	index: 0,
	count: 1,
});

const withoutIntent = ({ intent: _intent, ...item }: IDataObject): IDataObject => item;

async function withApi<T>(tampering: Tampering, run: (url: string) => Promise<T>): Promise<T> {
	const api = await startTamperingApi(devnet.baseUrl, tampering);
	try {
		return await run(api.url);
	} finally {
		await api.close();
	}
}

/** The form: 1 USDC from the treasury to RECIPIENT. */
const oneUsdcToRecipient = () => ({
	resource: 'fungibletoken',
	operation: 'transfer',
	chainId: chain().chainId,
	from: treasury().address,
	to: RECIPIENT,
	tokenAddress: chain().tokens.USDC.address,
	amount: '1',
	gas: '80000',
});

const SIGN_EVM = { operation: 'signTransaction', source: 'input', accountIndex: TREASURY_INDEX };

/** Signs the item without its intent under `policy` and sends it: what the theft did before the rule. */
async function signWithoutRuleAndSend(built: IDataObject, policy: IDataObject = {}): Promise<void> {
	const signed = await signItem(withoutIntent(built), SIGN_EVM, {
		expandSignerApi: devnetSignerKey(policy),
	});
	expect(signed.error).toBeUndefined();
	await (await provider().broadcastTransaction(signed.rawTransaction as string)).wait();
}

test('the form asks 1 USDC to R and the API builds 5,000 USDC to an outsider: the default credential refuses, naming recipient and amount; signed without the rule, the outsider takes the USDC', async () => {
	const usdc = chain().tokens.USDC.address;
	const { built, signed } = await withApi(
		{
			request: (path, body) =>
				path === '/fungibletoken/transfer'
					? { ...body, to: outsider().address, amount: '5000000000' }
					: undefined,
		},
		async (url) =>
			await expandThenSign(url, oneUsdcToRecipient(), SIGN_EVM, {
				expandSignerApi: devnetSignerKey(),
			}),
	);
	expect(built.intent).toEqual({
		operation: 'fungibletoken/transfer',
		effect: 'transfer',
		chainId: chain().chainId,
		sender: treasury().address,
		recipient: RECIPIENT,
		token: usdc,
		amount: '1000000',
		amountTyped: '1',
		decimals: 6,
		formItem: builtFormItem,
	});
	expect(signed.error).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked (fungibletoken/transfer): recipient: asked ${RECIPIENT}, the transaction pays ${outsider().address}; amount: asked 1000000 (smallest unit), the transaction moves 5000000000 (smallest unit); nothing was signed (item 0)`,
	);
	expect(signed.rawTransaction).toBeUndefined();

	// Without the rule: the same transaction signed and sent, and the outsider's key moves the USDC on.
	await signWithoutRuleAndSend(built);
	expect(await balanceOf(devnet, chain().chainId, outsider().address, usdc)).toBe(5_000_000_000n);
	const token = new Interface(['function transfer(address,uint256)']);
	const stash = '0x' + 'cd'.repeat(20);
	await (
		await outsider().sendTransaction({
			to: usdc,
			data: token.encodeFunctionData('transfer', [stash, 5_000_000_000n]),
		})
	).wait();
	expect(await balanceOf(devnet, chain().chainId, stash, usdc)).toBe(5_000_000_000n);
});

test('with USDC caps only, the API builds a DAI transfer to an outsider: refused naming token, recipient and amount; signed without the rule (no intent, Require Intent Never), the outsider is paid in DAI', async () => {
	const { USDC, DAI } = chain().tokens;
	const policy = {
		maxPerTransaction: `${USDC.address}:6 = 10`,
		maxPerExecution: `${USDC.address}:6 = 10`,
	};
	const { built, signed } = await withApi(
		{
			request: (path, body) =>
				path === '/fungibletoken/transfer'
					? {
							...body,
							tokenAddress: DAI.address,
							to: outsider().address,
							amount: parseUnits('1000', 18).toString(),
						}
					: undefined,
		},
		async (url) =>
			await expandThenSign(url, oneUsdcToRecipient(), SIGN_EVM, {
				expandSignerApi: devnetSignerKey(policy),
			}),
	);
	expect(signed.error).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked (fungibletoken/transfer): token: asked ${getAddress(USDC.address)}, the transaction moves ${getAddress(DAI.address)}; recipient: asked ${RECIPIENT}, the transaction pays ${outsider().address}; amount: asked 1000000 (smallest unit), the transaction moves 1000000000000000000000 (smallest unit); nothing was signed (item 0)`,
	);

	// The USDC caps alone never saw DAI: without the intent it is signed, and the outsider is paid.
	const daiBefore = await balanceOf(devnet, chain().chainId, outsider().address, DAI.address);
	await signWithoutRuleAndSend(built, { ...policy, requireIntent: 'never' });
	expect(
		(await balanceOf(devnet, chain().chainId, outsider().address, DAI.address)) - daiBefore,
	).toBe(parseUnits('1000', 18));
});

test('the API answers a 1 USDC transfer with 5 ETH of native value to an outsider: refused naming token, recipient and amount; signed without the rule, the outsider is paid the ETH', async () => {
	const { built, signed } = await withApi(
		{
			answer: (path, answer) =>
				path === '/fungibletoken/transfer'
					? {
							...answer,
							data: {
								...(answer.data as IDataObject),
								to: outsider().address,
								value: parseEther('5').toString(),
								data: '0x',
							},
						}
					: undefined,
		},
		async (url) =>
			await expandThenSign(url, oneUsdcToRecipient(), SIGN_EVM, {
				expandSignerApi: devnetSignerKey(),
			}),
	);
	expect(signed.error).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked (fungibletoken/transfer): token: asked ${getAddress(chain().tokens.USDC.address)}, the transaction moves the native asset; recipient: asked ${RECIPIENT}, the transaction pays ${outsider().address}; amount: asked 1000000 (smallest unit), the transaction moves 5000000000000000000 (smallest unit); nothing was signed (item 0)`,
	);

	const before = await balanceOf(devnet, chain().chainId, outsider().address, 'native');
	await signWithoutRuleAndSend(built);
	expect((await balanceOf(devnet, chain().chainId, outsider().address, 'native')) - before).toBe(
		parseEther('5'),
	);
});

test('a transaction without an intent is refused while a spending rule is set, and signed with Require Intent Never; one defined on the form is its own intent', async () => {
	const payment = { chainId: chain().chainId, to: RECIPIENT, value: '1000' };
	const policy = { maxPerTransaction: 'native = 1' };
	const refused = await signItem(payment, SIGN_EVM, { expandSignerApi: devnetSignerKey(policy) });
	expect(refused.error).toBe(
		'Refused by the rule "requireIntent": the transaction arrived without the intent an Expand write operation outputs beside it ("intent"), so what it does cannot be held to what was asked; sign what an Expand node built, give the item an intent, or set Require Intent to Never on the credential; nothing was signed (item 0)',
	);
	const never = await signItem(payment, SIGN_EVM, {
		expandSignerApi: devnetSignerKey({ ...policy, requireIntent: 'never' }),
	});
	expect(never.error).toBeUndefined();
	expect(never.to).toBe(RECIPIENT);

	// An intent a workflow writes itself binds the same way.
	const intent = {
		operation: 'payout',
		effect: 'transfer',
		recipient: RECIPIENT,
		token: 'native',
		amount: '999',
	};
	const differs = await signItem({ ...payment, intent }, SIGN_EVM, {
		expandSignerApi: devnetSignerKey(policy),
	});
	expect(differs.error).toBe(
		'Refused by the rule "intent": the transaction is not what the form asked (payout): amount: asked 999 (smallest unit), the transaction moves 1000 (smallest unit); nothing was signed (item 0)',
	);

	const defined = await signItem(
		{},
		{ ...SIGN_EVM, source: 'fields', to: RECIPIENT, chainId: chain().chainId, value: '1000' },
		{ expandSignerApi: devnetSignerKey({ ...policy, requireIntent: 'always' }) },
	);
	expect(defined.error).toBeUndefined();
});

test('a swap the Signer cannot read is refused under a spending rule unless its router is on Allowed Contracts and Programs, and signed once it is; with no spending rule it signs as saved workflows did', async () => {
	const { USDC, DAI } = chain().tokens;
	const deadline = 2n ** 40n;
	const swapForm = {
		resource: 'dex',
		operation: 'swap',
		dexId: devnet.dexId,
		from: treasury().address,
		path: `${USDC.address},${DAI.address}`,
		amountIn: '1000000',
		amountsIn: 'smallest',
		additionalFields: {
			amountOutMin: '0',
			to: treasury().address,
			deadline: deadline.toString(),
			gas: '300000',
		},
	};
	// The devnet builds no swaps: the API's answer is the router call it would build.
	const tampering: Tampering = {
		answer: (path, _answer, asked) =>
			path === '/dex/swap'
				? {
						status: 200,
						msg: 'success',
						data: {
							chainId: chain().chainId,
							from: asked.from,
							to: chain().uniswapV2.router,
							value: '0',
							gas: '300000',
							data: router.encodeFunctionData('swapExactTokensForTokens', [
								BigInt(asked.amountIn as string),
								0n,
								[USDC.address, DAI.address],
								asked.to,
								deadline,
							]),
						},
					}
				: undefined,
	};
	const refused = await withApi(
		tampering,
		async (url) =>
			await expandThenSign(url, swapForm, SIGN_EVM, {
				expandSignerApi: devnetSignerKey({ maxPerTransaction: 'native = 1' }),
			}),
	);
	expect(refused.built.intent).toEqual({
		operation: 'dex/swap',
		effect: 'call',
		chainId: null,
		sender: treasury().address,
		recipient: treasury().address,
		tokenIn: USDC.address,
		tokenOut: DAI.address,
		amountIn: '1000000',
		formItem: builtFormItem,
	});
	expect(refused.signed.error).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked (dex/swap): called contract: dex/swap is a call whose effect the signer cannot read from the transaction, so its contract (program) must be on Allowed Contracts and Programs, and ${getAddress(chain().uniswapV2.router)} is not; nothing was signed (item 0)`,
	);

	const listed = await withApi(
		tampering,
		async (url) =>
			await expandThenSign(url, swapForm, SIGN_EVM, {
				expandSignerApi: devnetSignerKey({ allowedContracts: chain().uniswapV2.router }),
			}),
	);
	expect(listed.signed.error).toBeUndefined();
	const unguarded = await withApi(
		tampering,
		async (url) =>
			await expandThenSign(url, swapForm, SIGN_EVM, { expandSignerApi: devnetSignerKey() }),
	);
	expect(unguarded.signed.error).toBeUndefined();
	const daiBefore = await balanceOf(devnet, chain().chainId, treasury().address, DAI.address);
	await (await provider().broadcastTransaction(listed.signed.rawTransaction as string)).wait();
	expect(await balanceOf(devnet, chain().chainId, treasury().address, DAI.address)).toBeGreaterThan(
		daiBefore,
	);
});

test("Solana: the form asks 1 USDC to R and the API builds 5,000 USDC to an outsider: refused naming recipient, amount and the outsider's new account; signed without the rule, the outsider takes the USDC", async () => {
	const solana = devnet.solana;
	const payer = solana.wallets[2];
	const recipient = solana.wallets[3].address;
	const thief = await createKeyPairSignerFromBytes(
		getBase58Encoder().encode(solana.wallets[4].secretKey),
	);
	const form = {
		resource: 'fungibletoken',
		operation: 'transfer',
		chainId: solana.chainId,
		token: solana.usdc.address,
		sender: payer.address,
		destination: recipient,
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
	const key = { expandSolanaKeyApi: { keyType: 'secretKey', secretKey: payer.secretKey } };
	const { built, signed } = await withApi(
		{
			request: (path, body) =>
				path === '/fungibletoken/transfer'
					? { ...body, destination: thief.address, amount: '5000000000' }
					: undefined,
		},
		async (url) => await expandThenSign(url, form, sign, key),
	);
	expect(built.intent).toEqual({
		operation: 'fungibletoken/transfer',
		effect: 'transfer',
		chainId: solana.chainId,
		sender: payer.address,
		recipient,
		token: solana.usdc.address,
		amount: '1000000',
		formItem: builtFormItem,
	});
	expect(signed.error).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked (fungibletoken/transfer): recipient: asked ${recipient}, the transaction pays ${thief.address}; amount: asked 1000000 (smallest unit), the transaction moves 5000000000 (smallest unit); what it does: the transaction also pays rent of the recipient's new token account for ${thief.address}, whom the form did not name; nothing was signed (item 0)`,
	);

	// Without the rule: signed and landed, then the outsider's key moves the USDC out of its new account.
	const unbound = await signItem(withoutIntent(built), sign, key);
	expect(unbound.error).toBeUndefined();
	solana.chain.send(getBase64Encoder().encode(unbound.rawTransaction as string) as Uint8Array);
	const mint = address(solana.usdc.address);
	const [thiefAccount] = await findAssociatedTokenPda({
		owner: thief.address,
		mint,
		tokenProgram: TOKEN_PROGRAM_ADDRESS,
	});
	const [stashAccount] = await findAssociatedTokenPda({
		owner: address(recipient),
		mint,
		tokenProgram: TOKEN_PROGRAM_ADDRESS,
	});
	const stashBefore = await solanaUsdcOf(recipient);
	expect(await solanaUsdcOf(thief.address)).toBe(5_000_000_000n);
	const message = solanaMessage(thief.address, solana.chain.latestBlockhash().blockhash, [
		getTransferInstruction({
			source: thiefAccount,
			destination: stashAccount,
			authority: thief,
			amount: 5_000_000_000n,
		}),
	]);
	await sendSigned(devnet, message);
	expect((await solanaUsdcOf(recipient)) - stashBefore).toBe(5_000_000_000n);
});

/** The USDC a Solana wallet holds, through the devnet's API. */
async function solanaUsdcOf(owner: string): Promise<bigint> {
	const reply = await fetch(
		`${devnet.baseUrl}/chain/getbalance?chainId=${devnet.solana.chainId}&address=${owner}&tokenAddress=${devnet.solana.usdc.address}`,
		{ headers: { 'x-api-key': devnet.apiKey } },
	);
	return BigInt(((await reply.json()) as { data: { balance: string } }).data.balance);
}

test('the honest path: a payout as version 1 of Expand builds it (Transfer → Signer → Send) signs and pays under a spending policy, its intent found on the transaction wherever the workflow puts it', async () => {
	const usdc = chain().tokens.USDC.address;
	const payee = getAddress('0x' + 'e7'.repeat(20));
	const policy = {
		allowedRecipients: payee,
		maxPerTransaction: `${usdc}:6 = 10`,
	};
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{}]) } },
			{
				name: 'Transfer',
				type: EXPAND,
				parameters: { ...oneUsdcToRecipient(), to: payee, amount: '2500000' },
			},
			{ name: 'Sign', type: SIGNER, parameters: SIGN_EVM },
			sendTransactionNode(),
		],
		devnetCredentials(devnet, { signer: devnetSignerKey(policy) }),
	);
	expect(result.error).toBeUndefined();
	const built = result.output('Transfer')[0].json;
	expect(built.intent).toMatchObject({ recipient: payee, token: usdc, amount: '2500000' });
	expect(await balanceOf(devnet, chain().chainId, payee, usdc)).toBe(2_500_000n);

	// Wrapped as the stablecoin payout run does ({ transaction: <Expand's output> }), the intent goes with it.
	const wrapped = { ...SIGN_EVM, transactionField: 'transaction' };
	const honest = await signItem({ transaction: built }, wrapped, {
		expandSignerApi: devnetSignerKey(policy),
	});
	expect(honest.error).toBeUndefined();
	const altered = {
		...built,
		data: new Interface(['function transfer(address,uint256)']).encodeFunctionData('transfer', [
			payee,
			9_000_000n,
		]),
	};
	const refused = await signItem({ transaction: altered }, wrapped, {
		expandSignerApi: devnetSignerKey(policy),
	});
	expect(refused.error).toBe(
		'Refused by the rule "intent": the transaction is not what the form asked (fungibletoken/transfer): amount: asked 2500000 (smallest unit), the transaction moves 9000000 (smallest unit); nothing was signed (item 0)',
	);
});

test('Solana: a transaction without an intent is refused while a spending rule is set, and signed with Require Intent Never', async () => {
	const solana = devnet.solana;
	const payer = solana.wallets[1];
	const built = await fetch(`${devnet.baseUrl}/fungibletoken/transfer`, {
		method: 'POST',
		headers: { 'x-api-key': devnet.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify({
			chainId: solana.chainId,
			token: solana.usdc.address,
			sender: payer.address,
			destination: solana.wallets[3].address,
			feePayer: payer.address,
			decimals: '6',
			amount: '1000000',
		}),
	});
	const { data } = (await built.json()) as { data: IDataObject };
	const sign = {
		chainFamily: 'solana',
		solanaChainId: solana.chainId,
		operation: 'signTransaction',
	};
	const policy = { maxPerTransaction: `${solana.usdc.address}:6 = 10` };
	const refused = await signItem(data, sign, {
		expandSolanaKeyApi: { keyType: 'secretKey', secretKey: payer.secretKey, ...policy },
	});
	expect(refused.error).toMatch(/^Refused by the rule "requireIntent": /);
	const never = await signItem(data, sign, {
		expandSolanaKeyApi: {
			keyType: 'secretKey',
			secretKey: payer.secretKey,
			...policy,
			requireIntent: 'never',
		},
	});
	expect(never.error).toBeUndefined();
	expect(never.rawTransaction).toBeDefined();
});

test("Solana: a transfer that also creates a token account for an outsider at the payer's expense is refused; signed without the rule, the outsider closes it and keeps the rent", async () => {
	const solana = devnet.solana;
	const payer = solana.wallets[0];
	const recipient = address(solana.wallets[3].address);
	const thief = await createKeyPairSignerFromBytes(
		getBase58Encoder().encode(solana.wallets[4].secretKey),
	);
	const mint = address(solana.usdc.address);
	const ata = async (owner: string) =>
		(
			await findAssociatedTokenPda({
				owner: address(owner),
				mint,
				tokenProgram: TOKEN_PROGRAM_ADDRESS,
			})
		)[0];
	const owner = createNoopSigner(address(payer.address));
	const thiefAccount = await ata(thief.address);
	const payerAccount = await ata(payer.address);
	const recipientAccount = await ata(recipient);
	const message = solanaMessage(owner.address, solana.chain.latestBlockhash().blockhash, [
		getCreateAssociatedTokenIdempotentInstruction({
			payer: owner,
			ata: thiefAccount,
			owner: thief.address,
			mint,
		}),
		getTransferCheckedInstruction({
			source: payerAccount,
			mint,
			destination: recipientAccount,
			authority: owner,
			amount: 1_000_000n,
			decimals: 6,
		}),
	]);
	const data = unsignedWire(message);
	const intent = {
		operation: 'fungibletoken/transfer',
		effect: 'transfer',
		chainId: solana.chainId,
		sender: payer.address,
		recipient,
		token: solana.usdc.address,
		amount: '1000000',
	};
	const sign = {
		chainFamily: 'solana',
		solanaChainId: solana.chainId,
		operation: 'signTransaction',
	};
	const key = { expandSolanaKeyApi: { keyType: 'secretKey', secretKey: payer.secretKey } };
	const refused = await signItem({ data, intent }, sign, key);
	expect(refused.error).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked (fungibletoken/transfer): what it does: the transaction also pays rent of the recipient's new token account for ${thief.address}, whom the form did not name; nothing was signed (item 0)`,
	);

	// Without the rule: signed and landed; the outsider closes the account and takes its rent.
	const unbound = await signItem({ data }, sign, key);
	expect(unbound.error).toBeUndefined();
	solana.chain.send(getBase64Encoder().encode(unbound.rawTransaction as string) as Uint8Array);
	const before = solana.chain.balance(thief.address);
	const close = solanaMessage(thief.address, solana.chain.latestBlockhash().blockhash, [
		getCloseAccountInstruction({
			account: thiefAccount,
			destination: thief.address,
			owner: thief,
		}),
	]);
	await sendSigned(devnet, close);
	// The rent of a token account (2,039,280 lamports), less the outsider's own 5,000-lamport fee.
	expect(solana.chain.balance(thief.address) - before).toBe(2_039_280n - 5_000n);
});
