/** The spending policy on Solana transactions read by the Solana family, against the devnet's chain 901. */
import { TOKEN_PROGRAM_ADDRESS, getCloseAccountInstruction } from '@solana-program/token';
import { address, compileTransaction, createNoopSigner } from '@solana/kit';

import { type Devnet, startDevnet } from '../../../devnet';
import {
	SOLANA_POLICY_FORMAT,
	type SolanaRpc,
	latestLifetime,
	prepareSolanaTransaction,
	rpcChainReader,
	solanaKeyring,
	transferSolTransaction,
	transferTokenTransaction,
} from '../../../packages/signer/nodes/ExpandSigner/families/solana';
import { checkEffect } from '../../../packages/signer/nodes/ExpandSigner/policy/check';
import { MemoryCounter } from '../../../packages/signer/nodes/ExpandSigner/ledger/spending';
import {
	CredentialFieldError,
	describePolicy,
	readPolicy,
} from '../../../packages/signer/nodes/ExpandSigner/policy/policy';
import { call } from '../../devnet/client';
import { solanaMessage } from '../../helpers/solanaMessages';

let devnet: Devnet;
let rpc: SolanaRpc;
const account = () =>
	solanaKeyring({ keyType: 'mnemonic', mnemonic: devnet.solana.mnemonic }).account(0);

beforeAll(async () => {
	devnet = await startDevnet();
	rpc = async <T>(method: string, params: unknown[]) =>
		(
			await call(devnet.solana.rpcUrl, undefined, {
				method: 'POST',
				body: { jsonrpc: '2.0', id: 1, method, params },
			})
		).body.result as T;
});
afterAll(async () => {
	await devnet.stop();
});

function policy(fields: Record<string, string>) {
	return readPolicy(fields, SOLANA_POLICY_FORMAT, undefined);
}

async function usdcTransfer(recipient: string, amount: bigint) {
	const { transaction } = await transferTokenTransaction({
		owner: account().address,
		mint: devnet.solana.usdc.address,
		recipient,
		amount,
		decimals: 6,
		createAccount: true,
		lifetime: await latestLifetime(rpc),
	});
	return (await prepareSolanaTransaction(transaction, '901', account(), rpcChainReader(rpc)))
		.effect;
}

test('the policy fields read Solana addresses and mints; a 0x address is refused naming the field', () => {
	const usdc = devnet.solana.usdc.address;
	const read = policy({
		allowedChainIds: '901',
		allowedRecipients: devnet.solana.wallets[1].address,
		maxPerTransaction: `native = 2\n${usdc}:6 = 100`,
	});
	expect(read.perTransaction).toEqual([
		{ asset: 'native', chainId: undefined, decimals: 9, amount: 2_000_000_000n },
		{ asset: usdc, chainId: undefined, decimals: 6, amount: 100_000_000n },
	]);
	expect(read.maxTotalFee).toBe(10_000_000n);
	expect(describePolicy(read)).toMatch(
		/chains 901 only; only to 1 allowed recipient.*total fee at most 0\.01 native units/,
	);
	expect(() => policy({ allowedRecipients: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })).toThrow(
		CredentialFieldError,
	);
	expect(() => policy({ allowedRecipients: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })).toThrow(
		/must list Solana addresses \(base58\); got "0x5FbDB/,
	);
	// Letter case is part of a Solana address: the same address in lower case is another (invalid or foreign) key.
	const lower = devnet.solana.wallets[1].address.toLowerCase();
	expect(
		policy({ allowedRecipients: devnet.solana.wallets[1].address }).recipients.has(lower),
	).toBe(false);
});

test("recipient allowlist: an allowed wallet passes (SOL, and USDC with its new account's rent); any other recipient is refused with rule and value", async () => {
	const [allowed, other] = [devnet.solana.wallets[4].address, devnet.solana.wallets[2].address];
	const rules = policy({ allowedRecipients: allowed });
	const sol = transferSolTransaction({
		from: account().address,
		to: allowed,
		lamports: 1n,
		lifetime: await latestLifetime(rpc),
	});
	expect(
		checkEffect(
			rules,
			(await prepareSolanaTransaction(sol, '901', account(), rpcChainReader(rpc))).effect,
		),
	).toBeUndefined();
	expect(checkEffect(rules, await usdcTransfer(allowed, 5_000_000n))).toBeUndefined();
	const refusal = checkEffect(rules, await usdcTransfer(other, 5_000_000n));
	expect(refusal?.message).toBe(
		`Refused by the rule "allowedRecipients": the recipient ${other} (rent of the recipient's new token account of the native asset) is not on the allowed list; nothing was signed`,
	);
});

test('with an allowlist, an instruction the signer cannot read is refused, naming the instruction and program', async () => {
	const { blockhash } = await latestLifetime(rpc);
	const owner = createNoopSigner(address(account().address));
	const close = compileTransaction(
		solanaMessage(owner.address, blockhash, [
			getCloseAccountInstruction({
				account: address(devnet.solana.wallets[0].usdcAccount),
				destination: owner.address,
				owner,
			}),
		]),
	);
	const effect = (await prepareSolanaTransaction(close, '901', account(), rpcChainReader(rpc)))
		.effect;
	const refusal = checkEffect(
		policy({ allowedRecipients: devnet.solana.wallets[1].address }),
		effect,
	);
	expect(refusal?.message).toMatch(
		new RegExp(
			`rule "allowedRecipients": the transaction holds SPL Token CloseAccount \\(program ${TOKEN_PROGRAM_ADDRESS}\\), which the signer cannot read as a transfer, and the program is not on the allowed list`,
		),
	);
	expect(effect.opaque).toEqual([{ to: TOKEN_PROGRAM_ADDRESS, what: 'SPL Token CloseAccount' }]);
});

test('per-transaction and per-execution limits in whole USDC; the fee ceiling in SOL', async () => {
	const usdc = devnet.solana.usdc.address;
	const recipient = devnet.solana.wallets[3].address;
	const rules = policy({
		maxPerTransaction: `${usdc}:6 = 100`,
		maxPerExecution: `${usdc}:6 = 150`,
	});
	const totals = new MemoryCounter(rules, {
		executionId: 'limits',
		credential: { id: 'solana', name: 'solana' },
	});
	expect(checkEffect(rules, await usdcTransfer(recipient, 100_000_001n))?.message).toMatch(
		/rule "maxPerTransaction": SPL Token transfer of 100\.000001 \(100000001 in the smallest unit\) of token .* is above the limit of 100 per transaction/,
	);
	const first = await usdcTransfer(recipient, 100_000_000n);
	expect(checkEffect(rules, first)).toBeUndefined();
	expect(await totals.reserve(first)).not.toBeInstanceOf(Error);
	expect(
		((await totals.reserve(await usdcTransfer(recipient, 60_000_000n))) as Error).message,
	).toMatch(
		/rule "maxPerExecution": .* would bring this execution's total on chain 901 to 160, above the limit of 150/,
	);

	const pricey = transferSolTransaction({
		from: account().address,
		to: recipient,
		lamports: 1n,
		lifetime: await latestLifetime(rpc),
		computeUnitPrice: 60_000_000n,
	});
	const effect = (await prepareSolanaTransaction(pricey, '901', account(), rpcChainReader(rpc)))
		.effect;
	expect(effect.maxFee).toBe(5000n + (60_000_000n * 200_000n) / 1_000_000n);
	expect(checkEffect(policy({}), effect)?.message).toBe(
		'Refused by the rule "maxTotalFee": the fee can reach 0.012005 native units (12005000 lamports), above the limit of 0.01; nothing was signed',
	);
});
