/**
 * Propose to Safe and Get Safe Proposal against the devnet's 2-of-3 Safe and its Safe Transaction
 * Service stand-in (devnet/safe), through n8n-core's engine: Expand builds the Safe's USDC transfer,
 * the Signer proposes it with the delegate key (not an owner, no funds) under the policy, the devnet's
 * owners confirm and execute it. The n8n key is then shown unable to move anything by itself.
 */
import { mkdtempSync, rmSync } from 'fs';
import { createServer } from 'http';
import type { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';

import { Contract, getAddress, Interface, JsonRpcProvider, Wallet } from 'ethers';
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { SAFE_INTERFACE } from '../../../../devnet/safe/artifacts';
import {
	SAFE_TX_TYPES,
	safeTxHash as devnetSafeTxHash,
	signSafeTx,
} from '../../../../devnet/safe/safeTx';
import { balanceOf } from '../../../helpers/chainReads';
import { EXPAND, ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { startTamperingApi } from '../../../helpers/tamperingApi';
import {
	devnetAccount,
	devnetCredentials,
	devnetSignerKey,
} from '../../../helpers/devnetCredentials';
import { proposeNode } from '../../../helpers/safeProposals';
import { useDevnet } from '../../../helpers/useDevnet';

/** The delegate's index on the devnet mnemonic (devnet/safe/deploy.ts SAFE_DELEGATE_INDEX). */
const DELEGATE_INDEX = 20;
/** A funded devnet wallet that is neither owner (5, 6, 7) nor delegate of the Safe. */
const STRANGER_INDEX = 3;
const RECIPIENT = getAddress('0x' + 'a5'.repeat(20));
const OTHER = getAddress('0x' + 'a6'.repeat(20));
const OUTSIDER = getAddress('0x' + 'b7'.repeat(20));
/** Paid only by the execution test, with no policy on the credential. */
const THIRD = getAddress('0x' + 'a7'.repeat(20));

const ledger = mkdtempSync(join(tmpdir(), 'safe-propose-'));
// n8n lets nodes write only below this folder.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledger;

let devnet: Devnet;
useDevnet((started) => (devnet = started));
afterAll(() => {
	rmSync(ledger, { recursive: true, force: true });
});

const chain = () => devnet.chains.find((entry) => entry.chainId === '31337')!;
const usdc = () => chain().tokens.USDC.address;
const provider = () => new JsonRpcProvider(chain().rpcUrl, 31337, { staticNetwork: true });
const address = (index: number) => devnetAccount(index).address;

const signingKey = (policy: IDataObject = {}): ICredentialDataDecryptedObject =>
	devnetSignerKey({
		passphrase: '',
		payoutLedgerFolder: ledger,
		// The chain's node pinned: the decimals of amounts typed in whole units are checked there.
		rpcUrls: `31337 = ${chain().rpcUrl}`,
		...policy,
	});

/** Every proposal the stand-in holds for the Safe. */
async function storedProposals(): Promise<IDataObject[]> {
	const response = await fetch(
		`${devnet.safe.serviceUrl}/api/v1/safes/${devnet.safe.address}/multisig-transactions/?limit=100`,
	);
	return ((await response.json()) as { results: IDataObject[] }).results;
}

const transfer = (to: string, amount: string, from = devnet.safe.address): INodeParameters => ({
	resource: 'fungibletoken',
	operation: 'transfer',
	chainId: '31337',
	from,
	to,
	tokenAddress: usdc(),
	amount,
	gas: '80000',
});

/** Expand (version 2) builds each item's USDC transfer from the Safe; the Signer proposes it. */
async function buildAndPropose(
	items: IDataObject[],
	options: { policy?: IDataObject; sign?: INodeParameters; api?: string; service?: string } = {},
): Promise<IDataObject[]> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{
				name: 'Build',
				type: EXPAND,
				typeVersion: 2,
				parameters: transfer('={{ $json.to }}', '={{ $json.amount }}'),
			},
			proposeNode(devnet, {
				payoutId: "={{ $('Items').item.json.payoutId ?? '' }}",
				...options.sign,
			}),
		],
		devnetCredentials(devnet, {
			expand: { baseUrl: options.api ?? devnet.baseUrl },
			signer: signingKey(options.policy),
			safe: { serviceUrl: options.service ?? devnet.safe.serviceUrl },
		}),
	);
	if (result.error) throw result.error;
	return result.output('Propose').map((item) => item.json);
}

