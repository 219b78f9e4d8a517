/**
 * A TON message signed while this machine's clock ran ahead of the chain's carries a valid_until that
 * far ahead. Check Payouts and Speed Up Payout read the wallet's transactions back to its valid_until
 * less the longest Valid For, so such a message, accepted and followed by another, was left out of the
 * scan and read `dropped` ("nothing was paid"), and Speed Up Payout signed it again on the next seqno:
 * its payee was paid twice. The scan now goes back to the first message of the wallet's key with a
 * seqno below the payout's, whatever the clocks said.
 *
 * The devnet's chain reads this process's clock too: it is held back by as much as the clock is moved.
 */

import { Address } from '@ton/core';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet, DevnetTon } from '../../../../devnet';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { ledgerFolder } from '../../../helpers/ledgerFolder';
import { movedClock } from '../../../helpers/movedClock';
import { signerSteps } from '../../../helpers/signerSteps';
import { tonMnemonicKey } from '../../../helpers/tonMnemonicKey';
import { sendBoc } from '../../../helpers/tonSendBoc';
import { useDevnet } from '../../../helpers/useDevnet';

const CHAIN = '1101';
const AHEAD_SECONDS = 24 * 3600;

const root = ledgerFolder('expand-ton-clock-ahead-');

let devnet: Devnet;
let testnet: DevnetTon;
useDevnet((started) => {
	devnet = started;
	testnet = started.ton.find((chain) => chain.chainId === CHAIN) as DevnetTon;
});

const clock = movedClock();

/** Runs the Signer (and `then` after it) with the devnet mnemonic's W5 account 0, the chain's toncenter API pinned. */
async function signer(parameters: IDataObject, then?: IDataObject): Promise<IDataObject[]> {
	return await signerSteps(
		{ chainFamily: 'ton', tonChainId: CHAIN, accountIndex: 0 },
		{ ...devnetCredentials(devnet), expandTonKeyApi: tonMnemonicKey(root, testnet.rpcUrl) },
		parameters,
		{ then },
	);
}

const send = (signed: IDataObject) => sendBoc(testnet.rpcUrl, signed);

test("a payout signed while this machine's clock ran a day ahead of the chain's, accepted and followed by another message, is read mined, not dropped, and is not signed again", async () => {
	const wallet = (index: number) =>
		testnet.wallets.find(
			(candidate) =>
				candidate.source === 'bip39' && candidate.index === index && candidate.version === 'v5r1',
		)!.address;
	const payee = wallet(2);
	const since = testnet.chain.blockchain.snapshot().transactions.length;
	clock.pass(AHEAD_SECONDS * 1000);
	testnet.chain.advance(-AHEAD_SECONDS);
	const [paid] = await signer({
		operation: 'transferTon',
		payoutId: 'clock-ahead',
		recipient: payee,
		amount: '9000000',
	});
	expect(await send(paid)).toMatchObject({ ok: true });
	const [next] = await signer({ operation: 'transferTon', recipient: payee, amount: '1000' });
	expect(await send(next)).toMatchObject({ ok: true });
	const rows = await signer(
		{ operation: 'listPayouts', status: 'signed' },
		{ operation: 'checkPayouts' },
	);
	expect(rows.find((entry) => entry.transactionHash === paid.transactionHash)).toMatchObject({
		chainStatus: 'mined',
		success: 'true',
	});
	const [replacement] = await signer({ operation: 'speedUpPayout', payoutId: 'clock-ahead' });
	if (replacement.rawTransaction) await send(replacement);
	const payer = Address.parse(wallet(0));
	const paidToPayee = testnet.chain.blockchain
		.snapshot()
		.transactions.slice(since)
		.map((transaction) => transaction.inMessage)
		.filter(
			(message) =>
				message?.info.type === 'internal' &&
				message.info.src.equals(payer) &&
				message.info.dest.equals(Address.parse(payee)),
		)
		.map((message) => (message?.info.type === 'internal' ? message.info.value.coins : 0n));
	expect(paidToPayee).toEqual([9_000_000n, 1000n]);
	expect(String(replacement.error)).toMatch(
		/^Refused by the rule "payoutId": payout ID "clock-ahead" was accepted by the wallet as [0-9a-f]{64} in transaction \d+; there is nothing to speed up/,
	);
});
