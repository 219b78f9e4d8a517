/**
 * Thefts through Expand Signer's Solana policy, tried on the devnet's chain 901 (issue: rules that hold
 * when the API, an input or a workflow lies). Each test builds the transaction an attacker would hand
 * the Signer, runs it through the Signer in n8n's engine, and expects the refusal; then it signs the
 * same bytes with the treasury's key directly, as a Signer without the rule did, and lets the
 * outsider's own key carry the theft out on the chain: the refusal is what stands between them.
 */
import { getTransferSolInstruction } from '@solana-program/system';
import {
	AuthorityType,
	TOKEN_PROGRAM_ADDRESS,
	findAssociatedTokenPda,
	getCreateAssociatedTokenIdempotentInstruction,
	getSetAuthorityInstruction,
	getTransferInstruction,
} from '@solana-program/token';
import {
	type Blockhash,
	type Instruction,
	type KeyPairSigner,
	address,
	createKeyPairSignerFromBytes,
	createNoopSigner,
	getBase58Encoder,
	getBase64Encoder,
} from '@solana/kit';

import type { Devnet } from '../../../devnet';
import {
	readWireTransaction,
	signSolanaTransaction,
	solanaKeyring,
} from '../../../packages/signer/nodes/ExpandSigner/families/solana';
import { ITEMS, SIGNER, runPipeline } from '../../helpers/n8n';
import { devnetCredentials } from '../../helpers/devnetCredentials';
import { sendSigned, solanaMessage, unsignedWire } from '../../helpers/solanaMessages';
import { useDevnet } from '../../helpers/useDevnet';

/** The Memo program, which a treasury allows so that payments can carry an invoice reference. */
const MEMO_PROGRAM = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

let devnet: Devnet;
useDevnet((started) => (devnet = started));

/** The paying wallet of the current test (each test sets its own: a theft leaves a wallet emptied). */
let treasuryIndex = 0;
const treasury = () => devnet.solana.wallets[treasuryIndex];
const outsiderSigner = async (): Promise<KeyPairSigner> =>
	await createKeyPairSignerFromBytes(getBase58Encoder().encode(devnet.solana.wallets[4].secretKey));

async function usdcOf(owner: string): Promise<bigint> {
	const reply = await fetch(
		`${devnet.baseUrl}/chain/getbalance?chainId=901&address=${owner}&tokenAddress=${devnet.solana.usdc.address}`,
		{ headers: { 'x-api-key': devnet.apiKey } },
	);
	return BigInt(((await reply.json()) as { data: { balance: string } }).data.balance);
}

/** The unsigned wire transaction (base64) the attacker hands the Signer: fee payer the treasury. */
function unsigned(instructions: Instruction[]): string {
	const blockhash = devnet.solana.chain.latestBlockhash().blockhash as Blockhash;
	const message = solanaMessage(address(treasury().address), blockhash, instructions);
	return unsignedWire(message);
}

/** Expand Signer, Sign Transaction on 901, with the treasury's key and this policy. */
async function signThroughSigner(
	data: string,
	policy: Record<string, string>,
): Promise<string | undefined> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{ data }]) } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: { chainFamily: 'solana', solanaChainId: '901', operation: 'signTransaction' },
				continueOnFail: true,
			},
		],
		devnetCredentials(devnet, {
			solana: { keyType: 'secretKey', secretKey: treasury().secretKey, ...policy },
		}),
	);
	const [item] = result.output('Sign');
	return item.json.error as string | undefined;
}

/** What a Signer without the rule did: the treasury's signature on the same bytes, landed on the chain. */
async function signDirectlyAndSend(data: string): Promise<void> {
	const account = solanaKeyring({ keyType: 'secretKey', secretKey: treasury().secretKey }).account(
		0,
	);
	const signed = await signSolanaTransaction(account, readWireTransaction(data, 'base64')!, '901');
	devnet.solana.chain.send(getBase64Encoder().encode(signed.rawTransaction) as Uint8Array);
}

/** The outsider signs and sends a transaction of its own. */
async function outsiderSends(outsider: KeyPairSigner, instructions: Instruction[]): Promise<void> {
	const blockhash = devnet.solana.chain.latestBlockhash().blockhash;
	await sendSigned(devnet, solanaMessage(outsider.address, blockhash, instructions));
}

/**
 * The treasury's USDC account handed to the outsider by a SetAuthority (after `before`, if any): the
 * Signer under `policy` must refuse it with `refusal`; signed directly, the outsider takes the USDC.
 */