/** The Signer alone on hand-made items (Define Below, or an item without an Expand intent). */
async function propose(
	items: IDataObject[],
	sign: INodeParameters,
	policy: IDataObject = {},
): Promise<IDataObject[]> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			proposeNode(devnet, sign),
		],
		devnetCredentials(devnet, { signer: signingKey(policy), safe: true }),
	);
	if (result.error) throw result.error;
	return result.output('Propose').map((item) => item.json);
}

async function getProposal(safeTxHash: string, parameters: INodeParameters = {}) {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{}]) } },
			{
				name: 'Get',
				type: SIGNER,
				parameters: { operation: 'getSafeProposal', safeTxHash, chainId: '31337', ...parameters },
				continueOnFail: true,
			},
		],
		{
			// An execution is believed from the chain: the credential's pinned node.
			expandSignerApi: signingKey({ rpcUrls: `31337 = ${chain().rpcUrl}` }),
			expandSafeApi: { serviceUrl: devnet.safe.serviceUrl, apiKey: '', maxRequestsPerSecond: 5 },
		},
	);
	if (result.error) throw result.error;
	return result.output('Get')[0].json;
}

const safeNonce = async () =>
	BigInt(await new Contract(devnet.safe.address, SAFE_INTERFACE, provider()).nonce.staticCall());

const policy = () => ({
	allowedRecipients: [RECIPIENT, OTHER].join(', '),
	allowedContracts: usdc(),
	maxPerTransaction: `${usdc()}:6@31337 = 500`,
});

test('the delegate proposes two payouts: accepted by the service, read back, consecutive nonces, nothing moved', async () => {
	const before = await balanceOf(devnet, '31337', devnet.safe.address, usdc());
	const nonce = await safeNonce();
	const queued = (await storedProposals()).filter((entry) => !entry.isExecuted).length;
	const proposed = await buildAndPropose(
		[
			{ to: RECIPIENT, amount: '250', payoutId: 'safe-inv-1' },
			{ to: OTHER, amount: '1.5', payoutId: 'safe-inv-2' },
		],
		{ policy: policy() },
	);
	const [first] = proposed;
	expect(proposed.map((item) => item.error)).toEqual([undefined, undefined]);
	expect(first).toMatchObject({
		safe: devnet.safe.address,
		nonce: (nonce + BigInt(queued)).toString(),
		proposer: devnet.safe.delegate.address,
		confirmations: 0,
		threshold: 2,
		executed: false,
		executionTransactionHash: null,
		chainId: '31337',
		to: usdc(),
		value: '0',
		operation: 'call',
		safeWalletUrl: null,
		payoutId: 'safe-inv-1',
		repeat: false,
		movements: [
			{
				action: 'transfer',
				asset: usdc().toLowerCase(),
				recipient: RECIPIENT.toLowerCase(),
				amount: '250',
				amountRaw: '250000000',
				decimals: 6,
			},
		],
	});
	expect((first.intent as IDataObject).sender).toBe(devnet.safe.address);
	expect(proposed[1]).toMatchObject({
		nonce: (nonce + BigInt(queued) + 1n).toString(),
		repeat: false,
	});
	// The hash is the devnet's own EIP-712 computation of what the service stores.
	const stored = await storedProposals();
	const mine = stored.find((entry) => entry.safeTxHash === first.safeTxHash) as IDataObject;
	expect(
		devnetSafeTxHash('31337', devnet.safe.address, {
			to: String(mine.to),
			value: String(mine.value),
			data: String(mine.data),
			operation: Number(mine.operation),
			safeTxGas: String(mine.safeTxGas),
			baseGas: String(mine.baseGas),
			gasPrice: String(mine.gasPrice),
			gasToken: String(mine.gasToken),
			refundReceiver: String(mine.refundReceiver),
			nonce: String(mine.nonce),
		}),
	).toBe(first.safeTxHash);
	expect(mine).toMatchObject({ proposedByDelegate: devnet.safe.delegate.address, operation: 0 });
	expect(await balanceOf(devnet, '31337', devnet.safe.address, usdc())).toBe(before);
	expect(await safeNonce()).toBe(nonce);
});

