/**
 * The payout journal, List Payouts and Check Payouts on the devnet: a run with a mined payout, a
 * refused one, one signed and never sent, and one stuck and sped up (chain 31337 with automine off),
 * then a rerun; List Payouts gives each entry once with exact amounts and fee ceilings, its filters
 * select what they say, and Check Payouts says what the chain says: mined (block and fee paid as the
 * receipt has them), refused, unsent, replaced by the speed-up that landed. On Solana (901): a
 * transfer sent and one never sent, mined and unsent. Bad filters are errors of the item under
 * Continue On Fail; neither the outputs nor the journal's records hold the key. The EVM run is made
 * on both ledger stores: a folder, and PostgreSQL.
 */
import { mkdirSync, mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { getGlobalState, type IDataObject } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../../devnet';
import { DEVNET_MNEMONIC as MNEMONIC } from '../../../devnet/fixtures';
import { expectStableColumns } from '../../helpers/checkColumns';
import { LEDGER_STORES, ledgerStores, type TestLedger } from '../../helpers/ledgerStores';
import { ITEMS, SIGNER, expandCredentials, runPipeline } from '../../helpers/n8n';

const CHAIN = '31337';
const root = mkdtempSync(join(tmpdir(), 'expand-journal-'));
const solanaFolder = join(root, 'solana');
process.env.N8N_RESTRICT_FILE_ACCESS_TO = root;
mkdirSync(solanaFolder);
const stores = ledgerStores(root);

let devnet: Devnet;
beforeAll(async () => {
	devnet = await startDevnet();
	await devnet.rpc(CHAIN, 'evm_setAutomine', [false]);
});
afterAll(async () => {
	await devnet.stop();
});

/** The EVM credential's ledger, and the account it pays from: each store's run has its own, on the one devnet. */
let ledger: TestLedger;
let account = 11;

function credentials(credential: IDataObject = {}) {
	return {
		...expandCredentials({
			apiKey: devnet.apiKey,
			baseUrl: devnet.baseUrl,
			historicalUrl: devnet.historicalUrl,
		}),
		expandSignerApi: {
			keyType: 'mnemonic',
			mnemonic: MNEMONIC,
			derivationPath: "m/44'/60'/0'/0/{index}",
			...ledger?.fields,
			maxPerTransaction: 'native = 0.00001',
			requireIntent: 'never',
			rpcUrls: `${CHAIN} = ${devnet.chains.find((chain) => chain.chainId === CHAIN)?.rpcUrl ?? ''}`,
			...credential,
		},
		expandSolanaKeyApi: {
			keyType: 'secretKey',
			secretKey: devnet.solana.wallets[1].secretKey,
			payoutLedgerFolder: solanaFolder,
			rpcUrls: `901 = ${devnet.solana.rpcUrl}`,
			...credential,
		},
	};
}

/** The Signer's output for the items; `then` adds a second Signer node after it (Check Payouts after List Payouts). */
async function signer(
	parameters: IDataObject,
	items: IDataObject[] = [{}],
	options: { then?: IDataObject; credential?: IDataObject } = {},
): Promise<IDataObject[]> {
	const nodes = [
		{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
		{
			name: 'Sign',
			type: SIGNER,
			parameters: { accountIndex: account, ...parameters } as never,
			continueOnFail: true,
		},
		...(options.then
			? [
					{
						name: 'Then',
						type: SIGNER,
						parameters: { accountIndex: account, ...options.then } as never,
						continueOnFail: true,
					},
				]
			: []),
	];
	const result = await runPipeline(nodes, credentials(options.credential));
	expect(result.error).toBeUndefined();
	return result.output(options.then ? 'Then' : 'Sign').map((item) => item.json);
}

const pay = async (payout: IDataObject) =>
	(
		await signer(
			{ operation: 'signTransaction', source: 'input', payoutId: '={{ $json.payoutId }}' },
			[{ chainId: CHAIN, ...payout }],
		)
	)[0];
const send = (raw: unknown) => devnet.rpc<string>(CHAIN, 'eth_sendRawTransaction', [raw]);
const receipt = (hash: unknown) =>
	devnet.rpc<{ blockNumber: string; gasUsed: string; effectiveGasPrice: string }>(
		CHAIN,
		'eth_getTransactionReceipt',
		[hash],
	);
const list = (parameters: IDataObject = {}, family = 'evm') =>
	signer({ chainFamily: family, operation: 'listPayouts', ...parameters });
const listAndCheck = (parameters: IDataObject = {}, family = 'evm') =>
	signer({ chainFamily: family, operation: 'listPayouts', ...parameters }, [{}], {
		then: { chainFamily: family, operation: 'checkPayouts' },
	});
const feeCeiling = (signed: IDataObject) =>
	(BigInt(signed.gasLimit as string) * BigInt(signed.maxFeePerGas as string)).toString();

describe.each(LEDGER_STORES)(
	'EVM on a %s ledger: mined, refused, unsent and replaced payouts',
	(kind) => {
		const to = (byte: string) => '0x' + byte.repeat(20);
		const signed: Record<string, IDataObject> = {};
		let start = '';
		/** Check Payouts' rows of every status, for the test of their columns. */
		const checkedRows: IDataObject[] = [];

		beforeAll(async () => {
			ledger = await stores.newLedger(kind);
			account = kind === 'folder' ? 11 : 12;
			start = new Date(Date.now() - 1000).toISOString();
			signed.mined = await pay({ payoutId: 'oct-1', to: to('a1'), value: '1000000000000' });
			await send(signed.mined.rawTransaction);
			await devnet.mine(CHAIN);
			// Above Max Per Transaction (0.00001): refused, nothing signed.
			signed.refused = await pay({ payoutId: 'oct-2', to: to('a2'), value: '20000000000000' });
			// Too low a fee to be mined; sped up, the replacement lands.
			signed.stuck = await pay({
				payoutId: 'oct-3',
				to: to('a3'),
				value: '3',
				maxFeePerGas: '1',
				maxPriorityFeePerGas: '0',
			});
			await send(signed.stuck.rawTransaction);
			await devnet.mine(CHAIN);
			[signed.replacement] = await signer({
				operation: 'speedUpPayout',
				chainId: CHAIN,
				payoutId: 'oct-3',
			});
			await send(signed.replacement.rawTransaction);
			await devnet.mine(CHAIN);
			// Signed, never sent.
			signed.unsent = await pay({ payoutId: 'nov-1', to: to('a4'), value: '4' });
			// The rerun of the mined payout: a repeat.
			signed.repeat = await pay({ payoutId: 'oct-1', to: to('a1'), value: '1000000000000' });
		}, 90_000);

		test('each signature, the refusal and the repeat are journaled once, oldest first, with exact amounts and fee ceilings', async () => {
			expect(signed.refused.error).toMatch(/^Refused by the rule "maxPerTransaction"/);
			expect(signed.replacement.error).toBeUndefined();
			expect(signed.repeat).toMatchObject({ repeat: true, chainStatus: 'mined' });
			const rows = await list();
			const account = String(signed.mined.from);
			expect(rows.map((row) => [row.seq, row.outcome, row.kind, row.payoutId])).toEqual([
				[1, 'signed', 'transaction', 'oct-1'],
				[2, 'refused', 'transaction', 'oct-2'],
				[3, 'signed', 'transaction', 'oct-3'],
				[4, 'signed', 'replacement', 'oct-3'],
				[5, 'signed', 'transaction', 'nov-1'],
				[6, 'repeat', 'transaction', 'oct-1'],
			]);
			expect(rows[0]).toEqual({
				seq: 1,
				at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
				outcome: 'signed',
				kind: 'transaction',
				family: 'evm',
				operation: 'signTransaction',
				payoutId: 'oct-1',
				chainId: CHAIN,
				account,
				proposer: '',
				action: 'transfer',
				recipient: to('a1'),
				asset: 'native',
				symbol: '',
				decimals: '18',
				amount: '1000000000000',
				amountWhole: '0.000001',
				movements: '1',
				feeCeiling: feeCeiling(signed.mined),
				feeCeilingWhole: expect.stringMatching(/^0\.\d+$/),
				transactionHash: signed.mined.transactionHash,
				nonce: String(signed.mined.nonce),
				replaces: '',
				rule: '',
				message: '',
				workflowId: expect.any(String),
				executionId: expect.any(String),
				node: 'Sign',
				custodian: '',
				custodianId: '',
				custodianStatus: '',
			});
			expect(rows[1]).toMatchObject({
				outcome: 'refused',
				rule: 'maxPerTransaction',
				message: String(signed.refused.error).replace(/ \(item 0\)$/, ''),
				recipient: to('a2'),
				amount: '20000000000000',
				amountWhole: '0.00002',
				transactionHash: '',
			});
			expect(rows[3]).toMatchObject({
				transactionHash: signed.replacement.transactionHash,
				replaces: signed.stuck.transactionHash,
				nonce: String(signed.stuck.nonce),
				feeCeiling: feeCeiling(signed.replacement),
				amount: '3',
				operation: 'speedUpPayout',
			});
			expect(rows[5]).toMatchObject({
				transactionHash: signed.mined.transactionHash,
				amount: '1000000000000',
			});
			expect(Date.parse(String(rows[0].at))).toBeGreaterThanOrEqual(Date.parse(start));
		});

		test('Check Payouts says what the chain says: mined with the receipt block and fee, refused, replaced, unsent', async () => {
			const rows = await listAndCheck();
			checkedRows.push(...rows);
			const mined = await receipt(signed.mined.transactionHash);
			const landed = await receipt(signed.replacement.transactionHash);
			const fee = (r: typeof mined) => (BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice)).toString();
			expect(
				rows.map((row) => [
					row.payoutId,
					row.chainStatus,
					row.block,
					row.success,
					row.feePaid,
					row.replacedBy,
				]),
			).toEqual([
				['oct-1', 'mined', BigInt(mined.blockNumber).toString(), 'true', fee(mined), ''],
				['oct-2', 'refused', '', '', '', ''],
				[
					'oct-3',
					'replaced',
					BigInt(landed.blockNumber).toString(),
					'',
					'',
					signed.replacement.transactionHash,
				],
				['oct-3', 'mined', BigInt(landed.blockNumber).toString(), 'true', fee(landed), ''],
				['nov-1', 'unsent', '', '', '', ''],
				['oct-1', 'mined', BigInt(mined.blockNumber).toString(), 'true', fee(mined), ''],
			]);
			expect(rows[0].feePaidWhole).toBe(`0.${fee(mined).padStart(18, '0')}`.replace(/0+$/, ''));
			// Sent now, it is pending until a block takes it.
			await send(signed.unsent.rawTransaction);
			const [pending] = await listAndCheck({ filters: { payoutIdPrefix: 'nov-' } });
			expect(pending.chainStatus).toBe('pending');
			checkedRows.push(pending);
			await devnet.mine(CHAIN);
			const [minedNow] = await listAndCheck({ filters: { payoutIdPrefix: 'nov-' } });
			expect(minedNow.chainStatus).toBe('mined');
		}, 60_000);

		test("Check Payouts believes the journal, not its input: an entry edited on its way (someone else's mined transaction, a made-up entry) is an error of the item, never mined", async () => {
			const [entry] = await list({ filters: { payoutIdPrefix: 'nov-' } });
			// A transaction of another account, mined on the devnet (signed without a ledger: not journaled).
			const other = (
				await signer(
					{ operation: 'signTransaction', source: 'input', accountIndex: 15 },
					[{ chainId: CHAIN, to: to('b1'), value: '7' }],
					{ credential: { ledgerStore: 'folder', payoutLedgerFolder: '' } },
				)
			)[0];
			await send(other.rawTransaction);
			await devnet.mine(CHAIN);
			const check = (items: IDataObject[]) => signer({ operation: 'checkPayouts' }, items);
			const [edited, madeUp] = await check([
				{ ...entry, transactionHash: other.transactionHash },
				{ ...entry, seq: 999 },
			]);
			expect(edited.error).toBe(
				`Check Payouts reads the entries List Payouts gives: the field "transactionHash" of entry ${String(entry.seq)} is not what the payout journal holds for it (item 0)`,
			);
			expect(madeUp.error).toBe(
				'Check Payouts reads the entries List Payouts gives: the payout journal has no entry 999 (item 1)',
			);
			for (const item of [edited, madeUp]) expect(item.chainStatus).toBeUndefined();
			// How it is checked is the journal's kind too: a row without it, or with it edited.
			const { kind, ...withoutKind } = entry;
			expect(kind).toBe('transaction');
			const rows = await check([withoutKind, { ...entry, kind: 'safeProposal' }]);
			for (const row of rows)
				expect(row).toMatchObject({
					kind: 'transaction',
					chainStatus: 'mined',
					success: 'true',
					transactionHash: entry.transactionHash,
				});
		}, 30_000);

		test('filters: status, payout ID prefix, chain, account and the date range', async () => {
			const ids = async (parameters: IDataObject) =>
				(await list(parameters)).map((row) => `${String(row.payoutId)}:${String(row.outcome)}`);
			expect(await ids({ status: 'refused' })).toEqual(['oct-2:refused']);
			expect(await ids({ status: 'signed' })).toEqual([
				'oct-1:signed',
				'oct-3:signed',
				'oct-3:signed',
				'nov-1:signed',
			]);
			expect(await ids({ status: 'repeat' })).toEqual(['oct-1:repeat']);
			expect(await ids({ filters: { payoutIdPrefix: 'oct-1' } })).toEqual([
				'oct-1:signed',
				'oct-1:repeat',
			]);
			expect(await ids({ filters: { chainId: '31338' } })).toEqual([]);
			expect(await ids({ filters: { chainId: CHAIN } })).toHaveLength(6);
			expect(
				await ids({ filters: { account: String(signed.mined.from).toLowerCase() } }),
			).toHaveLength(6);
			expect(await ids({ filters: { account: '0x' + '77'.repeat(20) } })).toEqual([]);
			const all = await list();
			const third = String(all[2].at);
			expect(await ids({ to: third })).toEqual(['oct-1:signed', 'oct-2:refused']);
			expect(await ids({ from: third, to: String(all[3].at) })).toEqual(['oct-3:signed']);
			expect(await ids({ from: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
			// A time without an offset (as n8n's date picker gives it) is in the workflow's time zone.
			const zone = getGlobalState().defaultTimezone;
			const wallTime = (iso: string) =>
				`${new Date(iso)
					.toLocaleString('sv-SE', {
						timeZone: zone,
						year: 'numeric',
						month: '2-digit',
						day: '2-digit',
						hour: '2-digit',
						minute: '2-digit',
						second: '2-digit',
					})
					.replace(' ', 'T')}.${iso.slice(20, 23)}`;
			expect(zone).not.toBe('UTC');
			expect(await ids({ to: wallTime(third) })).toEqual(['oct-1:signed', 'oct-2:refused']);
		});

		test('bad filters are errors of the item under Continue On Fail, before the journal is read; without a ledger nothing is journaled and the operations say so', async () => {
			const [badDate] = await list({ from: 'last tuesday' });
			expect(badDate.error).toBe(
				'The parameter "from" must be a date and time (e.g. 2026-10-01T00:00:00Z); got "last tuesday" (item 0)',
			);
			// Not ISO 8601: never read by guess (Date.parse reads "1" as the year 2001).
			const [guessed] = await list({ to: '1' });
			expect(guessed.error).toBe(
				'The parameter "to" must be a date and time (e.g. 2026-10-01T00:00:00Z); got "1" (item 0)',
			);
			const [badChain] = await list({ filters: { chainId: 'eth' } });
			expect(badChain.error).toBe(
				'The filter "chainId" must be a chain ID (digits); got "eth" (item 0)',
			);
			const [badAccount] = await list({ filters: { account: '0x1234' } });
			expect(badAccount.error).toMatch(/^The filter "account" must be an address/);
			const [backwards] = await list({ from: '2026-11-01T00:00:00Z', to: '2026-10-01T00:00:00Z' });
			expect(backwards.error).toBe('The parameter "from" must be before "to" (item 0)');
			const [forged] = await signer({ operation: 'checkPayouts' }, [
				{
					outcome: 'signed',
					family: 'evm',
					chainId: CHAIN,
					account: signed.mined.from,
					transactionHash: 'nope',
					nonce: '1',
				},
			]);
			expect(forged.error).toBe(
				'Check Payouts reads the entries List Payouts gives: the field "seq" must be the entry\'s number; got nothing (item 0)',
			);

			const none = { credential: { ledgerStore: 'folder', payoutLedgerFolder: '' } };
			const [noFolder] = await signer({ operation: 'listPayouts' }, [{}], none);
			expect(noFolder.error).toMatch(
				/^List Payouts reads the payout journal in the signing credential's payout ledger \(folder or PostgreSQL\), and the credential has none: nothing is journaled without it/,
			);
			const before = (await ledger.names()).length;
			const [unjournaled] = await signer(
				{ operation: 'signTransaction', source: 'input' },
				[{ chainId: CHAIN, to: to('a5'), value: '5' }],
				none,
			);
			expect(unjournaled.error).toBeUndefined();
			expect(unjournaled.journalError).toBeUndefined();
			expect(await ledger.names()).toHaveLength(before);
		});

		test('a transaction refused before the Signer knows what it moves (Expected From) is journaled with its rule', async () => {
			const stranger = '0x' + '5e'.repeat(20);
			const [refused] = await signer(
				{ operation: 'signTransaction', source: 'input', expectedFrom: stranger },
				[{ chainId: CHAIN, to: to('a7'), value: '7' }],
			);
			expect(refused.error).toMatch(/^Refused by the rule "expectedFrom"/);
			const rows = await list({ status: 'refused' });
			expect(rows[rows.length - 1]).toMatchObject({
				outcome: 'refused',
				kind: 'transaction',
				operation: 'signTransaction',
				rule: 'expectedFrom',
				message: String(refused.error).replace(/ \(item 0\)$/, ''),
			});
		});

		test('neither the outputs nor the journal hold the key', async () => {
			const outputs = JSON.stringify([await listAndCheck(), await list()]);
			const names = (await ledger.names()).filter((name) => name.startsWith('expand-journal'));
			const records = (await Promise.all(names.map((name) => ledger.read(name)))).join('\n');
			expect(records).toContain('oct-1');
			for (const text of [outputs, records]) {
				expect(text).not.toContain(MNEMONIC.split(' ').slice(0, 4).join(' '));
				expect(text).not.toMatch(/rawTransaction|privateKey|mnemonic/i);
			}
		});
		test("a record someone wrote at the journal's next number is passed over and listed unreadable; a journal that cannot be written leaves the signature standing and says so", async () => {
			const planted =
				(await ledger.names()).filter((name) => /^expand-journal-\d+\.json$/.test(name)).length + 1;
			await ledger.write(`expand-journal-${planted}.json`, 'not json');
			const paid = await pay({ payoutId: 'dec-1', to: to('a6'), value: '6' });
			expect(paid.error).toBeUndefined();
			expect(paid.rawTransaction).toMatch(/^0x/);
			expect(paid.journalError).toBeUndefined();
			const rows = await listAndCheck();
			expect(rows.slice(-2)).toMatchObject([
				{
					seq: planted,
					outcome: 'unreadable',
					chainStatus: 'unreadable',
					message: expect.stringMatching(/cannot be read/),
				},
				{
					seq: planted + 1,
					outcome: 'signed',
					payoutId: 'dec-1',
					transactionHash: paid.transactionHash,
				},
			]);
			await send(paid.rawTransaction);
			await devnet.mine(CHAIN);
			// The newest-number record says the journal reached an entry that is not there: it cannot be written.
			await ledger.writeHint('expand-journal-newest.json', JSON.stringify({ seq: planted + 50 }));
			const blocked = await pay({ payoutId: 'dec-2', to: to('a6'), value: '6' });
			expect(blocked.rawTransaction).toMatch(/^0x/);
			expect(blocked.journalError).toMatch(
				/^The payout journal could not record it: the payout journal entry .* is gone, though the log had reached it/,
			);
			// The payout ledger has it: the rerun is a repeat of the same signature.
			await ledger.writeHint('expand-journal-newest.json', JSON.stringify({ seq: planted + 1 }));
			const rerun = await pay({ payoutId: 'dec-2', to: to('a6'), value: '6' });
			expect([rerun.repeat, rerun.transactionHash, rerun.journalError]).toEqual([
				true,
				blocked.transactionHash,
				undefined,
			]);
		}, 30_000);
		test('a journal whose numbers jump far (an entry and the newest-number record planted) is listed at once: the gap is one unreadable row, the planted entry listed', async () => {
			const before = await list();
			const last = Number(before[before.length - 1].seq);
			const far = 1_000_000_000;
			const first = JSON.parse(String(await ledger.read('expand-journal-1.json'))) as IDataObject;
			await ledger.write(`expand-journal-${far}.json`, JSON.stringify({ ...first, seq: far }));
			await ledger.writeHint('expand-journal-newest.json', JSON.stringify({ seq: far }));
			const rows = await list();
			expect(rows.slice(0, before.length)).toEqual(before);
			expect(rows.slice(before.length)).toMatchObject([
				{
					seq: last + 1,
					outcome: 'unreadable',
					message: `entries ${last + 1} to ${far - 1} of the payout journal are missing from the payout ledger (the first 1000 were looked for, the rest not read); check ${ledger.place} by hand`,
				},
				{ seq: far, outcome: 'signed', payoutId: 'oct-1' },
			]);
			// Entries deleted below the newest: one row for the gap, the entries after it listed.
			await ledger.remove('expand-journal-2.json');
			await ledger.remove('expand-journal-3.json');
			const gapped = await list();
			expect(gapped.slice(0, 3)).toMatchObject([
				{ seq: 1, outcome: 'signed' },
				{
					seq: 2,
					outcome: 'unreadable',
					message: `entries 2 to 3 of the payout journal are missing from the payout ledger; check ${ledger.place} by hand`,
				},
				{ seq: 4, outcome: 'signed' },
			]);
		}, 30_000);

		test('every status has the same text columns: mined, pending, replaced, unsent, dropped, refused', async () => {
			// Signed and never sent; then another transaction takes its nonce: it can never land. Both
			// at the account's next nonce (an earlier test left a signature unsent holding its claim).
			const nonce = BigInt(
				await devnet.rpc<string>(CHAIN, 'eth_getTransactionCount', [signed.mined.from, 'latest']),
			).toString();
			const dropped = await pay({ payoutId: 'drop-1', to: to('a5'), value: '5', nonce });
			expect(dropped.error).toBeUndefined();
			// Signed without the ledger, as from another wallet holding the same key.
			const [taker] = await signer(
				{ operation: 'signTransaction', source: 'input' },
				[{ chainId: CHAIN, to: to('a6'), value: '6', nonce }],
				{ credential: { ledgerStore: 'folder', payoutLedgerFolder: '' } },
			);
			expect(taker.error).toBeUndefined();
			await send(taker.rawTransaction);
			await devnet.mine(CHAIN);
			// The journal's unreadable rows (planted above) are listed whatever the filters.
			const row = (await listAndCheck({ filters: { payoutIdPrefix: 'drop-' } })).find(
				(listed) => listed.payoutId === 'drop-1',
			);
			expect(row).toMatchObject({ payoutId: 'drop-1', chainStatus: 'dropped', success: '' });
			expect(expectStableColumns([...checkedRows, row as IDataObject])).toEqual([
				'dropped',
				'mined',
				'pending',
				'refused',
				'replaced',
				'unsent',
			]);
		}, 30_000);
	},
);

describe('Solana: mined and unsent', () => {
	test('a transfer sent is mined with its slot and fee; one never sent is unsent', async () => {
		const recipient = devnet.solana.wallets[2].address;
		const transfer = async (payoutId: string) =>
			(
				await signer({
					chainFamily: 'solana',
					accountIndex: 0,
					operation: 'transferSol',
					solanaChainId: '901',
					payoutId,
					recipient,
					amount: '1500000000',
				})
			)[0];
		const [refused] = await signer({
			chainFamily: 'solana',
			accountIndex: 0,
			operation: 'transferSol',
			solanaChainId: '901',
			recipient,
			amount: '1',
			expectedFrom: devnet.solana.wallets[2].address,
		});
		expect(refused.error).toMatch(/^Refused by the rule "expectedFrom"/);
		const [journaled] = await list({ status: 'refused' }, 'solana');
		expect(journaled).toMatchObject({
			outcome: 'refused',
			kind: 'transaction',
			operation: 'transferSol',
			rule: 'expectedFrom',
		});
		const sent = await transfer('sol-1');
		expect(sent.error).toBeUndefined();
		devnet.solana.chain.sendBase64(String(sent.rawTransaction));
		const unsent = await transfer('sol-2');
		const rows = await listAndCheck({ status: 'signed' }, 'solana');
		expect(
			rows.map((row) => [
				row.payoutId,
				row.outcome,
				row.asset,
				row.symbol,
				row.amount,
				row.amountWhole,
				row.chainStatus,
			]),
		).toEqual([
			['sol-1', 'signed', 'native', 'SOL', '1500000000', '1.5', 'mined'],
			['sol-2', 'signed', 'native', 'SOL', '1500000000', '1.5', 'unsent'],
		]);
		expect(rows[0]).toMatchObject({
			transactionHash: sent.transactionHash,
			nonce: sent.blockhash,
			feeCeiling: sent.feeLamports,
			feePaid: expect.stringMatching(/^\d+$/),
			block: expect.stringMatching(/^\d+$/),
			success: 'true',
		});
		expect(rows[1].transactionHash).toBe(unsent.transactionHash);
		// The EVM Signer lists only its own family's entries, and refuses to check another's.
		const [other] = await signer({ operation: 'checkPayouts' }, [rows[0]]);
		expect(other.error).toBe(
			'The entry was signed in the chain family "solana"; check it with an Expand Signer of that family (item 0)',
		);
	}, 60_000);
});
