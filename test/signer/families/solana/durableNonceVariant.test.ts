/**
 * Whether a Solana transaction's lifetime is a durable nonce is the runtime's call, not the client
 * library's: the runtime takes any transaction whose first instruction is the System program's
 * AdvanceNonceAccount (read from the first 4 bytes of its data) on a writable nonce account as a
 * durable-nonce transaction; @solana/kit names the lifetime a nonce only for the exact 3-account,
 * 4-byte form. One with a fourth (ignored) account is read by kit as a blockhash transaction, so the
 * payout-ID rule for durable nonces passed it by, and a rerun after "its blockhash expired" would have
 * told the operator to pay again while it can still land. (The devnet takes no durable-nonce
 * transactions, so this is shown at the Signer, as the earlier durable-nonce tests are.)
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { getTransferSolInstruction, SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { AccountRole, address, createNoopSigner, generateKeyPairSigner } from '@solana/kit';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { solanaMessage, unsignedWire } from '../../../helpers/solanaMessages';
import { useDevnet } from '../../../helpers/useDevnet';

const ledgerFolder = mkdtempSync(join(tmpdir(), 'expand-durable-variant-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledgerFolder;
const RECENT_BLOCKHASHES = address('SysvarRecentB1ockHashes11111111111111111111');

let devnet: Devnet;
useDevnet((started) => (devnet = started));

/** A 1,000-lamport transfer to wallet 4 led by AdvanceNonceAccount with `extra` accounts after the three it names. */
async function nonceLedTransfer(extra: number): Promise<string> {
	const from = address(devnet.solana.wallets[1].address);
	const nonceAccount = (await generateKeyPairSigner()).address;
	const advance = {
		programAddress: SYSTEM_PROGRAM_ADDRESS,
		accounts: [
			{ address: nonceAccount, role: AccountRole.WRITABLE },
			{ address: RECENT_BLOCKHASHES, role: AccountRole.READONLY },
			{ address: from, role: AccountRole.WRITABLE_SIGNER },
			...Array.from({ length: extra }, () => ({
				address: SYSTEM_PROGRAM_ADDRESS,
				role: AccountRole.READONLY,
			})),
		],
		data: new Uint8Array([4, 0, 0, 0]),
	};
	const message = solanaMessage(
		from,
		// The nonce account's stored value, which is no recent blockhash.
		'GfnhkazE7Sj1oPQ3KGuVrqzhoY4kJ8pETXcjvaj3gfoX',
		[
			advance,
			getTransferSolInstruction({
				source: createNoopSigner(from),
				destination: address(devnet.solana.wallets[4].address),
				amount: 1000n,
			}),
		],
		2n ** 64n - 1n,
	);
	return unsignedWire(message);
}

async function signUnderPayoutId(wire: string, payoutId: string): Promise<IDataObject> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{ id: payoutId }]) } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: {
					chainFamily: 'solana',
					operation: 'signTransaction',
					solanaChainId: '901',
					serializedTransaction: wire,
					payoutId: '={{ $json.id }}',
				},
				continueOnFail: true,
			},
		],
		devnetCredentials(devnet, {
			solana: {
				keyType: 'secretKey',
				secretKey: devnet.solana.wallets[1].secretKey,
				payoutLedgerFolder: ledgerFolder,
			},
		}),
	);
	return result.output('Sign')[0].json;
}

test('Solana: a transaction led by AdvanceNonceAccount with an extra account is a durable-nonce transaction to the runtime, and is not signed under a payout ID', async () => {
	for (const extra of [0, 1]) {
		const signed = await signUnderPayoutId(await nonceLedTransfer(extra), `variant-${extra}`);
		expect(signed.rawTransaction).toBeUndefined();
		expect(signed.error).toMatch(
			/^Refused by the rule "payoutId": the transaction uses a durable nonce \(GfnhkazE7Sj1oPQ3KGuVrqzhoY4kJ8pETXcjvaj3gfoX\) instead of a recent blockhash/,
		);
	}
});
