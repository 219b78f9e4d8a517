/**
 * Exactly-once payouts through the payout-ID ledger, on the devnet: a payout run that stops after
 * some sends, then runs again, pays every recipient once (checked by balances); a payout ID is never
 * signed for new content; a repeat whose nonce was taken by another transaction is refused.
 * Each in the folder and in the PostgreSQL ledger store. (The same across a killed and restarted n8n:
 * test/n8n/run.ts.)
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../devnet';
import { ITEMS, SIGNER, runPipeline } from '../../helpers/n8n';
import { LEDGER_STORES, ledgerStores, type TestLedger } from '../../helpers/ledgerStores';
import { devnetAccount, devnetCredentials, devnetSignerKey } from '../../helpers/devnetCredentials';
import { devnetPerStore } from '../../helpers/devnetPerStore';

const ACCOUNT = 6;
const sender = devnetAccount(ACCOUNT);
const root = mkdtempSync(join(tmpdir(), 'expand-ledger-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows (its default is ~/.n8n-files).
process.env.N8N_RESTRICT_FILE_ACCESS_TO = root;
const stores = ledgerStores(root);

let devnet: Devnet;
let ledger: TestLedger;

const recipients = Array.from({ length: 5 }, (_, index) => ({
	payoutId: `invoice-${index}`,
	to: `0x${(0xd000 + index).toString(16).padStart(40, '0')}`,
	value: String(1000 + index),
}));
const balance = async (address: string) =>
	BigInt(await devnet.rpc<string>('31337', 'eth_getBalance', [address, 'latest']));

async function sign(items: IDataObject[], credential: IDataObject = ledger.fields) {
	const result = await runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: { items: JSON.stringify(items.map((item) => ({ chainId: '31337', ...item }))) },
			},
			{
				name: 'Sign',
				type: SIGNER,
				parameters: {
					operation: 'signTransaction',
					source: 'input',
					accountIndex: ACCOUNT,
					payoutId: '={{ $json.payoutId }}',
				},
				continueOnFail: true,
			},
		],
		devnetCredentials(devnet, { signer: devnetSignerKey(credential) }),
	);
	expect(result.error).toBeUndefined();
	return result.output('Sign').map((item) => item.json);
}

const send = (raw: unknown) => devnet.rpc<string>('31337', 'eth_sendRawTransaction', [raw]);

describe.each(LEDGER_STORES)('%s ledger', (kind) => {
	// A devnet of its own per store: the same recipients are paid, and their balances checked, in each.
	devnetPerStore(stores, kind, (started, created) => ([devnet, ledger] = [started, created]));

	test('a payout run stopped after two sends, run again: the same transactions come back, every recipient is paid once', async () => {
		const first = await sign(recipients);
		expect(first.map((item) => [item.payoutId, item.repeat, item.from])).toEqual(
			recipients.map((recipient) => [recipient.payoutId, false, sender.address]),
		);
		expect((await ledger.names()).filter((name) => name.startsWith('expand-payout-'))).toHaveLength(
			5,
		);
		// Each automatic nonce was claimed before it was signed.
		expect(
			(await ledger.names()).filter((name) => /^expand-nonce-.*-\d+\.json$/.test(name)),
		).toHaveLength(5);
		// The first run stops (n8n killed) after sending two of them.
		for (const item of first.slice(0, 2)) await send(item.rawTransaction);

		const second = await sign(recipients);
		expect(second.map((item) => item.transactionHash)).toEqual(
			first.map((item) => item.transactionHash),
		);
		expect(second.map((item) => item.rawTransaction)).toEqual(
			first.map((item) => item.rawTransaction),
		);
		expect(second.map((item) => [item.repeat, item.alreadySent, item.chainStatus])).toEqual([
			[true, true, 'mined'],
			[true, true, 'mined'],
			[true, false, 'notSent'],
			[true, false, 'notSent'],
			[true, false, 'notSent'],
		]);
		// The rerun sends what was not sent yet.
		for (const item of second.filter((entry) => !entry.alreadySent))
			await send(item.rawTransaction);
		// A third run, and the whole list sent again, change nothing.
		const third = await sign(recipients);
		expect(third.every((item) => item.repeat === true && item.alreadySent === true)).toBe(true);
		for (const item of third) await expect(send(item.rawTransaction)).rejects.toThrow();
		for (const recipient of recipients)
			expect(await balance(recipient.to)).toBe(BigInt(recipient.value));
	});

	test('a payout ID is never signed for new content; the ledger folder is required; a repeat whose nonce was taken is refused', async () => {
		const [changed] = await sign([{ ...recipients[0], value: '999999' }]);
		expect(changed.error).toMatch(
			/^Refused by the rule "payoutId": payout ID "invoice-0" was already signed on .* as 0x[0-9a-f]{64} for other content \(recipient, value or data\); a payout ID is never signed for new content; nothing was signed \(item 0\)$/,
		);
		const [noLedger] = await sign([{ ...recipients[0] }], {});
		expect(noLedger.error).toBe(
			'Refused by the rule "payoutLedgerFolder": payout ID "invoice-0" needs a payout ledger (folder or PostgreSQL) on the signing credential, where signed payout IDs are kept; nothing was signed (item 0)',
		);

		// Signed, never sent, and its nonce then used by a payment without a payout ID: it can never land.
		const stale = { payoutId: 'invoice-stale', to: '0x' + 'e1'.repeat(20), value: '5' };
		const [signedStale] = await sign([stale]);
		// Signed elsewhere (a credential without the folder, so without nonce claims: another tool).
		const [other] = await sign([{ to: '0x' + 'e2'.repeat(20), value: '6' }], {});
		expect(other.nonce).toBe(signedStale.nonce);
		await send(other.rawTransaction);
		const [refused] = await sign([stale]);
		expect(refused.error).toMatch(
			new RegExp(
				`^Refused by the rule "payoutId": payout ID "invoice-stale" was signed on .* as ${signedStale.transactionHash} with nonce ${signedStale.nonce}, which the chain's JSON-RPC node the API names \\(RPC URLs pins none for chain 31337\\) says is not on the chain while another transaction has used that nonce; it is not signed again\\. A node that lies can hide a mined transaction: pin the chain's node`,
			),
		);
		expect(await balance(stale.to)).toBe(0n);
	});

	test('repeats in one run keep their nonces: new payouts after them take the nonces above', async () => {
		const batch = [3, 4].map((index) => ({
			payoutId: `batch-${index}`,
			to: `0x${(0xf000 + index).toString(16).padStart(40, '0')}`,
			value: '10',
		}));
		const [signedFirst] = await sign([batch[0]]);
		// Not sent yet; a rerun with a new payout after it: the new one must not take the repeat's nonce.
		const rerun = await sign(batch);
		expect(rerun.map((item) => [item.repeat, item.nonce])).toEqual([
			[true, signedFirst.nonce],
			[false, (signedFirst.nonce as number) + 1],
		]);
		for (const item of rerun) await send(item.rawTransaction);
		for (const recipient of batch) expect(await balance(recipient.to)).toBe(10n);
	});
});
