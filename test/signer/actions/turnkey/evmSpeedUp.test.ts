/**
 * Speed Up Payout through a Turnkey key (chain 31337 with automine off, so a transaction waits in the
 * mempool until a block is mined): a payout signed by Turnkey with too low a fee stays pending; sped
 * up, Turnkey signs the replacement once (a new activity: the same transaction but for its fees,
 * checked as every answer is), it lands, and a rerun of the payout returns it: paid once.
 */
import { Transaction, Wallet } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { ledgerFolder } from '../../../helpers/ledgerFolder';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { useDevnet } from '../../../helpers/useDevnet';
import { turnkeyKey } from './turnkeyRun';

const CHAIN = '31337';
const folder = ledgerFolder('expand-turnkey-speed-up-');

let devnet: Devnet;
useDevnet((started) => (devnet = started));
beforeAll(async () => {
	await devnet.rpc(CHAIN, 'evm_setAutomine', [false]);
});

async function signer(parameters: IDataObject, items: IDataObject[]): Promise<IDataObject[]> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{ name: 'Sign', type: SIGNER, parameters: parameters as never, continueOnFail: true },
		],
		devnetCredentials(devnet, {
			signer: turnkeyKey(devnet, devnet.turnkey.accounts.evm, folder),
		}),
	);
	expect(result.error).toBeUndefined();
	return result.output('Sign').map((item) => item.json);
}

const pay = (payout: IDataObject) =>
	signer({ operation: 'signTransaction', source: 'input', payoutId: '={{ $json.payoutId }}' }, [
		{ chainId: CHAIN, ...payout },
	]);
const speedUp = (payoutId: string) =>
	signer({ operation: 'speedUpPayout', chainId: CHAIN, payoutId }, [{}]);
const send = (raw: unknown) => devnet.rpc<string>(CHAIN, 'eth_sendRawTransaction', [raw]);
const mined = async (hash: unknown) =>
	(await devnet.rpc<{ status: string } | null>(CHAIN, 'eth_getTransactionReceipt', [hash]))
		?.status === '0x1';
const balance = async (address: string) =>
	BigInt(await devnet.rpc<string>(CHAIN, 'eth_getBalance', [address, 'latest']));

test('a Turnkey payout stuck at too low a fee, sped up through Turnkey: one new activity, the replacement lands, the rerun returns it; paid once', async () => {
	const to = Wallet.createRandom().address;
	const payout = { payoutId: 'tk-stuck', to, value: '4242' };
	const activities = () => devnet.turnkey.activities().length;
	const start = { activities: activities(), signatures: devnet.turnkey.signatures };
	// A fee cap of 1 wei per gas: below the base fee, no block takes it.
	const [original] = await pay({ ...payout, maxFeePerGas: '1', maxPriorityFeePerGas: '0' });
	expect(original.error).toBeUndefined();
	await send(original.rawTransaction);
	await devnet.mine(CHAIN);
	expect(await mined(original.transactionHash)).toBe(false);

	const [replacement] = await speedUp('tk-stuck');
	expect(replacement.error).toBeUndefined();
	expect(replacement).toMatchObject({
		payoutId: 'tk-stuck',
		repeat: false,
		replaces: original.transactionHash,
		replacements: 1,
		nonce: original.nonce,
		from: devnet.turnkey.accounts.evm,
	});
	expect(activities()).toBe(start.activities + 2);
	expect(devnet.turnkey.signatures).toBe(start.signatures + 2);
	// The same transaction but for its fees, signed by Sign With.
	const [a, b] = [original, replacement].map((item) =>
		Transaction.from(item.rawTransaction as string),
	);
	expect([b.to, b.value, b.data, b.nonce, b.chainId, b.gasLimit, b.from]).toEqual([
		a.to,
		a.value,
		a.data,
		a.nonce,
		a.chainId,
		a.gasLimit,
		devnet.turnkey.accounts.evm,
	]);
	expect(b.maxFeePerGas).toBeGreaterThan(1n);
	await send(replacement.rawTransaction);
	await devnet.mine(CHAIN);
	expect(await mined(replacement.transactionHash)).toBe(true);

	const [rerun] = await pay(payout);
	expect(rerun).toMatchObject({
		repeat: true,
		alreadySent: true,
		chainStatus: 'mined',
		transactionHash: replacement.transactionHash,
	});
	const [again] = await speedUp('tk-stuck');
	expect(again.error).toMatch(
		new RegExp(
			`^Refused by the rule "payoutId": payout ID "tk-stuck" has landed as ${replacement.transactionHash}; there is nothing to speed up`,
		),
	);
	// Neither the rerun nor the refused speed-up asked Turnkey anything.
	expect(activities()).toBe(start.activities + 2);
	expect(devnet.turnkey.signatures).toBe(start.signatures + 2);
	await expect(send(original.rawTransaction)).rejects.toThrow(/nonce/i);
	expect(await balance(to)).toBe(4242n);
}, 60_000);
