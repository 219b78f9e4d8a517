/**
 * An SPL Token transfer whose authority is a multisig the Signer's key is one of: the key's signature
 * is what authorizes it, yet the Signer read only transfers whose authority is the key itself and
 * passed the others by, neither counted nor refused. Here the treasury's key is a 1-of-2 signer of a
 * multisig that owns a USDC account (a shared operations wallet); the API answers a form for 1 USDC
 * to R with that transfer plus one from the multisig's account to the outsider. Refused under the
 * intent and a 10 USDC cap; signed without the rule, the outsider takes the multisig's USDC.
 */
import { getCreateAccountInstruction } from '@solana-program/system';
import {
	TOKEN_PROGRAM_ADDRESS,
	findAssociatedTokenPda,
	getCreateAssociatedTokenIdempotentInstruction,
	getInitializeMultisig2Instruction,
	getTransferInstruction,
} from '@solana-program/token';
import {
	type Address,
	type Instruction,
	type KeyPairSigner,
	address,
	compileTransaction,
	createKeyPairSignerFromBytes,
	createNoopSigner,
	generateKeyPairSigner,
	getBase58Encoder,
	getBase64EncodedWireTransaction,
	getBase64Encoder,
} from '@solana/kit';

import type { Devnet } from '../../../../devnet';
import {
	readWireTransaction,
	signSolanaTransaction,
	solanaKeyring,
} from '../../../../packages/signer/nodes/ExpandSigner/families/solana';
import { rentExemption } from '../../../../packages/signer/nodes/ExpandSigner/families/solana/effect';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { sendSigned, solanaMessage } from '../../../helpers/solanaMessages';
import { useDevnet } from '../../../helpers/useDevnet';

const TREASURY = 2;
const MULTISIG_SIZE = 355;

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const keyOf = async (index: number): Promise<KeyPairSigner> =>
	await createKeyPairSignerFromBytes(
		getBase58Encoder().encode(devnet.solana.wallets[index].secretKey),
	);
const usdcMint = () => address(devnet.solana.usdc.address);
const ataOf = async (owner: Address) =>
	(
		await findAssociatedTokenPda({ owner, mint: usdcMint(), tokenProgram: TOKEN_PROGRAM_ADDRESS })
	)[0];

async function usdcOf(owner: string): Promise<bigint> {
	const reply = await fetch(
		`${devnet.baseUrl}/chain/getbalance?chainId=901&address=${owner}&tokenAddress=${devnet.solana.usdc.address}`,
		{ headers: { 'x-api-key': devnet.apiKey } },
	);
	return BigInt(((await reply.json()) as { data: { balance: string } }).data.balance);
}

function message(feePayer: Address, instructions: Instruction[]) {
	return solanaMessage(feePayer, devnet.solana.chain.latestBlockhash().blockhash, instructions);
}

async function signAndSend(feePayer: Address, instructions: Instruction[]): Promise<void> {
	await sendSigned(devnet, message(feePayer, instructions));
}

test("Solana: a transfer from a multisig-owned account the treasury key co-signs, beside the 1 USDC asked, is refused; signed without the rule, the outsider takes the multisig's USDC", async () => {
	const treasury = await keyOf(TREASURY);
	const outsider = await keyOf(4);
	const recipient = address(devnet.solana.wallets[3].address);
	const multisig = await generateKeyPairSigner();
	const multisigAccount = await ataOf(multisig.address);
	const outsiderAccount = await ataOf(outsider.address);

	// The shared wallet: a 1-of-2 multisig (the treasury key and another) owning 500 USDC.
	await signAndSend(treasury.address, [
		getCreateAccountInstruction({
			payer: treasury,
			newAccount: multisig,
			lamports: rentExemption(MULTISIG_SIZE),
			space: MULTISIG_SIZE,
			programAddress: TOKEN_PROGRAM_ADDRESS,
		}),
		getInitializeMultisig2Instruction({
			multisig: multisig.address,
			m: 1,
			signers: [treasury.address, (await generateKeyPairSigner()).address],
		}),
		getCreateAssociatedTokenIdempotentInstruction({
			payer: treasury,
			owner: multisig.address,
			mint: usdcMint(),
			ata: multisigAccount,
		}),
		getTransferInstruction({
			source: await ataOf(treasury.address),
			destination: multisigAccount,
			authority: treasury,
			amount: 500_000_000n,
		}),
	]);
	await signAndSend(outsider.address, [
		getCreateAssociatedTokenIdempotentInstruction({
			payer: outsider,
			owner: outsider.address,
			mint: usdcMint(),
			ata: outsiderAccount,
		}),
	]);
	expect(await usdcOf(multisig.address)).toBe(500_000_000n);

	const data = getBase64EncodedWireTransaction(
		compileTransaction(
			message(treasury.address, [
				getTransferInstruction({
					source: await ataOf(treasury.address),
					destination: await ataOf(recipient),
					authority: createNoopSigner(treasury.address),
					amount: 1_000_000n,
				}),
				getTransferInstruction({
					source: multisigAccount,
					destination: outsiderAccount,
					authority: multisig.address,
					multiSigners: [createNoopSigner(treasury.address)],
					amount: 500_000_000n,
				}),
			]),
		),
	);
	const intent = {
		operation: 'fungibletoken/transfer',
		effect: 'transfer',
		chainId: '901',
		sender: treasury.address,
		recipient,
		token: devnet.solana.usdc.address,
		amount: '1000000',
	};
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{ data, intent }]) } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: { chainFamily: 'solana', solanaChainId: '901', operation: 'signTransaction' },
				continueOnFail: true,
			},
		],
		devnetCredentials(devnet, {
			solana: {
				keyType: 'secretKey',
				secretKey: devnet.solana.wallets[TREASURY].secretKey,
				maxPerTransaction: `${devnet.solana.usdc.address}:6 = 10`,
			},
		}),
	);
	const [signed] = result.output('Sign');
	expect(signed.json.rawTransaction).toBeUndefined();
	expect(signed.json.error).toBe(
		`Refused by the rule "intent": the transaction is not what the form asked (fungibletoken/transfer): what it does: asked a transfer, the transaction also calls an SPL Token transfer under multisig authority ${multisig.address}, which the signer co-signs (program ${TOKEN_PROGRAM_ADDRESS}); nothing was signed (item 0)`,
	);

	// Without the rule: the treasury's signature alone authorizes the multisig's transfer.
	const account = solanaKeyring({
		keyType: 'secretKey',
		secretKey: devnet.solana.wallets[TREASURY].secretKey,
	}).account(0);
	const direct = await signSolanaTransaction(account, readWireTransaction(data, 'base64')!, '901');
	devnet.solana.chain.send(getBase64Encoder().encode(direct.rawTransaction) as Uint8Array);
	expect(await usdcOf(outsider.address)).toBe(500_000_000n);
	expect(await usdcOf(multisig.address)).toBe(0n);
});
