/**
 * The Turnkey stand-in's Tron wallet account: TRANSACTION_TYPE_TRON takes raw_data's protobuf bytes
 * (tronweb's raw_data_hex) and answers the signed protobuf Transaction (raw_data, then one 65-byte
 * signature over its SHA-256, the txID, by the account), which the Tron stand-in's wallet/broadcasthex
 * takes and lands; the same body is the same activity; bytes that are not a raw_data are refused in
 * Turnkey's error shape, and so is a Tron request for the EVM account.
 */
import { Wallet } from 'ethers';

import type { Devnet, DevnetTron } from '../../../devnet';
import {
	readSignedProtobuf,
	recoveredAddress,
	referenceBlock,
	transactionId,
	transferTrxTransaction,
} from '../../../packages/signer/nodes/ExpandSigner/families/tron';
import { useDevnet } from '../../helpers/useDevnet';

let devnet: Devnet;
let nile: DevnetTron;
useDevnet((started) => {
	devnet = started;
	nile = started.tron.find((chain) => chain.chainId === '1001') as DevnetTron;
});

async function post(path: string, body: string) {
	const response = await fetch(`${devnet.turnkey.url}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'X-Stamp': devnet.turnkey.stamp(body) },
		body,
	});
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers read field by field
	return { status: response.status, body: (await response.json()) as any };
}

const signBody = (unsignedTransaction: string, signWith: string, timestampMs = Date.now()) =>
	JSON.stringify({
		type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
		timestampMs: String(timestampMs),
		organizationId: devnet.turnkey.organizationId,
		parameters: { signWith, unsignedTransaction, type: 'TRANSACTION_TYPE_TRON' },
	});

/** raw_data's bytes of a TRX transfer from the Turnkey account on the chain's head block. */
async function unsignedTransfer(to: string, sun: bigint): Promise<string> {
	const head = (await (
		await fetch(`${nile.rpcUrl}/wallet/getnowblock`, { method: 'POST', body: '{}' })
	).json()) as {
		blockID: string;
		block_header: { raw_data: { number: number; timestamp: number } };
	};
	const block = referenceBlock(
		{
			number: head.block_header.raw_data.number,
			blockID: head.blockID,
			timestamp: head.block_header.raw_data.timestamp,
		},
		5 * 60 * 1000,
	);
	return transferTrxTransaction({
		from: devnet.turnkey.accounts.tron,
		to,
		amount: sun,
		block,
		timestamp: Date.now(),
	}).raw_data_hex;
}

test('a Tron transfer signed by the stand-in is the signed protobuf Transaction of the same raw_data by the account; broadcast, it lands; the same body is the same activity', async () => {
	const to = `41${Wallet.createRandom().address.slice(2).toLowerCase()}`;
	const raw = await unsignedTransfer(to, 2_000_000n);
	const before = devnet.turnkey.signatures;
	const body = signBody(raw, devnet.turnkey.accounts.tron);
	const answer = await post('/public/v1/submit/sign_transaction', body);
	expect(answer.status).toBe(200);
	expect(answer.body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
	const signedHex: string = answer.body.activity.result.signTransactionResult.signedTransaction;
	const signed = readSignedProtobuf(signedHex);
	expect(signed?.rawDataHex).toBe(raw);
	expect(signed?.signatures).toHaveLength(1);
	const txID = transactionId(raw);
	expect(recoveredAddress(txID, String(signed?.signatures[0]))).toBe(devnet.turnkey.accounts.tron);

	const again = await post('/public/v1/submit/sign_transaction', body);
	expect(again.body.activity.id).toBe(answer.body.activity.id);
	expect(devnet.turnkey.signatures).toBe(before + 1);

	const sent = (await (
		await fetch(`${nile.rpcUrl}/wallet/broadcasthex`, {
			method: 'POST',
			body: JSON.stringify({ transaction: signedHex }),
		})
	).json()) as { result?: boolean; txid?: string };
	expect(sent).toMatchObject({ result: true, txid: txID });
	expect(nile.chain.balance(to)).toBe(2_000_000n);
});

test('bytes that are not a raw_data, and a Tron request for the EVM account, are refused in Turnkey shape; nothing is signed', async () => {
	const before = devnet.turnkey.signatures;
	const garbage = await post(
		'/public/v1/submit/sign_transaction',
		signBody('ffff', devnet.turnkey.accounts.tron),
	);
	expect(garbage.status).toBe(400);
	expect(garbage.body).toEqual({
		code: 3,
		message: expect.stringContaining('failed to parse unsigned transaction'),
		details: [],
	});
	const raw = await unsignedTransfer(`41${'ab'.repeat(20)}`, 1n);
	const evm = await post(
		'/public/v1/submit/sign_transaction',
		signBody(raw, devnet.turnkey.accounts.evm),
	);
	expect(evm.status).toBe(400);
	expect(evm.body).toEqual({
		code: 3,
		message: `wallet account ${devnet.turnkey.accounts.evm} (ADDRESS_FORMAT_ETHEREUM) cannot sign TRANSACTION_TYPE_TRON`,
		details: [],
	});
	expect(devnet.turnkey.signatures).toBe(before);
});
