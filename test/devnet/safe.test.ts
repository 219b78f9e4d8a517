/** The devnet's Safe 1.4.1 and its Safe Transaction Service stand-in, against the real chain. */
import { execFile } from 'child_process';
import * as path from 'path';
import { promisify } from 'util';

import {
	Contract,
	Interface,
	JsonRpcProvider,
	Wallet,
	ZeroAddress,
	concat,
	keccak256,
} from 'ethers';

import {
	getCompatibilityFallbackHandlerDeployments,
	getMultiSendCallOnlyDeployments,
	getMultiSendDeployments,
	getProxyFactoryDeployments,
	getSafeL2SingletonDeployments,
} from '@safe-global/safe-deployments';

import { type Devnet, startDevnet } from '../../devnet';
import { SAFE_INTERFACE, safeArtifact } from '../../devnet/safe/artifacts';
import { signDelegate } from '../../devnet/safe/service/delegates';
import {
	execTransactionArgs,
	type SafeTx,
	safeTxHash,
	signSafeTx,
	sortedSignatures,
} from '../../devnet/safe/safeTx';

let devnet: Devnet;
let safe: Devnet['safe'];
const ERC20 = new Interface([
	'function transfer(address to, uint256 value) returns (bool)',
	'function balanceOf(address owner) view returns (uint256)',
]);
const stranger = Wallet.createRandom();
const run = promisify(execFile);

beforeAll(async () => {
	devnet = await startDevnet();
	({ safe } = devnet);
});
afterAll(async () => {
	await devnet.stop();
});

