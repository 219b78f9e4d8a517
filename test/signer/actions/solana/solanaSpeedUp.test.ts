/**
 * Speed Up Payout on Solana, on the devnet (litesvm chain 901, where a blockhash is valid for 150
 * blocks and the test mines the blocks): a payout that expired unsent is signed again under its
 * payout ID with a new blockhash and a higher priority fee, lands, and a rerun returns it as landed;
 * the original can no longer land, so the recipient is paid once. While the original can still land
 * the speed-up is refused: a new blockhash makes a second transaction, and the two both land (shown
 * with what a Signer without the rule signs). The node that says "expired" is the one pinned in the
 * credential: a lying node trusted there pays twice, one the API names is never asked. The policy's
 * fee cap applies to the replacement.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { getTransferSolInstruction } from '@solana-program/system';
import {
	type Instruction,
	address,
	compileTransaction,
	createNoopSigner,
	decompileTransactionMessage,
	getBase64EncodedWireTransaction,
	getBase64Encoder,
	getCompiledTransactionMessageDecoder,
	getTransactionDecoder,
} from '@solana/kit';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { startLyingFront } from '../../../helpers/lyingFront';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { solanaMessage } from '../../../helpers/solanaMessages';
import { useDevnet } from '../../../helpers/useDevnet';

const CHAIN = '901';
const folder = mkdtempSync(join(tmpdir(), 'expand-solana-speed-up-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = folder;

let devnet: Devnet;
useDevnet((started) => (devnet = started));

/** Past every blockhash the test signed with: valid for 150 blocks, refused by the finalized height after. */
const expireBlockhashes = () => devnet.mine(CHAIN, 152);

async function signer(parameters: IDataObject, credential: IDataObject = {}): Promise<IDataObject> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: { chainFamily: 'solana', solanaChainId: CHAIN, ...parameters } as never,
				continueOnFail: true,
			},
		],
		devnetCredentials(devnet, {
			solana: {
				keyType: 'secretKey',
				secretKey: devnet.solana.wallets[1].secretKey,
				payoutLedgerFolder: folder,
				...credential,
			},
		}),
	);
	expect(result.error).toBeUndefined();
	return result.output('Sign')[0].json;
}

const pinned = () => ({ rpcUrls: `${CHAIN} = ${devnet.solana.rpcUrl}` });
const pay = (payoutId: string, recipient: string, amount: string, computeUnitPrice = '1') =>
	signer({ operation: 'transferSol', payoutId, recipient, amount, computeUnitPrice });
const speedUp = (payoutId: string, credential: IDataObject = pinned(), computeUnitPrice = '') =>
	signer({ operation: 'speedUpPayout', payoutId, computeUnitPrice }, credential);
const send = (signed: IDataObject) =>
	devnet.solana.chain.sendBase64(String(signed.rawTransaction)).signature;
const balance = (recipient: string) => devnet.solana.chain.balance(address(recipient));
/** A signed transaction's instructions as the chain reads them, and its blockhash. */
function message(signed: IDataObject) {
	const transaction = getTransactionDecoder().decode(
		getBase64Encoder().encode(String(signed.rawTransaction)),
	);
	const read = decompileTransactionMessage(
		getCompiledTransactionMessageDecoder().decode(transaction.messageBytes),
	);
	return {
		feePayer: read.feePayer.address,
		blockhash: (read.lifetimeConstraint as { blockhash: string }).blockhash,
		instructions: (read.instructions as readonly Instruction[]).map((instruction) => ({
			program: instruction.programAddress,
			accounts: instruction.accounts?.map((account) => [account.address, account.role]),
			data: Buffer.from(instruction.data ?? []).toString('hex'),
		})),
	};
}

