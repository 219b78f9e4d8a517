/**
 * Speed Up Payout on TON believes a payout expired when the chain's time has passed its valid_until.
 * A pinned toncenter API whose time runs ahead of this machine's clock by less than the minute it is
 * allowed made a payout still valid read expired: two payouts signed on one seqno in two executions
 * (the second's send had not happened yet), both sped up in one execution, take that seqno and the
 * next one, and the still valid original lands beside its replacement: the payee is paid twice. A
 * message is now expired by its valid_until only once this machine's clock has passed it too.
 *
 * Time passes by moving this process's clock (Date.now), which the Signer and the devnet's chain both
 * read.
 */

import { Address } from '@ton/core';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet, DevnetTon } from '../../../../devnet';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { ledgerFolder } from '../../../helpers/ledgerFolder';
import { movedClock } from '../../../helpers/movedClock';
import { startLyingFront } from '../../../helpers/lyingFront';
import { signerSteps } from '../../../helpers/signerSteps';
import { tonMnemonicKey } from '../../../helpers/tonMnemonicKey';
import { sendBoc } from '../../../helpers/tonSendBoc';
import { useDevnet } from '../../../helpers/useDevnet';

const CHAIN = '1101';

const root = ledgerFolder('expand-ton-chain-time-');

let devnet: Devnet;
let testnet: DevnetTon;
useDevnet((started) => {
	devnet = started;
	testnet = started.ton.find((chain) => chain.chainId === CHAIN) as DevnetTon;
});

const clock = movedClock();

/** Runs the Signer on `items` with the devnet TON mnemonic's W5 wallet, the toncenter API at `rpcUrl` pinned. */
async function signer(
	parameters: IDataObject,
	items: IDataObject[],
	rpcUrl: string,
): Promise<IDataObject[]> {
	return await signerSteps(
		{ chainFamily: 'ton', tonChainId: CHAIN },
		{ ...devnetCredentials(devnet), expandTonKeyApi: tonMnemonicKey(root, rpcUrl) },
		parameters,
		{ items },
	);
}

const send = (signed: IDataObject) => sendBoc(testnet.rpcUrl, signed);

test('a pinned API whose time runs 59 s ahead does not make a payout still valid read expired: it is not signed again, and its payee is paid once', async () => {
	// The payer is the devnet mnemonic's account 1; the payee the TON mnemonic's W5 wallet.
	const payee = testnet.wallets.find(
		(wallet) => wallet.source === 'ton-mnemonic' && wallet.version === 'v5r1',
	)!.address;
	const pay = async (payoutId: string, validFor: number) =>
		(
			await signer(
				{
					operation: 'transferTon',
					accountIndex: 1,
					payoutId,
					recipient: payee,
					amount: payoutId === 'clock-due' ? '7000000' : '1000',
					validFor,
				},
				[{}],
				testnet.rpcUrl,
			)
		)[0];
	// Two payouts on one seqno, signed in two executions before either was sent.
	const unsent = await pay('clock-unsent', 10);
	const due = await pay('clock-due', 60);
	expect(due.seqno).toBe(unsent.seqno);
	clock.pass(20_000);
	testnet.chain.mine();
	// The chain's API, except that its time is 59 s after this machine's clock.
	const ahead = await startLyingFront(testnet.rpcUrl, (path) =>
		path.endsWith('/getBlockHeader')
			? { ok: true, result: { gen_utime: Math.floor(Date.now() / 1000) + 59 } }
			: undefined,
	);
	let refusal = '';
	const since = testnet.chain.blockchain.snapshot().transactions.length;
	try {
		const sped = await signer(
			{ operation: 'speedUpPayout', accountIndex: 1, payoutId: '={{ $json.payoutId }}' },
			[{ payoutId: 'clock-unsent' }, { payoutId: 'clock-due' }],
			ahead.url,
		);
		expect(sped[0]).toMatchObject({ replaces: unsent.transactionHash });
		// The original is still valid on the chain: it lands, and whatever else was signed is sent after it.
		expect(await send(due)).toMatchObject({ ok: true });
		for (const item of sped) if (item.rawTransaction) await send(item);
		refusal = String(sped[1].error);
	} finally {
		await ahead.close();
	}
	const payer = Address.parse(
		testnet.wallets.find(
			(wallet) => wallet.source === 'bip39' && wallet.index === 1 && wallet.version === 'v5r1',
		)!.address,
	);
	const paid = testnet.chain.blockchain
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
	expect(paid).toEqual([7_000_000n]);
	expect(refusal).toMatch(
		/^Refused by the rule "payoutId": payout ID "clock-due" was signed as [0-9a-f]{64}, which the wallet can still accept/,
	);
});