async function handOverTried(
	before: Instruction[],
	policy: Record<string, string>,
	refusal: string,
): Promise<void> {
	const outsider = await outsiderSigner();
	const owner = address(treasury().address);
	const usdc = address(devnet.solana.usdc.address);
	const [treasuryAccount] = await findAssociatedTokenPda({
		owner,
		mint: usdc,
		tokenProgram: TOKEN_PROGRAM_ADDRESS,
	});
	const handOver = getSetAuthorityInstruction({
		owned: treasuryAccount,
		owner: createNoopSigner(owner),
		authorityType: AuthorityType.AccountOwner,
		newAuthority: outsider.address,
	});
	const data = unsigned([...before, handOver]);
	expect(await signThroughSigner(data, policy)).toBe(refusal);
	const held = await usdcOf(owner);
	expect(held).toBeGreaterThan(0n);

	// The theft, as it went without the rule.
	const outsiderBefore = await usdcOf(outsider.address);
	await signDirectlyAndSend(data);
	const [outsiderAccount] = await findAssociatedTokenPda({
		owner: outsider.address,
		mint: usdc,
		tokenProgram: TOKEN_PROGRAM_ADDRESS,
	});
	await outsiderSends(outsider, [
		getCreateAssociatedTokenIdempotentInstruction({
			payer: outsider,
			owner: outsider.address,
			mint: usdc,
			ata: outsiderAccount,
		}),
		getTransferInstruction({
			source: treasuryAccount,
			destination: outsiderAccount,
			authority: outsider,
			amount: held,
		}),
	]);
	expect((await usdcOf(outsider.address)) - outsiderBefore).toBe(held);
	expect(await usdcOf(owner)).toBe(0n);
}

test('the Memo program allowed, a Memo then a SetAuthority of the treasury USDC account: refused naming the second instruction; signed without the rule, the outsider takes the account and its USDC', async () => {
	treasuryIndex = 0;
	const memo: Instruction = {
		programAddress: MEMO_PROGRAM,
		accounts: [],
		data: new TextEncoder().encode('invoice 2026-11-042'),
	};
	await handOverTried(
		[memo],
		{
			allowedChainIds: '901',
			allowedRecipients: `${MEMO_PROGRAM}\n${devnet.solana.wallets[1].address}`,
			maxPerTransaction: `${devnet.solana.usdc.address}:6 = 1`,
		},
		`Refused by the rule "allowedRecipients": the transaction holds SPL Token SetAuthority (program ${TOKEN_PROGRAM_ADDRESS}), which the signer cannot read as a transfer, and the program is not on the allowed list; nothing was signed (item 0)`,
	);
});

test('a 1 USDC cap and no allowlist: a SetAuthority of the treasury USDC account is refused as an instruction the Signer cannot read; signed without the rule, the outsider takes the USDC', async () => {
	treasuryIndex = 2;
	await handOverTried(
		[],
		{ maxPerTransaction: `${devnet.solana.usdc.address}:6 = 1` },
		`Refused by the rule "allowedContracts": the transaction holds SPL Token SetAuthority (program ${TOKEN_PROGRAM_ADDRESS}), which the signer cannot read as a transfer, and the program is not on Allowed Contracts and Programs; nothing was signed (item 0)`,
	);
});

test('five 0.9 SOL transfers in one transaction under limits of 1 SOL per transaction and per execution: refused for their sum; signed without the rule, 4.5 SOL leave', async () => {
	treasuryIndex = 1;
	const outsider = await outsiderSigner();
	const from = createNoopSigner(address(treasury().address));
	const data = unsigned(
		Array.from({ length: 5 }, () =>
			getTransferSolInstruction({
				source: from,
				destination: outsider.address,
				amount: 900_000_000n,
			}),
		),
	);
	expect(
		await signThroughSigner(data, {
			maxPerTransaction: 'native = 1',
			maxPerExecution: 'native = 1',
		}),
	).toBe(
		'Refused by the rule "maxPerTransaction": 5 transfers (System transfer, System transfer, System transfer, System transfer, System transfer) of 4.5 (4500000000 in the smallest unit) of the native asset are above the limit of 1 per transaction; nothing was signed (item 0)',
	);

	const before = devnet.solana.chain.balance(outsider.address);
	await signDirectlyAndSend(data);
	expect(devnet.solana.chain.balance(outsider.address) - before).toBe(4_500_000_000n);
});