async function service(path: string, init: { method?: string; body?: unknown; key?: string } = {}) {
	const response = await fetch(`${safe.serviceUrl}${path}`, {
		method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
		headers: {
			'content-type': 'application/json',
			...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
		},
		body: init.body === undefined ? undefined : JSON.stringify(init.body),
	});
	const text = await response.text();
	return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

const call = async (to: string, data: string, from?: string) =>
	devnet.rpc<string>(safe.chainId, 'eth_call', [{ to, data, ...(from ? { from } : {}) }, 'latest']);

async function usdcBalance(owner: string): Promise<bigint> {
	const usdc = devnet.chains[0].tokens.USDC.address;
	return BigInt(await call(usdc, ERC20.encodeFunctionData('balanceOf', [owner])));
}

async function nextNonce(): Promise<string> {
	return (await service(`/api/v1/safes/${safe.address}/`)).body.nonce;
}

/** A USDC payout from the Safe at its current on-chain nonce. */
async function usdcPayout(recipient: string, amount: bigint): Promise<SafeTx> {
	return {
		to: devnet.chains[0].tokens.USDC.address,
		value: '0',
		data: ERC20.encodeFunctionData('transfer', [recipient, amount]),
		operation: 0,
		safeTxGas: '0',
		baseGas: '0',
		gasPrice: '0',
		gasToken: ZeroAddress,
		refundReceiver: ZeroAddress,
		nonce: await nextNonce(),
	};
}

async function propose(
	tx: SafeTx,
	signerKey: string,
	sender: string,
	hash = safeTxHash(safe.chainId, safe.address, tx),
) {
	const signature = await signSafeTx(signerKey, safe.chainId, safe.address, tx);
	const answer = await service(`/api/v2/safes/${safe.address}/multisig-transactions/`, {
		body: { ...tx, contractTransactionHash: hash, sender, signature, origin: 'devnet test' },
	});
	return { ...answer, hash };
}

test('the deployed contracts are the official Safe 1.4.1: the ABIs and runtime code hashes Safe publishes for its canonical deployments', async () => {
	const release = { version: '1.4.1' };
	const expected = [
		['SafeL2', safe.contracts.singleton, getSafeL2SingletonDeployments(release)],
		['SafeProxyFactory', safe.contracts.proxyFactory, getProxyFactoryDeployments(release)],
		[
			'CompatibilityFallbackHandler',
			safe.contracts.fallbackHandler,
			getCompatibilityFallbackHandlerDeployments(release),
		],
		['MultiSend', safe.contracts.multiSend, getMultiSendDeployments(release)],
		[
			'MultiSendCallOnly',
			safe.contracts.multiSendCallOnly,
			getMultiSendCallOnlyDeployments(release),
		],
	] as const;
	for (const [name, address, deployment] of expected) {
		expect(deployment?.version).toBe('1.4.1');
		expect(safeArtifact(name).abi).toEqual(deployment?.abi);
		const { address: canonical, codeHash } = deployment?.deployments.canonical as {
			address: string;
			codeHash: string;
		};
		// MultiSend keeps its own address in its code (an immutable): compared as if deployed at the canonical one.
		const code = (await devnet.rpc<string>(safe.chainId, 'eth_getCode', [address, 'latest']))
			.split(address.slice(2).toLowerCase())
			.join(canonical.slice(2).toLowerCase());
		expect([name, keccak256(code)]).toEqual([name, codeHash]);
	}
});

test('the 2-of-3 Safe reads back from chain and service alike', async () => {
	const owners = SAFE_INTERFACE.decodeFunctionResult(
		'getOwners',
		await call(safe.address, SAFE_INTERFACE.encodeFunctionData('getOwners')),
	)[0];
	expect([...owners]).toEqual(safe.owners.map((owner) => owner.address));
	const threshold = await call(safe.address, SAFE_INTERFACE.encodeFunctionData('getThreshold'));
	expect(BigInt(threshold)).toBe(2n);
	expect(safe.owners.map((owner) => owner.address)).not.toContain(safe.delegate.address);
	expect(
		await devnet.rpc<string>(safe.chainId, 'eth_getBalance', [safe.delegate.address, 'latest']),
	).toBe('0x0');

	const info = await service(`/api/v1/safes/${safe.address}/`);
	expect(info).toMatchObject({
		status: 200,
		body: {
			address: safe.address,
			threshold: 2,
			owners: safe.owners.map((owner) => owner.address),
			masterCopy: safe.contracts.singleton,
			fallbackHandler: safe.contracts.fallbackHandler,
			modules: [],
			version: '1.4.1',
		},
	});
	expect((await service(`/api/v1/safes/${safe.address.toLowerCase()}/`)).body).toEqual({
		code: 1,
		message: 'Checksum address validation failed',
		arguments: [safe.address.toLowerCase()],
	});
	// A bad filter gets django-filter's 400, its key camelCased by the service's renderer (nonce__gte → nonce_Gte).
	expect(
		await service(`/api/v2/safes/${safe.address}/multisig-transactions/?nonce__gte=next`),
	).toEqual({ status: 400, body: { nonce_Gte: ['Enter a number.'] } });
	const delegates = await service(`/api/v2/delegates/?safe=${safe.address}`);
	expect(delegates.body.results).toEqual([
		expect.objectContaining({
			safe: safe.address,
			delegate: safe.delegate.address,
			delegator: safe.owners[0].address,
		}),
	]);
});

test('the delegate proposes; owners confirm and execute it with `npm run devnet -- safe-execute`; funds move exactly and the service reads the execution from chain', async () => {
	const recipient = devnet.chains[0].wallets[9].address;
	const amount = 1_234_567n;
	const tx = await usdcPayout(recipient, amount);
	const proposed = await propose(tx, safe.delegate.privateKey, safe.delegate.address);
	expect(proposed.status).toBe(201);

	const pending = await service(
		`/api/v2/safes/${safe.address}/multisig-transactions/?executed=false&nonce__gte=${tx.nonce}`,
	);
	expect(pending.body).toMatchObject({ count: 1, next: null, previous: null, countUniqueNonce: 1 });
	expect(pending.body.results[0]).toMatchObject({
		safeTxHash: proposed.hash,
		nonce: tx.nonce,
		proposer: safe.owners[0].address,
		proposedByDelegate: safe.delegate.address,
		// A delegate's signature is not a confirmation.
		confirmations: [],
		confirmationsRequired: 2,
		isExecuted: false,
		transactionHash: null,
	});

	const [safeBefore, recipientBefore] = [
		await usdcBalance(safe.address),
		await usdcBalance(recipient),
	];
	// The command a developer runs beside a running devnet, as a child process.
	const command = await run(path.join(__dirname, '../../node_modules/.bin/tsx'), [
		path.join(__dirname, '../../devnet/cli.ts'),
		'safe-execute',
		proposed.hash,
		'--devnet-url',
		devnet.baseUrl,
	]);
	const executed = JSON.parse(command.stdout);
	expect(executed).toMatchObject({
		success: true,
		confirmedBy: safe.owners.slice(0, 2).map((owner) => owner.address),
	});
	expect(await usdcBalance(safe.address)).toBe(safeBefore - amount);
	expect(await usdcBalance(recipient)).toBe(recipientBefore + amount);

	const receipt = await devnet.rpc<{ blockNumber: string }>(
		safe.chainId,
		'eth_getTransactionReceipt',
		[executed.transactionHash],
	);
	const detail = await service(`/api/v2/multisig-transactions/${proposed.hash}/`);
	expect(detail.body).toMatchObject({
		isExecuted: true,
		isSuccessful: true,
		transactionHash: executed.transactionHash,
		blockNumber: Number(BigInt(receipt.blockNumber)),
		executor: safe.owners[0].address,
		nonce: tx.nonce,
	});
	expect(detail.body.executionDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
	expect(
		detail.body.confirmations.map((confirmation: { owner: string }) => confirmation.owner),
	).toEqual(safe.owners.slice(0, 2).map((owner) => owner.address));
	expect(await nextNonce()).toBe(String(BigInt(tx.nonce) + 1n));
	expect(
		(await service(`/api/v2/safes/${safe.address}/multisig-transactions/?executed=false`)).body
			.count,
	).toBe(0);

	// The nonce is spent: the service refuses to queue it again, or anything else at it.
	const again = await propose(tx, safe.delegate.privateKey, safe.delegate.address);
	expect(again.status).toBe(422);
	expect(again.body.nonFieldErrors[0]).toBe(
		`Tx with safe-tx-hash=${proposed.hash} for safe=${safe.address} was already executed in tx-hash=${executed.transactionHash}`,
	);
	const replacement = await propose(
		{ ...tx, value: '0', data: '0x', to: recipient },
		safe.delegate.privateKey,
		safe.delegate.address,
	);
	expect(replacement.body.nonFieldErrors[0]).toBe(
		`Tx with nonce=${tx.nonce} for safe=${safe.address} already executed in tx-hash=${executed.transactionHash}`,
	);
	const nowhere = Wallet.createRandom().address;
	const noSafe = await service(`/api/v2/safes/${nowhere}/multisig-transactions/`, {
		body: {
			...tx,
			contractTransactionHash: safeTxHash(safe.chainId, nowhere, tx),
			sender: safe.delegate.address,
		},
	});
	expect(noSafe).toMatchObject({
		status: 422,
		body: {
			nonFieldErrors: [
				`Could not get Safe ${nowhere} owners from blockchain, check contract exists on network GOCHAIN_TESTNET`,
			],
		},
	});
});

test('a proposal by a key that is neither owner nor delegate, or with a hash that does not match, is refused with the service errors', async () => {
	const tx = await usdcPayout(devnet.chains[0].wallets[9].address, 1n);
	const owners = safe.owners.map((owner) => `'${owner.address}'`).join(', ');
	const byStranger = await propose(tx, stranger.privateKey, stranger.address);
	expect(byStranger).toMatchObject({
		status: 422,
		body: {
			nonFieldErrors: [
				`Sender=${stranger.address} is not an owner or delegate. Current owners=[${owners}]. Delegates={'${safe.delegate.address}'}`,
			],
		},
	});
	// Claiming to be the delegate does not help: the signature names its signer.
	const impostor = await propose(tx, stranger.privateKey, safe.delegate.address);
	expect(impostor.status).toBe(422);
	expect(impostor.body.nonFieldErrors[0]).toMatch(
		`Signer=${stranger.address} is not an owner or delegate`,
	);

	const otherHash = safeTxHash(safe.chainId, safe.address, { ...tx, value: '1' });
	const wrongHash = await propose(tx, safe.delegate.privateKey, safe.delegate.address, otherHash);
	expect(wrongHash).toMatchObject({
		status: 422,
		body: {
			nonFieldErrors: [
				`Contract-transaction-hash=${safeTxHash(safe.chainId, safe.address, tx)} does not match provided contract-tx-hash=${otherHash}`,
			],
		},
	});
	const unchecksummed = await service(`/api/v2/safes/${safe.address}/multisig-transactions/`, {
		body: {
			...tx,
			to: tx.to.toLowerCase(),
			contractTransactionHash: otherHash,
			sender: safe.delegate.address,
		},
	});
	expect(unchecksummed).toMatchObject({
		status: 422,
		body: { to: [`Address ${tx.to.toLowerCase()} is not checksumed`] },
	});
	const listed = await service(
		`/api/v2/safes/${safe.address}/multisig-transactions/?nonce=${tx.nonce}`,
	);
	expect(listed.body.count).toBe(0);

	const proposed = await propose(tx, safe.delegate.privateKey, safe.delegate.address);
	const signature = await signSafeTx(stranger.privateKey, safe.chainId, safe.address, tx);
	const confirmation = await service(
		`/api/v1/multisig-transactions/${proposed.hash}/confirmations/`,
		{ body: { signature } },
	);
	expect(confirmation).toMatchObject({
		status: 400,
		body: { signature: [`Signer=${stranger.address} is not an owner. Current owners=[${owners}]`] },
	});
	const forged = await service('/api/v2/delegates/', {
		body: {
			safe: safe.address,
			delegate: stranger.address,
			delegator: safe.owners[1].address,
			signature: await signDelegate(stranger.privateKey, stranger.address, safe.chainId),
			label: 'forged',
		},
	});
	expect(forged).toMatchObject({
		status: 400,
		body: {
			nonFieldErrors: [`Signature does not match provided delegator=${safe.owners[1].address}`],
		},
	});
});

test('the delegate cannot move funds alone: execTransaction with its signature reverts (GS020 alone, GS026 beside an owner)', async () => {
	const tx = await usdcPayout(safe.delegate.address, 1_000_000n);
	const exec = (signatures: string) =>
		SAFE_INTERFACE.encodeFunctionData('execTransaction', execTransactionArgs(tx, signatures));
	const delegateSignature = await signSafeTx(
		safe.delegate.privateKey,
		safe.chainId,
		safe.address,
		tx,
	);
	const ownerSignature = await signSafeTx(
		safe.owners[0].privateKey,
		safe.chainId,
		safe.address,
		tx,
	);
	const sorted = [
		{ owner: safe.delegate.address, signature: delegateSignature },
		{ owner: safe.owners[0].address, signature: ownerSignature },
	].sort((a, b) => (BigInt(a.owner) < BigInt(b.owner) ? -1 : 1));
	await expect(call(safe.address, exec(delegateSignature), safe.delegate.address)).rejects.toThrow(
		/GS020/,
	);
	await expect(
		call(safe.address, exec(concat(sorted.map((entry) => entry.signature))), safe.delegate.address),
	).rejects.toThrow(/GS026/);
	expect(await usdcBalance(safe.delegate.address)).toBe(0n);
});

test("an owner's proposal counts as its first confirmation; a transaction executed on chain without the service shows executed all the same", async () => {
	const [first, second, third] = safe.owners;
	const recipient = devnet.chains[0].wallets[8].address;
	const tx = await usdcPayout(recipient, 5_000_000n);
	const proposed = await propose(tx, third.privateKey, third.address);
	expect(proposed.status).toBe(201);
	const detail = await service(`/api/v1/multisig-transactions/${proposed.hash}/`);
	expect(detail.body).toMatchObject({
		nonce: Number(tx.nonce),
		proposer: third.address,
		proposedByDelegate: null,
		confirmations: [{ owner: third.address, signatureType: 'EOA', transactionHash: null }],
	});
	// One more owner is enough.
	expect(await safe.confirmAndExecute(proposed.hash, { owners: [first, second] })).toMatchObject({
		success: true,
		confirmedBy: [first.address],
	});

	// Two owners sign and one of them sends execTransaction itself: the service never hears of it.
	const direct = await usdcPayout(recipient, 7n);
	const hash = safeTxHash(safe.chainId, safe.address, direct);
	const signatures = sortedSignatures(
		await Promise.all(
			[second, third].map(async (owner) => ({
				owner: owner.address,
				signature: await signSafeTx(owner.privateKey, safe.chainId, safe.address, direct),
			})),
		),
	);
	const provider = new JsonRpcProvider(devnet.chains[0].rpcUrl, Number(safe.chainId), {
		staticNetwork: true,
	});
	try {
		const contract = new Contract(
			safe.address,
			SAFE_INTERFACE,
			new Wallet(second.privateKey, provider),
		);
		const receipt = await (
			await contract.execTransaction(...execTransactionArgs(direct, signatures))
		).wait();
		const executed = await service(`/api/v2/multisig-transactions/${hash}/`);
		expect(executed.body).toMatchObject({
			safeTxHash: hash,
			isExecuted: true,
			isSuccessful: true,
			transactionHash: receipt.hash,
			blockNumber: receipt.blockNumber,
			executor: second.address,
			proposer: null,
			nonce: direct.nonce,
			signatures,
		});
		expect(
			executed.body.confirmations.map((entry: { owner: string }) => entry.owner).sort(),
		).toEqual([second.address, third.address].sort());
		const history = await service(
			`/api/v2/safes/${safe.address}/multisig-transactions/?executed=true&ordering=-nonce&limit=1`,
		);
		expect(history.body.results[0].safeTxHash).toBe(hash);
		expect(history.body.next).toContain('offset=1');
	} finally {
		provider.destroy();
	}
});

test('an owner registers a second delegate (EIP-712 Delegate signature), who may then propose until it is removed', async () => {
	const [, owner] = safe.owners;
	const delegate = Wallet.createRandom();
	const added = await service('/api/v2/delegates/', {
		body: {
			safe: safe.address,
			delegate: delegate.address,
			delegator: owner.address,
			signature: await signDelegate(owner.privateKey, delegate.address, safe.chainId),
			label: 'n8n proposer',
		},
	});
	expect(added).toMatchObject({
		status: 201,
		body: {
			safe: safe.address,
			delegate: delegate.address,
			delegator: owner.address,
			label: 'n8n proposer',
			expiryDate: null,
		},
	});
	const tx = await usdcPayout(devnet.chains[0].wallets[9].address, 3n);
	expect((await propose(tx, delegate.privateKey, delegate.address)).status).toBe(201);

	const removed = await service(`/api/v2/delegates/${delegate.address}/`, {
		method: 'DELETE',
		body: {
			safe: safe.address,
			delegator: owner.address,
			signature: await signDelegate(delegate.privateKey, delegate.address, safe.chainId),
		},
	});
	expect(removed.status).toBe(204);
	const refused = await propose(
		{ ...tx, value: '1', to: delegate.address, data: '0x' },
		delegate.privateKey,
		delegate.address,
	);
	expect(refused.status).toBe(422);
	expect(refused.body.nonFieldErrors[0]).toMatch(
		`Sender=${delegate.address} is not an owner or delegate`,
	);
});

test("the gateway's faults reach the stand-in: a proposal answered 503 after it was processed is stored all the same", async () => {
	const tx = await usdcPayout(devnet.chains[0].wallets[9].address, 11n);
	const path = new URL(`${safe.serviceUrl}/api/v2/safes/${safe.address}/multisig-transactions`)
		.pathname;
	devnet.faults.failNext(path.toLowerCase(), 'serverError');
	const proposed = await propose(tx, safe.delegate.privateKey, safe.delegate.address);
	expect(proposed.status).toBe(503);
	const stored = await service(`/api/v2/multisig-transactions/${proposed.hash}/`);
	expect(stored.body).toMatchObject({
		safeTxHash: proposed.hash,
		proposedByDelegate: safe.delegate.address,
	});
	// Posting it again is harmless: the service keeps one transaction per hash.
	expect((await propose(tx, safe.delegate.privateKey, safe.delegate.address)).status).toBe(201);
	const listed = await service(
		`/api/v2/safes/${safe.address}/multisig-transactions/?nonce=${tx.nonce}`,
	);
	expect(
		listed.body.results.filter(
			(entry: { safeTxHash: string }) => entry.safeTxHash === proposed.hash,
		),
	).toHaveLength(1);
});

test('executed state is read from the chain: after the chain is reverted to before the execution, the proposal is pending again', async () => {
	const tx = await usdcPayout(devnet.chains[0].wallets[9].address, 31n);
	const proposed = await propose(tx, safe.delegate.privateKey, safe.delegate.address);
	const snapshot = await devnet.snapshot(safe.chainId);
	const executed = await safe.confirmAndExecute(proposed.hash);
	expect((await service(`/api/v2/multisig-transactions/${proposed.hash}/`)).body).toMatchObject({
		isExecuted: true,
		transactionHash: executed.transactionHash,
	});
	await devnet.revert(safe.chainId, snapshot);
	const reverted = await service(`/api/v2/multisig-transactions/${proposed.hash}/`);
	expect(reverted.body).toMatchObject({
		isExecuted: false,
		transactionHash: null,
		blockNumber: null,
		nonce: tx.nonce,
	});
	// The owners' confirmations were posted to the service, not to the chain: they remain.
	expect(reverted.body.confirmations).toHaveLength(2);
	expect(await nextNonce()).toBe(tx.nonce);
});

test('lists page with limit and offset, capped by the page limit the test sets', async () => {
	const tx = await usdcPayout(devnet.chains[0].wallets[9].address, 21n);
	for (const value of ['1', '2'])
		await propose(
			{ ...tx, value, to: safe.delegate.address, data: '0x' },
			safe.delegate.privateKey,
			safe.delegate.address,
		);
	const query = `/api/v2/safes/${safe.address}/multisig-transactions/?executed=false&nonce=${tx.nonce}&limit=5`;
	safe.service.pageLimits.max = 1;
	try {
		const first = await service(query);
		expect(first.body.results).toHaveLength(1);
		expect(first.body.count).toBeGreaterThanOrEqual(2);
		const next = new URL(first.body.next);
		expect([next.searchParams.get('limit'), next.searchParams.get('offset')]).toEqual(['1', '1']);
		const second = await service(
			`${next.pathname.slice(new URL(safe.serviceUrl).pathname.length)}${next.search}`,
		);
		expect(second.body.results[0].safeTxHash).not.toBe(first.body.results[0].safeTxHash);
		expect(second.body.previous).not.toBeNull();
	} finally {
		safe.service.pageLimits.max = 200;
	}
});

test('with a Safe API key configured the stand-in answers 401 without it; above the rate limit 429', async () => {
	safe.apiKeys.add('safe-key-1');
	try {
		expect((await service(`/api/v1/safes/${safe.address}/`)).status).toBe(401);
		expect((await service(`/api/v1/safes/${safe.address}/`, { key: 'wrong' })).status).toBe(401);
		expect((await service(`/api/v1/safes/${safe.address}/`, { key: 'safe-key-1' })).status).toBe(
			200,
		);
		safe.rateLimit.perSecond = 2;
		const statuses = [];
		for (let index = 0; index < 3; index++)
			statuses.push((await service(`/api/v1/about/`, { key: 'safe-key-1' })).status);
		expect(statuses).toEqual([200, 200, 429]);
	} finally {
		safe.apiKeys.delete('safe-key-1');
		safe.rateLimit.perSecond = undefined;
	}
});
