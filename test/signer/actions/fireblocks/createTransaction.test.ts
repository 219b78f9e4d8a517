/**
 * Fireblocks (Custodian) in Expand Signer, through n8n-core's engine against the devnet's Fireblocks
 * stand-in (devnet/custody/fireblocks): the policy runs in n8n first, with the vault's address as the
 * sender; each payout ID is created at Fireblocks once (its externalTxId), a rerun or a dropped answer
 * creates nothing new, and an approval there moves the exact amount on the chain.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { getAddress, JsonRpcProvider } from 'ethers';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { useDevnet } from '../../../helpers/useDevnet';
import { chainOf, createNative as createPayout, runFireblocks } from './fireblocksRun';

const RECIPIENT = getAddress('0x' + 'c5'.repeat(20));
const OUTSIDER = getAddress('0x' + 'c7'.repeat(20));

const ledger = mkdtempSync(join(tmpdir(), 'fireblocks-create-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledger;

let devnet: Devnet;
useDevnet((started) => (devnet = started));
afterAll(() => rmSync(ledger, { recursive: true, force: true }));

const chain = () => chainOf(devnet);
const vault = () => devnet.fireblocks.addresses['31337'];
const provider = () => new JsonRpcProvider(chain().rpcUrl, 31337, { staticNetwork: true });
const usdc = () => devnet.fireblocks.assets.USDC_DEVNET;

const run = async (items: IDataObject[], parameters: INodeParameters, policy: IDataObject = {}) =>
	await runFireblocks(devnet, ledger, items, parameters, { policy });
const createNative = (payoutId: string, to = RECIPIENT, value = '1000000000000000') =>
	createPayout(payoutId, to, value);

const errorOf = (json: IDataObject) => String(json.error ?? '');
const requestCount = () => devnet.fireblocks.requests.length;
const createsOf = (payoutId: string) =>
	devnet.fireblocks.transactions().filter((tx) => tx.externalTxId === payoutId).length;

describe('Fireblocks (Custodian) Create Transaction', () => {
	beforeEach(() => {
		devnet.fireblocks.autoApprove = false;
	});

	it('shows the vault address Fireblocks gives', async () => {
		const [out] = await run([{}], { operation: 'getVaultAddress', chainId: '31337' });
		expect(out).toMatchObject({
			address: vault(),
			chainId: '31337',
			assetId: 'ETH_DEVNET',
			vaultAccountId: '0',
		});
	});

	it('creates a payout once, holds it for approval, and a rerun returns it without a second create', async () => {
		const [first] = await run([{}], createNative('fb-once-1'));
		expect(first).toMatchObject({
			status: 'PENDING_AUTHORIZATION',
			settlement: 'pending',
			payoutId: 'fb-once-1',
			repeat: false,
			created: true,
			from: vault(),
			request: {
				operation: 'TRANSFER',
				assetId: 'ETH_DEVNET',
				amount: '0.001',
				destination: RECIPIENT,
			},
		});
		expect(first.movements).toEqual([
			expect.objectContaining({ asset: 'native', amount: '0.001', amountRaw: '1000000000000000' }),
		]);
		const [again] = await run([{}], createNative('fb-once-1'));
		expect(again).toMatchObject({ fireblocksId: first.fireblocksId, repeat: true, created: false });
		expect(createsOf('fb-once-1')).toBe(1);
		// The same payout ID for another amount is refused, before any create.
		const [other] = await run([{}], createNative('fb-once-1', RECIPIENT, '2000000000000000'));
		expect(errorOf(other)).toMatch(/payout ID "fb-once-1" was already sent to Fireblocks/);
		expect(createsOf('fb-once-1')).toBe(1);
	});

	it('moves the exact amount on the chain once approved, and Get Transaction waits for COMPLETED', async () => {
		const before = await provider().getBalance(RECIPIENT);
		const [created] = await run([{}], createNative('fb-approve-1', RECIPIENT, '1234567890123'));
		const waiting = run([{}], {
			operation: 'getTransaction',
			payoutId: 'fb-approve-1',
			waitForCompletion: true,
			timeoutSeconds: 30,
		});
		await new Promise((resolve) => setTimeout(resolve, 500));
		await devnet.fireblocks.approve(String(created.fireblocksId));
		const [done] = await waiting;
		expect(done).toMatchObject({ status: 'COMPLETED', settlement: 'completed', timedOut: false });
		expect(String(done.txHash)).toMatch(/^0x[0-9a-f]{64}$/);
		expect((await provider().getBalance(RECIPIENT)) - before).toBe(1234567890123n);
		const tx = await provider().getTransaction(String(done.txHash));
		expect(tx?.from).toBe(vault());
	});

	it('Wait for Completion times out: an error, or the pending status', async () => {
		await run([{}], createNative('fb-timeout-1'));
		const [failed] = await run([{}], {
			operation: 'getTransaction',
			payoutId: 'fb-timeout-1',
			waitForCompletion: true,
			timeoutSeconds: 1,
		});
		expect(errorOf(failed)).toMatch(
			/did not end within 1 s: pending at Fireblocks \(PENDING_AUTHORIZATION/,
		);
		const [pending] = await run([{}], {
			operation: 'getTransaction',
			payoutId: 'fb-timeout-1',
			waitForCompletion: true,
			timeoutSeconds: 1,
			onTimeout: 'output',
		});
		expect(pending).toMatchObject({ status: 'PENDING_AUTHORIZATION', timedOut: true });
	});

	it('a dropped create answer, then a rerun: one transaction at Fireblocks', async () => {
		devnet.fireblocks.faults.dropCreateAnswers = 1;
		const [first] = await run([{}], createNative('fb-dropped-1'));
		// The lost answer is followed by a lookup by externalTxId, which finds the transaction.
		expect(first).toMatchObject({ status: 'PENDING_AUTHORIZATION', repeat: false, created: false });
		const [again] = await run([{}], createNative('fb-dropped-1'));
		expect(again).toMatchObject({ fireblocksId: first.fireblocksId, repeat: true });
		expect(createsOf('fb-dropped-1')).toBe(1);
	});

	it('refuses a recipient off the allowlist with no request to Fireblocks', async () => {
		const before = requestCount();
		const [out] = await run([{}], createNative('fb-outsider-1', OUTSIDER), {
			allowedRecipients: RECIPIENT,
		});
		expect(errorOf(out)).toMatch(/not on the allowed list/);
		expect(requestCount()).toBe(before);
	});

	it('refuses an asset without a Fireblocks asset ID with no request to Fireblocks', async () => {
		const before = requestCount();
		const token = getAddress('0x' + 'd1'.repeat(20));
		// transfer(RECIPIENT, 5) on a token the credential does not map.
		const data = `0xa9059cbb${RECIPIENT.slice(2).toLowerCase().padStart(64, '0')}${(5).toString(16).padStart(64, '0')}`;
		const [out] = await run(
			[{}],
			{
				...createNative('fb-unknown-1', token, '0'),
				additionalFields: { data },
			},
			{ maxPerTransaction: `${token}:6 = 10` },
		);
		expect(errorOf(out)).toMatch(/has no Fireblocks asset ID/);
		expect(requestCount()).toBe(before);
	});

	it('refuses an Expand write whose transaction is not its intent, with no request to Fireblocks', async () => {
		const before = requestCount();
		const intent = (recipient: string, amount: string) => ({
			operation: 'transfer',
			effect: 'transfer',
			chainId: '31337',
			sender: vault(),
			recipient,
			token: 'native',
			amount,
		});
		const tx = (to: string, value: string) => ({
			chainId: '31337',
			from: vault(),
			to,
			value,
			data: '0x',
		});
		const out = await run(
			[
				{ ...tx(OUTSIDER, '1000'), intent: intent(RECIPIENT, '1000') },
				{ ...tx(RECIPIENT, '1000000'), intent: intent(RECIPIENT, '1000') },
			],
			{
				operation: 'createTransaction',
				source: 'input',
				payoutId: '={{ "fb-intent-" + $itemIndex }}',
			},
		);
		expect(errorOf(out[0])).toMatch(/recipient/);
		expect(errorOf(out[1])).toMatch(/amount/);
		expect(requestCount()).toBe(before);
	});

	it('creates a token TRANSFER with the amount in whole units from the chain decimals', async () => {
		const token = usdc();
		const amount = 2500000n; // 2.5 with 6 decimals
		const data = `0xa9059cbb${RECIPIENT.slice(2).toLowerCase().padStart(64, '0')}${amount.toString(16).padStart(64, '0')}`;
		const [out] = await run([{}], {
			...createNative('fb-token-1', token.address as string, '0'),
			additionalFields: { data },
		});
		expect(out).toMatchObject({
			request: {
				operation: 'TRANSFER',
				assetId: 'USDC_DEVNET',
				amount: '2.5',
				destination: RECIPIENT,
			},
		});
	});
});
