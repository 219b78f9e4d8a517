/**
 * Speed Up Payout on the devnet (chain 31337 with automine off, so a transaction waits in the mempool
 * until a block is mined): a payout signed with too low a fee stays pending; sped up, the replacement
 * (same nonce, recipient, value and data, higher fee) lands; a rerun of the payout returns it as
 * sent, and the original can no longer land: the recipient is paid once. When the original lands
 * first, the rerun returns the original and the replacement can no longer land. The fee caps of the
 * policy apply to the replacement.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { IDataObject } from 'n8n-workflow';
import { Transaction } from 'ethers';

import { type Devnet, startDevnet } from '../../../../devnet';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { devnetCredentials, devnetSignerKey } from '../../../helpers/devnetCredentials';

const CHAIN = '31337';
const folder = mkdtempSync(join(tmpdir(), 'expand-speed-up-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = folder;

let devnet: Devnet;
beforeAll(async () => {
	devnet = await startDevnet();
	await devnet.rpc(CHAIN, 'evm_setAutomine', [false]);
});
afterAll(async () => {
	await devnet.stop();
});

/** Each test pays from its own account, so a payout left pending by one never holds up another's nonce. */
let account = 0;

async function signer(
	parameters: IDataObject,
	items: IDataObject[],
	credential: IDataObject = {},
): Promise<IDataObject[]> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: { accountIndex: account, ...parameters } as never,
				continueOnFail: true,
			},
		],
		devnetCredentials(devnet, {
			signer: devnetSignerKey({ payoutLedgerFolder: folder, ...credential }),
		}),
	);
	expect(result.error).toBeUndefined();
	return result.output('Sign').map((item) => item.json);
}

const pay = (payout: IDataObject) =>
	signer({ operation: 'signTransaction', source: 'input', payoutId: '={{ $json.payoutId }}' }, [
		{ chainId: CHAIN, ...payout },
	]);
const speedUp = (payoutId: string, fees: IDataObject = {}, credential: IDataObject = {}) =>
	signer({ operation: 'speedUpPayout', chainId: CHAIN, payoutId, fees }, [{}], credential);
const send = (raw: unknown) => devnet.rpc<string>(CHAIN, 'eth_sendRawTransaction', [raw]);
const mined = async (hash: unknown) =>
	(await devnet.rpc<{ status: string } | null>(CHAIN, 'eth_getTransactionReceipt', [hash]))
		?.status === '0x1';
const balance = async (address: string) =>
	BigInt(await devnet.rpc<string>(CHAIN, 'eth_getBalance', [address, 'latest']));

test('a payout signed with too low a fee stays pending; sped up, the replacement lands; the rerun returns it as sent, the original can no longer land: paid once', async () => {
	account = 8;
	const payout = { payoutId: 'stuck-1', to: '0x' + '5a'.repeat(20), value: '4242' };
	// A fee cap of 1 wei per gas: below the base fee, no block takes it.
	const [original] = await pay({ ...payout, maxFeePerGas: '1', maxPriorityFeePerGas: '0' });
	expect(original.error).toBeUndefined();
	await send(original.rawTransaction);
	await devnet.mine(CHAIN);
	expect(await mined(original.transactionHash)).toBe(false);
	const [pending] = await pay(payout);
	expect([pending.repeat, pending.alreadySent, pending.chainStatus]).toEqual([
		true,
		true,
		'pending',
	]);

	// The policy's fee cap applies to the replacement.
	const [capped] = await speedUp(
		'stuck-1',
		{ maxFeePerGas: '2000000000', maxPriorityFeePerGas: '1' },
		{ maxFeePerGasGwei: '1' },
	);
	expect(capped.error).toBe(
		'Refused by the rule "maxFeePerGasGwei": the fee per gas is 2000000000 wei, above the limit of 1000000000 wei; nothing was signed (item 0)',
	);

	const [replacement] = await speedUp('stuck-1');
	expect(replacement.error).toBeUndefined();
	expect(replacement).toMatchObject({
		payoutId: 'stuck-1',
		repeat: false,
		replaces: original.transactionHash,
		replacements: 1,
		nonce: original.nonce,
		to: original.to,
		value: original.value,
		data: original.data,
		gasLimit: original.gasLimit,
	});
	expect(BigInt(replacement.maxFeePerGas as string)).toBeGreaterThan(1n);
	// Signed bytes: the same transaction but for its fees.
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
		a.from,
	]);
	await send(replacement.rawTransaction);
	await devnet.mine(CHAIN);
	expect(await mined(replacement.transactionHash)).toBe(true);

	// The rerun returns the one that landed; everything sent again is refused by the chain.
	const [rerun] = await pay(payout);
	expect(rerun).toMatchObject({
		repeat: true,
		alreadySent: true,
		chainStatus: 'mined',
		transactionHash: replacement.transactionHash,
		rawTransaction: replacement.rawTransaction,
	});
	await expect(send(original.rawTransaction)).rejects.toThrow(/nonce/i);
	await devnet.mine(CHAIN);
	expect(await balance(payout.to)).toBe(4242n);
	const [again] = await speedUp('stuck-1');
	expect(again.error).toMatch(
		new RegExp(
			`^Refused by the rule "payoutId": payout ID "stuck-1" has landed as ${replacement.transactionHash}; there is nothing to speed up`,
		),
	);
}, 60_000);

test('the original lands first: the rerun returns the original as sent, and the replacement can no longer land: paid once', async () => {
	account = 9;
	const payout = { payoutId: 'stuck-2', to: '0x' + '5b'.repeat(20), value: '777' };
	const [original] = await pay(payout);
	await send(original.rawTransaction);
	const [replacement] = await speedUp('stuck-2');
	expect([replacement.error, replacement.nonce]).toEqual([undefined, original.nonce]);
	// The replacement was signed but not sent before the block took the original.
	await devnet.mine(CHAIN);
	expect(await mined(original.transactionHash)).toBe(true);
	const [rerun] = await pay(payout);
	expect(rerun).toMatchObject({
		repeat: true,
		alreadySent: true,
		chainStatus: 'mined',
		transactionHash: original.transactionHash,
		replacements: 1,
	});
	await expect(send(replacement.rawTransaction)).rejects.toThrow(/nonce/i);
	await devnet.mine(CHAIN);
	expect(await balance(payout.to)).toBe(777n);
}, 60_000);

test('a rerun of a sped-up payout that has not landed returns the latest signature; a payout ID never signed cannot be sped up', async () => {
	account = 10;
	const payout = { payoutId: 'stuck-3', to: '0x' + '5c'.repeat(20), value: '5' };
	await pay({ ...payout, maxFeePerGas: '1', maxPriorityFeePerGas: '0' });
	const [first] = await speedUp('stuck-3', { maxFeePerGas: '1', maxPriorityFeePerGas: '0' });
	expect(first.error).toMatch(/must be at least 10% above the previous signature's 1 wei/);
	const [replacement] = await speedUp('stuck-3');
	const [rerun] = await pay(payout);
	expect(rerun).toMatchObject({
		repeat: true,
		alreadySent: false,
		chainStatus: 'notSent',
		transactionHash: replacement.transactionHash,
	});
	const [none] = await speedUp('never-signed');
	expect(none.error).toMatch(/^No payout was signed under the payout ID "never-signed"/);
});