test('a payout that expired unsent is re-signed under its payout ID and paid once; the rerun returns it as landed', async () => {
	const recipient = devnet.solana.wallets[2].address;
	const before = balance(recipient);
	const original = await pay('sol-stuck-1', recipient, '4242');
	expect(original).toMatchObject({ repeat: false, lastValidBlockHeight: expect.any(String) });
	await expireBlockhashes();
	const [expired] = [await pay('sol-stuck-1', recipient, '4242')];
	expect(expired.error).toMatch(
		/^Refused by the rule "payoutId": payout ID "sol-stuck-1" was signed on .* as \w+, which is not on the chain while its blockhash has expired, as the chain's JSON-RPC node the API names says \(RPC URLs pins none for chain 901\); it is not signed again\. A node that lies can hide a landed transaction: pin the chain's node in the credential's RPC URLs, then Speed Up Payout signs it again under the same payout ID only if it can no longer land; never pay it under a new payout ID on this refusal; nothing was signed \(item 0\)$/,
	);
	// The node pinned: what it says is believed, and nothing was paid by the expired payout.
	const pinnedRerun = await signer(
		{
			operation: 'transferSol',
			payoutId: 'sol-stuck-1',
			recipient,
			amount: '4242',
			computeUnitPrice: '1',
		},
		pinned(),
	);
	expect(pinnedRerun.error).toMatch(
		/^Refused by the rule "payoutId": payout ID "sol-stuck-1" was signed on .* as \w+, which is not on the chain while its blockhash has expired; it can never land and is not signed again\. Nothing was paid by it: if it is still due, Speed Up Payout signs it again under the same payout ID; nothing was signed \(item 0\)$/,
	);

	const replacement = await speedUp('sol-stuck-1');
	expect(replacement.error).toBeUndefined();
	expect(replacement).toMatchObject({
		payoutId: 'sol-stuck-1',
		repeat: false,
		replaces: original.transactionHash,
		replacements: 1,
		computeUnitPrice: '10000',
	});
	// The same fee payer and instructions but for the priority fee; a new blockhash.
	const [a, b] = [message(original), message(replacement)];
	expect(b.feePayer).toBe(a.feePayer);
	expect(b.blockhash).not.toBe(a.blockhash);
	const price = (data: string) => data.startsWith('03');
	expect(b.instructions.filter((i) => !price(i.data))).toEqual(
		a.instructions.filter((i) => !price(i.data)),
	);
	expect(b.instructions.find((i) => price(i.data))?.data).toBe('031027000000000000');

	send(replacement);
	expect(() => send(original)).toThrow('Blockhash not found');
	const rerun = await pay('sol-stuck-1', recipient, '4242');
	expect(rerun).toMatchObject({
		repeat: true,
		alreadySent: true,
		chainStatus: 'landed',
		transactionHash: replacement.transactionHash,
		rawTransaction: replacement.rawTransaction,
		replacements: 1,
	});
	expect(balance(recipient) - before).toBe(4242n);
	const again = await speedUp('sol-stuck-1');
	expect(again.error).toBe(
		`Refused by the rule "payoutId": payout ID "sol-stuck-1" has landed as ${String(replacement.transactionHash)}; there is nothing to speed up; nothing was signed (item 0)`,
	);
}, 60_000);

test('a speed-up while the original can still land is refused; without the rule the original and a re-signed copy both land: two payments', async () => {
	const recipient = devnet.solana.wallets[3].address;
	const before = balance(recipient);
	const original = await pay('sol-stuck-2', recipient, '777');
	const refused = await speedUp('sol-stuck-2');
	expect(refused.error).toBe(
		`Refused by the rule "payoutId": payout ID "sol-stuck-2" was signed as ${String(original.transactionHash)}, which is not on the chain but can still land: its blockhash is valid up to block height ${String(original.lastValidBlockHeight)}, and the finalized block height is ${devnet.solana.chain.slot}. A new blockhash would make a second transaction and both could land; speed it up once it has expired; nothing was signed (item 0)`,
	);
	expect(refused.rawTransaction).toBeUndefined();

	// Without the rule: a block later, the same transfer signed again with a new blockhash and a higher fee, as a speed-up would.
	await devnet.mine(CHAIN);
	const copy = await signer({
		operation: 'transferSol',
		recipient,
		amount: '777',
		computeUnitPrice: '10000',
	});
	expect(message(copy).blockhash).not.toBe(message(original).blockhash);
	send(copy);
	send(original);
	expect(balance(recipient) - before).toBe(1554n);
}, 60_000);