test('a rerun with the same payout ID returns the same safeTxHash, repeat true, and posts nothing new', async () => {
	const item = { to: RECIPIENT, amount: '3', payoutId: 'safe-rerun' };
	const [made] = await buildAndPropose([item], { policy: policy() });
	expect(made).toMatchObject({ repeat: false, alreadyPosted: false });
	const count = (await storedProposals()).length;
	const [again] = await buildAndPropose([item], { policy: policy() });
	expect(again).toMatchObject({
		safeTxHash: made.safeTxHash,
		nonce: made.nonce,
		repeat: true,
		alreadyPosted: true,
	});
	expect((await storedProposals()).length).toBe(count);
	// The same payout ID for another amount is refused.
	// The same payout ID for another amount is refused, naming the proposal as the Safe knows it: a
	// safeTxHash and the Safe's nonce (a safeTxHash is no transaction hash any explorer finds).
	const [other] = await buildAndPropose([{ ...item, amount: '4' }], { policy: policy() });
	expect(other.error).toMatch(
		new RegExp(
			`^Refused by the rule "payoutId": payout ID "safe-rerun" was already proposed on \\S+ as safeTxHash ${made.safeTxHash} \\(Safe nonce ${made.nonce}\\) for other content \\(recipient, value or data\\); a payout ID is never signed for new content; nothing was signed \\(item 0\\)$`,
		),
	);
	expect(other.error).not.toContain('signed as');
	expect((await storedProposals()).length).toBe(count);
});

test('without a Safe API credential: the policy refuses first; otherwise Propose to Safe and Get Safe Proposal fail naming the operation, nothing posted', async () => {
	const count = (await storedProposals()).length;
	const result = await runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: {
					items: JSON.stringify([
						{ to: RECIPIENT, amount: '600' },
						{ to: RECIPIENT, amount: '1' },
					]),
				},
			},
			{
				name: 'Build',
				type: EXPAND,
				typeVersion: 2,
				parameters: transfer('={{ $json.to }}', '={{ $json.amount }}'),
			},
			proposeNode(devnet),
		],
		devnetCredentials(devnet, { signer: signingKey(policy()) }),
	);
	if (result.error) throw result.error;
	const [over, within] = result.output('Propose').map((item) => item.json);
	expect(over.error).toBe(
		`Refused by the rule "maxPerTransaction": transfer of 600 (600000000 in the smallest unit) of token ${usdc()} is above the limit of 500 per transaction; nothing was signed (item 0)`,
	);
	expect(within.error).toBe(
		"Propose to Safe needs a Safe API credential (the Safe Transaction Service's URL): select one on the node; nothing was sent to the Safe service (item 1)",
	);
	expect((await storedProposals()).length).toBe(count);
	const get = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{}]) } },
			{
				name: 'Get',
				type: SIGNER,
				parameters: {
					operation: 'getSafeProposal',
					chainId: '31337',
					safeTxHash: `0x${'11'.repeat(32)}`,
				},
				continueOnFail: true,
			},
		],
		devnetCredentials(devnet, { signer: signingKey() }),
	);
	if (get.error) throw get.error;
	expect(get.output('Get')[0].json.error).toBe(
		"Get Safe Proposal needs a Safe API credential (the Safe Transaction Service's URL): select one on the node; nothing was sent to the Safe service (item 0)",
	);
});

test('a proposal recorded but never received by the service (it failed) is posted by the rerun, with the same hash', async () => {
	// A service front that answers every proposal 503 and passes reads on.
	const front = createServer((incoming, outgoing) => {
		void (async () => {
			if (incoming.method === 'POST') {
				for await (const _ of incoming);
				outgoing.writeHead(503, { 'content-type': 'application/json' });
				outgoing.end(JSON.stringify({ detail: 'Service unavailable' }));
				return;
			}
			const answer = await fetch(`${devnet.safe.serviceUrl}${incoming.url}`);
			outgoing.writeHead(answer.status, { 'content-type': 'application/json' });
			outgoing.end(await answer.text());
		})();
	});
	await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
	const item = { to: OTHER, amount: '2', payoutId: 'safe-lost-post' };
	try {
		const [failed] = await buildAndPropose([item], {
			policy: policy(),
			service: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
		});
		expect(failed.error).toBe('Service unavailable (gave up after 3 tries) (item 0)');
	} finally {
		front.closeAllConnections();
		await new Promise((resolve) => front.close(resolve));
	}
	const [rerun] = await buildAndPropose([item], { policy: policy() });
	expect(rerun).toMatchObject({ repeat: true, alreadyPosted: false, executed: false });
	const stored = await storedProposals();
	expect(stored.filter((entry) => entry.safeTxHash === rerun.safeTxHash)).toHaveLength(1);
	const [third] = await buildAndPropose([item], { policy: policy() });
	expect(third).toMatchObject({ safeTxHash: rerun.safeTxHash, repeat: true, alreadyPosted: true });
});

