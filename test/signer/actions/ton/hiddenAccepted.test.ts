/**
 * A toncenter API that hides exactly the wallet's transaction of an accepted payout while showing the
 * wallet's seqno past it. "The seqno moved past it and no transaction carries it" was read as the
 * message never accepted: Speed Up Payout signed the payout again on the current seqno and its payee
 * was paid twice. Every message a wallet accepts carries its key's signature and its seqno, which no
 * node can make up: a message is now read as overtaken only when the wallet's transactions show the
 * key's other message that took its seqno; else it is unknown and not signed again.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { Address, Cell } from '@ton/core';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet, DevnetTon } from '../../../../devnet';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { startLyingFront } from '../../../helpers/lyingFront';
import { signerSteps } from '../../../helpers/signerSteps';
import { tonMnemonicKey } from '../../../helpers/tonMnemonicKey';
import { useDevnet } from '../../../helpers/useDevnet';

const CHAIN = '1101';

const root = mkdtempSync(join(tmpdir(), 'expand-ton-hidden-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = root;

let devnet: Devnet;
let testnet: DevnetTon;
useDevnet((started) => {
	devnet = started;
	testnet = started.ton.find((chain) => chain.chainId === CHAIN) as DevnetTon;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const wallet = (index: number) =>
	testnet.wallets.find(
		(candidate) =>
			candidate.source === 'bip39' && candidate.index === index && candidate.version === 'v5r1',
	)!.address;

/** Runs the Signer with the devnet mnemonic's W5 account 0, the toncenter API at `rpcUrl` pinned. */
async function signer(parameters: IDataObject, rpcUrl = testnet.rpcUrl): Promise<IDataObject> {
	const [output] = await signerSteps(
		{ chainFamily: 'ton', tonChainId: CHAIN, accountIndex: 0 },
		{ ...devnetCredentials(devnet), expandTonKeyApi: tonMnemonicKey(root, rpcUrl) },
		parameters,
	);
	return output;
}

async function call(method: string, init?: RequestInit): Promise<Record<string, unknown>> {
	const reply = await fetch(`${testnet.rpcUrl}/${method}`, init);
	return (await reply.json()) as Record<string, unknown>;
}
const send = async (signed: IDataObject) =>
	await call('sendBoc', {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ boc: signed.rawTransaction }),
	});

test('a pinned API that hides the transaction of an accepted payout while its seqno passed it does not get it signed again: its payee is paid once', async () => {
	const payer = wallet(0);
	const payee = wallet(2);
	const since = testnet.chain.blockchain.snapshot().transactions.length;
	const paid = await signer({
		operation: 'transferTon',
		payoutId: 'hidden-accepted',
		recipient: payee,
		amount: '6000000',
	});
	expect(await send(paid)).toMatchObject({ ok: true });
	const next = await signer({ operation: 'transferTon', recipient: payee, amount: '1000' });
	expect(await send(next)).toMatchObject({ ok: true });
	// The wallet's transactions as the chain has them, less the payout's.
	const { result } = await call(
		`getTransactions?${new URLSearchParams({ address: payer, limit: '50' })}`,
	);
	const shown = (result as Array<{ in_msg?: { msg_data?: { body?: string } } }>).filter(
		(transaction) => {
			const body = transaction.in_msg?.msg_data?.body;
			return !body || Cell.fromBase64(body).hash().toString('hex') !== paid.bodyHash;
		},
	);
	expect(shown.length).toBe((result as unknown[]).length - 1);
	const liar = await startLyingFront(testnet.rpcUrl, (path) =>
		path.endsWith('/getTransactions') ? { ok: true, result: shown } : undefined,
	);
	let replacement: IDataObject;
	try {
		replacement = await signer(
			{ operation: 'speedUpPayout', payoutId: 'hidden-accepted' },
			liar.url,
		);
		if (replacement.rawTransaction) await send(replacement);
	} finally {
		await liar.close();
	}
	const paidToPayee = testnet.chain.blockchain
		.snapshot()
		.transactions.slice(since)
		.map((transaction) => transaction.inMessage)
		.filter(
			(message) =>
				message?.info.type === 'internal' &&
				message.info.src.equals(Address.parse(payer)) &&
				message.info.dest.equals(Address.parse(payee)),
		)
		.map((message) => (message?.info.type === 'internal' ? message.info.value.coins : 0n));
	expect(paidToPayee).toEqual([6_000_000n, 1000n]);
	expect(String(replacement.error)).toMatch(
		/^Refused by the rule "payoutId": payout ID "hidden-accepted" was signed as [0-9a-f]{64}, and the chain's node cannot show that it can never be accepted: .*none of the wallet's transactions shows the message that took seqno \d+/,
	);
});