test('expiry is asked of the node pinned in the credential only: without one it is refused; a lying node trusted there pays twice', async () => {
	const recipient = devnet.solana.wallets[4].address;
	const before = balance(recipient);
	const original = await pay('sol-stuck-3', recipient, '555');
	const unpinned = await speedUp('sol-stuck-3', {});
	expect(unpinned.error).toBe(
		`Refused by the rule "rpcUrls": speeding up payout ID "sol-stuck-3" needs the chain's JSON-RPC node pinned in the credential's RPC URLs ("901 = https://…"): a new blockhash makes a second transaction, signed only when the first provably can no longer land, and a node the API names could call a pending transaction expired; nothing was signed (item 0)`,
	);

	// A node that says every blockhash expired, far past every height, and knows no signature.
	const liar = await startLyingFront(devnet.solana.rpcUrl, (_path, body) => {
		const { id, method } = body as { id: unknown; method: string };
		const context = { slot: devnet.solana.chain.slot };
		if (method === 'isBlockhashValid')
			return { jsonrpc: '2.0', id, result: { context, value: false } };
		if (method === 'getBlockHeight') return { jsonrpc: '2.0', id, result: 10 ** 9 };
		return undefined;
	});
	try {
		const fooled = await speedUp('sol-stuck-3', { rpcUrls: `${CHAIN} = ${liar.url}` });
		expect(fooled).toMatchObject({ replaces: original.transactionHash, repeat: false });
		send(fooled);
		send(original);
		expect(balance(recipient) - before).toBe(1110n);
	} finally {
		await liar.close();
	}
}, 60_000);

test('the policy applies to the replacement: a priority fee past Max Total Fee is refused; a fee not above the previous one is refused', async () => {
	const recipient = devnet.solana.wallets[0].address;
	await pay('sol-stuck-4', recipient, '1000', '5000');
	await expireBlockhashes();
	const capped = await speedUp('sol-stuck-4', { ...pinned(), maxTotalFee: '0.0001' }, '1000000000');
	expect(capped.error).toMatch(
		/^Refused by the rule "maxTotalFee": the fee can reach .* above the limit of 0\.0001; nothing was signed \(item 0\)$/,
	);
	const notHigher = await speedUp('sol-stuck-4', pinned(), '5000');
	expect(notHigher.error).toBe(
		`The parameter "computeUnitPrice" (5000 micro-lamports) must be above the previous signature's 5000 (item 0)`,
	);
	const automatic = await speedUp('sol-stuck-4', { ...pinned(), maxTotalFee: '0.0001' });
	expect([automatic.error, automatic.computeUnitPrice]).toEqual([undefined, '10000']);
	const none = await speedUp('never-signed');
	expect(none.error).toMatch(/^No payout was signed under the payout ID "never-signed"/);
}, 60_000);

test('a transaction the API built (no last valid block height known to the Signer): its blockhash decides; re-signed once it expired, paid once', async () => {
	const from = address(devnet.solana.wallets[1].address);
	const recipient = devnet.solana.wallets[3].address;
	const before = balance(recipient);
	const { blockhash, lastValidBlockHeight } = devnet.solana.chain.latestBlockhash();
	const wire = getBase64EncodedWireTransaction(
		compileTransaction(
			solanaMessage(
				from,
				blockhash,
				[
					getTransferSolInstruction({
						source: createNoopSigner(from),
						destination: address(recipient),
						amount: 3131n,
					}),
				],
				BigInt(lastValidBlockHeight),
			),
		),
	);
	const sign = () =>
		signer({ operation: 'signTransaction', serializedTransaction: wire, payoutId: 'sol-api-1' });
	const original = await sign();
	expect([original.error, original.lastValidBlockHeight]).toEqual([undefined, undefined]);
	const early = await speedUp('sol-api-1');
	expect(early.error).toBe(
		`Refused by the rule "payoutId": payout ID "sol-api-1" was signed as ${String(original.transactionHash)}, which is not on the chain but can still land: the chain still takes its blockhash ${blockhash}. A new blockhash would make a second transaction and both could land; speed it up once it has expired; nothing was signed (item 0)`,
	);
	await expireBlockhashes();
	const replacement = await speedUp('sol-api-1');
	expect(replacement).toMatchObject({
		replaces: original.transactionHash,
		computeUnitPrice: '10000',
	});
	// The priority fee is appended; the transfer is the one the API built.
	expect(message(replacement).instructions.slice(0, 1)).toEqual(message(original).instructions);
	send(replacement);
	expect(() => send(original)).toThrow('Blockhash not found');
	expect(await sign()).toMatchObject({
		repeat: true,
		chainStatus: 'landed',
		transactionHash: replacement.transactionHash,
	});
	expect(balance(recipient) - before).toBe(3131n);
}, 60_000);