test('outside the policy, or not what the form asked: refused naming item, rule and value, nothing posted', async () => {
	const count = (await storedProposals()).length;
	const refused = await buildAndPropose(
		[
			{ to: RECIPIENT, amount: '600' },
			{ to: OUTSIDER, amount: '1' },
		],
		{ policy: policy() },
	);
	expect(refused[0].error).toBe(
		`Refused by the rule "maxPerTransaction": transfer of 600 (600000000 in the smallest unit) of token ${usdc()} is above the limit of 500 per transaction; nothing was signed (item 0)`,
	);
	expect(refused[1].error).toBe(
		`Refused by the rule "allowedRecipients": the recipient ${OUTSIDER} (transfer of token ${usdc()}) is not on the allowed list; nothing was signed (item 1)`,
	);
	// A hostile API builds the transfer to an outsider: the intent binding refuses it.
	const api = await startTamperingApi(devnet.baseUrl, {
		request: (path, body) =>
			path === '/fungibletoken/transfer' ? { ...body, to: OUTSIDER } : undefined,
	});
	try {
		const [lied] = await buildAndPropose([{ to: RECIPIENT, amount: '1' }], { api: api.url });
		expect(lied.error).toBe(
			`Refused by the rule "intent": the transaction is not what the form asked (fungibletoken/transfer): recipient: asked ${RECIPIENT}, the transaction pays ${OUTSIDER}; nothing was signed (item 0)`,
		);
	} finally {
		await api.close();
	}
	expect((await storedProposals()).length).toBe(count);
});

test('DELEGATECALL is refused; a transaction from another sender than the Safe is refused', async () => {
	const count = (await storedProposals()).length;
	const refused = await propose(
		[
			{ chainId: '31337', to: RECIPIENT, value: '1', operation: 1 },
			{ chainId: '31337', from: address(1), to: RECIPIENT, value: '1' },
		],
		{ source: 'input' },
		{ requireIntent: 'never' },
	);
	expect(refused[0].error).toBe(
		'Refused by the rule "operation": the transaction asks for Safe operation 1; only a CALL (0) is proposed, never a DELEGATECALL (1), which would run another contract\'s code as the Safe; nothing was signed (item 0)',
	);
	expect(refused[1].error).toBe(
		`Refused by the rule "safeAddress": the transaction is from ${address(1)}, not from the Safe ${devnet.safe.address}; nothing was signed (item 1)`,
	);
	expect((await storedProposals()).length).toBe(count);
});

test("a key that is neither owner nor delegate: the service refuses it and its words reach the item's error", async () => {
	const count = (await storedProposals()).length;
	const [refused] = await propose(
		[{}],
		{ source: 'fields', to: RECIPIENT, chainId: '31337', value: '5', accountIndex: STRANGER_INDEX },
		{ requireIntent: 'never' },
	);
	expect(refused.error).toMatch(
		new RegExp(
			`^Sender=${address(STRANGER_INDEX)} is not an owner or delegate\\. .* \\(item 0\\)$`,
		),
	);
	expect(refused.httpCode).toBe('422');
	expect((await storedProposals()).length).toBe(count);
});

test('after the owners confirm and execute, Get Safe Proposal shows the execution and Wait for Execution returns', async () => {
	const [proposal] = await buildAndPropose([{ to: THIRD, amount: '7' }]);
	expect(proposal.error).toBeUndefined();
	const hash = String(proposal.safeTxHash);
	// Proposals queued before it (other tests') are executed first: a Safe executes its nonces in order.
	const earlier = (await storedProposals())
		.filter(
			(entry) => !entry.isExecuted && BigInt(String(entry.nonce)) < BigInt(String(proposal.nonce)),
		)
		.sort((a, b) => Number(BigInt(String(a.nonce)) - BigInt(String(b.nonce))));
	for (const entry of earlier) await devnet.safe.confirmAndExecute(String(entry.safeTxHash));
	const before = await balanceOf(devnet, '31337', THIRD, usdc());
	const waiting = getProposal(hash, { waitForExecution: true, timeoutSeconds: 60 });
	await new Promise((resolve) => setTimeout(resolve, 1000));
	const executed = await devnet.safe.confirmAndExecute(hash);
	const waited = await waiting;
	expect(waited).toMatchObject({
		safeTxHash: hash,
		executed: true,
		successful: true,
		executionTransactionHash: executed.transactionHash,
		executionBlock: executed.blockNumber,
		confirmations: 2,
		threshold: 2,
		timedOut: false,
	});
	expect(await getProposal(hash)).toMatchObject({
		executed: true,
		executionTransactionHash: executed.transactionHash,
	});
	expect((await balanceOf(devnet, '31337', THIRD, usdc())) - before).toBe(7_000_000n);
});

test('the n8n key cannot move the funds by itself: its signature alone does not execute, and it holds nothing', async () => {
	const delegate = new Wallet(devnet.safe.delegate.privateKey);
	expect(delegate.address).toBe(address(DELEGATE_INDEX));
	expect(await provider().getBalance(delegate.address)).toBe(0n);
	expect(await balanceOf(devnet, '31337', delegate.address, usdc())).toBe(0n);
	const nonce = await safeNonce();
	const tx = {
		to: usdc(),
		value: '0',
		data: new Interface(['function transfer(address,uint256)']).encodeFunctionData('transfer', [
			OUTSIDER,
			1_000_000n,
		]),
		operation: 0,
		safeTxGas: '0',
		baseGas: '0',
		gasPrice: '0',
		gasToken: '0x0000000000000000000000000000000000000000',
		refundReceiver: '0x0000000000000000000000000000000000000000',
		nonce: nonce.toString(),
	};
	const signature = await signSafeTx(delegate.privateKey, '31337', devnet.safe.address, tx);
	// Sent by a funded wallet, as the delegate has no gas: the Safe refuses the delegate's signature.
	const sender = new Wallet(devnet.safe.owners[0].privateKey, provider());
	const safe = new Contract(devnet.safe.address, SAFE_INTERFACE, sender);
	const args = [
		tx.to,
		tx.value,
		tx.data,
		tx.operation,
		tx.safeTxGas,
		tx.baseGas,
		tx.gasPrice,
		tx.gasToken,
		tx.refundReceiver,
	];
	await expect(safe.execTransaction.staticCall(...args, signature)).rejects.toThrow(/GS0(20|26)/);
	expect(await balanceOf(devnet, '31337', OUTSIDER, usdc())).toBe(0n);
	expect(await safeNonce()).toBe(nonce);
});

test('the SafeTx of a proposal, as typed data or its hash as a message, is refused under the policy: the Safe signature comes only from Propose to Safe', async () => {
	const [proposal] = await buildAndPropose([{ to: RECIPIENT, amount: '1' }], { policy: policy() });
	expect(proposal.error).toBeUndefined();
	const typedData = JSON.stringify({
		domain: { chainId: 31337, verifyingContract: devnet.safe.address },
		types: SAFE_TX_TYPES,
		message: {
			to: proposal.to,
			value: '0',
			data: proposal.data,
			operation: 0,
			safeTxGas: '0',
			baseGas: '0',
			gasPrice: '0',
			gasToken: '0x0000000000000000000000000000000000000000',
			refundReceiver: '0x0000000000000000000000000000000000000000',
			nonce: proposal.nonce,
		},
	});
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{}]) } },
			{
				name: 'Typed',
				type: SIGNER,
				parameters: { operation: 'signTypedData', typedData, accountIndex: DELEGATE_INDEX },
				continueOnFail: true,
			},
			{
				name: 'Hash',
				type: SIGNER,
				parameters: {
					operation: 'signMessage',
					message: String(proposal.safeTxHash),
					messageIsHex: true,
					accountIndex: DELEGATE_INDEX,
				},
				continueOnFail: true,
			},
		],
		{ expandSignerApi: signingKey(policy()) },
	);
	expect(result.output('Typed')[0].json.error).toMatch(/^Refused by the rule "allowAnyMessage"/);
	expect(result.output('Typed')[0].json.signature).toBeUndefined();
	expect(result.output('Hash')[0].json.error).toMatch(
		/^Refused by the rule "allowAnyMessage": a 32-byte message is a hash/,
	);
	expect(result.output('Hash')[0].json.signature).toBeUndefined();
});
