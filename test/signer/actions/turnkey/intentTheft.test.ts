/**
 * Through a Turnkey key, the Signer's policy runs before any request to Turnkey: an Expand write whose
 * transaction is not what its form asked (a hostile API substituting the recipient or multiplying the
 * amount) is refused with no request to Turnkey (EVM and Solana); a rerun that resends a payout's kept
 * request meets Require Intent as the first run did; and the payout journal records Turnkey's activity
 * (its `status` entries and the signed entry name the custodian, the activity and its status).
 */
import { generateKeyPairSigner } from '@solana/kit';
import { Wallet } from 'ethers';
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { devnetExpandApi } from '../../../helpers/devnetCredentials';
import { ledgerFolder } from '../../../helpers/ledgerFolder';
import { EXPAND, ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { startTamperingApi, type Tampering } from '../../../helpers/tamperingApi';
import { useDevnet } from '../../../helpers/useDevnet';
import {
	runSigner,
	signRequests,
	solanaUsdcFromTurnkey,
	turnkeyCounters,
	turnkeyKey,
} from './turnkeyRun';

const EVM_CHAIN = '31337';
const folder = ledgerFolder('expand-turnkey-intent-');

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const turnkey = (signWith: string, data: IDataObject = {}) =>
	turnkeyKey(devnet, signWith, folder, data);
const evmKey = (data: IDataObject = {}) => ({
	expandSignerApi: turnkey(devnet.turnkey.accounts.evm, data),
});
const solanaKey = (data: IDataObject = {}) => ({
	expandSolanaKeyApi: turnkey(devnet.turnkey.accounts.solana, data),
});

const counters = () => turnkeyCounters(devnet);

/** Expand (version 2) builds through a hostile API, then the Signer signs From Input Item. */
async function expandThenSign(
	tampering: Tampering,
	form: INodeParameters,
	sign: INodeParameters,
	key: Record<string, ICredentialDataDecryptedObject>,
): Promise<IDataObject> {
	const api = await startTamperingApi(devnet.baseUrl, tampering);
	try {
		const result = await runPipeline(
			[
				{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{}]) } },
				{ name: 'Build', type: EXPAND, typeVersion: 2, parameters: form },
				{ name: 'Sign', type: SIGNER, parameters: sign, continueOnFail: true },
			],
			{ expandApi: devnetExpandApi(devnet, { baseUrl: api.url }), ...key },
		);
		if (result.error) throw result.error;
		return result.output('Sign')[0].json;
	} finally {
		await api.close();
	}
}

/** The Signer alone on `items`: its outputs. */
const signItems = (
	items: IDataObject[],
	sign: INodeParameters,
	key: Record<string, ICredentialDataDecryptedObject>,
) => runSigner(devnet, items, sign, key);

const SIGN_EVM = { operation: 'signTransaction', source: 'input' };
const SIGN_SOLANA = { chainFamily: 'solana', solanaChainId: '901', operation: 'signTransaction' };

const evmUsdc = () =>
	(devnet.chains.find((chain) => chain.chainId === EVM_CHAIN) as Devnet['chains'][number]).tokens
		.USDC.address;

/** The EVM form: 1 USDC from the Turnkey account to `to`. */
const evmForm = (to: string) => ({
	resource: 'fungibletoken',
	operation: 'transfer',
	chainId: EVM_CHAIN,
	from: devnet.turnkey.accounts.evm,
	to,
	tokenAddress: evmUsdc(),
	amount: '1',
	gas: '80000',
});

/** The Solana form: 1 USDC (smallest units 1,000,000) from the Turnkey account to `destination`. */
const solanaForm = (destination: string) => ({
	resource: 'fungibletoken',
	operation: 'transfer',
	...solanaUsdcFromTurnkey(devnet, destination),
	amountsIn: 'smallest',
});

describe('an Expand write whose transaction is not what its form asked is refused before any request to Turnkey', () => {
	test('EVM: the recipient substituted', async () => {
		const asked = Wallet.createRandom().address;
		const thief = Wallet.createRandom().address;
		const before = counters();
		const signed = await expandThenSign(
			{
				request: (path, body) =>
					path === '/fungibletoken/transfer' ? { ...body, to: thief } : undefined,
			},
			evmForm(asked),
			SIGN_EVM,
			evmKey(),
		);
		expect(signed.error).toBe(
			`Refused by the rule "intent": the transaction is not what the form asked (fungibletoken/transfer): recipient: asked ${asked}, the transaction pays ${thief}; nothing was signed (item 0)`,
		);
		expect(counters()).toEqual(before);
	});

	test('EVM: the amount multiplied', async () => {
		const asked = Wallet.createRandom().address;
		const before = counters();
		const signed = await expandThenSign(
			{
				request: (path, body) =>
					path === '/fungibletoken/transfer' ? { ...body, amount: '1000000000' } : undefined,
			},
			evmForm(asked),
			SIGN_EVM,
			evmKey(),
		);
		expect(signed.error).toBe(
			'Refused by the rule "intent": the transaction is not what the form asked (fungibletoken/transfer): amount: asked 1000000 (smallest unit), the transaction moves 1000000000 (smallest unit); nothing was signed (item 0)',
		);
		expect(counters()).toEqual(before);
	});

	test('Solana: the recipient substituted', async () => {
		const asked = (await generateKeyPairSigner()).address;
		const thief = (await generateKeyPairSigner()).address;
		const before = counters();
		const signed = await expandThenSign(
			{
				request: (path, body) =>
					path === '/fungibletoken/transfer' ? { ...body, destination: thief } : undefined,
			},
			solanaForm(asked),
			SIGN_SOLANA,
			solanaKey(),
		);
		expect(signed.error).toMatch(
			`Refused by the rule "intent": the transaction is not what the form asked (fungibletoken/transfer): recipient: asked ${asked}, the transaction pays ${thief};`,
		);
		expect(signed.error).toMatch(/nothing was signed \(item 0\)$/);
		expect(counters()).toEqual(before);
	});

	test('Solana: the amount multiplied', async () => {
		const asked = (await generateKeyPairSigner()).address;
		const before = counters();
		const signed = await expandThenSign(
			{
				request: (path, body) =>
					path === '/fungibletoken/transfer' ? { ...body, amount: '5000000000' } : undefined,
			},
			solanaForm(asked),
			SIGN_SOLANA,
			solanaKey(),
		);
		expect(signed.error).toMatch(
			/^Refused by the rule "intent": the transaction is not what the form asked \(fungibletoken\/transfer\): amount: asked 1000000 \(smallest unit\), the transaction moves 5000000000 \(smallest unit\)/,
		);
		expect(counters()).toEqual(before);
	});
});

/** What the API builds for a form, without the intent an Expand node puts beside it. */
async function builtWithoutIntent(path: string, body: IDataObject): Promise<IDataObject> {
	const built = await fetch(`${devnet.baseUrl}${path}`, {
		method: 'POST',
		headers: { 'x-api-key': devnet.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return ((await built.json()) as { data: IDataObject }).data;
}

describe('a rerun that resends a kept request meets Require Intent as the first run did', () => {
	test('EVM: signed unbound under Require Intent Never, its answer lost; rerun under Always: refused, nothing sent to Turnkey', async () => {
		const { data } = {
			data: await builtWithoutIntent('/fungibletoken/transfer', {
				chainId: EVM_CHAIN,
				from: devnet.turnkey.accounts.evm,
				to: Wallet.createRandom().address,
				tokenAddress: evmUsdc(),
				amount: '1000000',
				gas: '80000',
			}),
		};
		const item = { ...data, payoutId: 'tk-unbound-evm' };
		const sign = { ...SIGN_EVM, payoutId: '={{ $json.payoutId }}' };
		const before = counters();
		devnet.turnkey.faults.dropNextSignAnswer(3);
		const [lost] = await signItems([item], sign, evmKey({ requireIntent: 'never' }));
		expect(lost.error).toMatch(/Turnkey did not answer \/public\/v1\/submit\/sign_transaction/);
		expect(signRequests(devnet, before.requests)).toHaveLength(3);
		const kept = counters();
		const [rerun] = await signItems([item], sign, evmKey({ requireIntent: 'always' }));
		expect(rerun.error).toMatch(
			/^Refused by the rule "requireIntent": the transaction arrived without the intent/,
		);
		expect(counters()).toEqual(kept);
		// Under the rule it signed with, the rerun picks the kept request up: one activity.
		const [signed] = await signItems([item], sign, evmKey({ requireIntent: 'never' }));
		expect(signed).toMatchObject({ repeat: false, payoutId: 'tk-unbound-evm' });
		expect(counters().activities).toBe(before.activities + 1);
		expect(counters().signatures).toBe(before.signatures + 1);
		// Sent, so its nonce is no longer held for the account's next payout.
		await devnet.rpc(EVM_CHAIN, 'eth_sendRawTransaction', [signed.rawTransaction]);
	});

	test('Solana: signed unbound under Require Intent Never, its answer lost; rerun under Always: refused, nothing sent to Turnkey', async () => {
		const data = await builtWithoutIntent('/fungibletoken/transfer', solanaUsdcFromTurnkey(devnet));
		const item = { ...data, payoutId: 'tk-unbound-sol' };
		const sign = { ...SIGN_SOLANA, payoutId: '={{ $json.payoutId }}' };
		const before = counters();
		devnet.turnkey.faults.dropNextSignAnswer(3);
		const [lost] = await signItems([item], sign, solanaKey({ requireIntent: 'never' }));
		expect(lost.error).toMatch(/Turnkey did not answer \/public\/v1\/submit\/sign_transaction/);
		const kept = counters();
		const [rerun] = await signItems([item], sign, solanaKey({ requireIntent: 'always' }));
		expect(rerun.error).toMatch(
			/^Refused by the rule "requireIntent": the transaction arrived without the intent/,
		);
		expect(counters()).toEqual(kept);
		const [signed] = await signItems([item], sign, solanaKey({ requireIntent: 'never' }));
		expect(signed).toMatchObject({ repeat: false, payoutId: 'tk-unbound-sol' });
		expect(counters().activities).toBe(before.activities + 1);
		expect(counters().signatures).toBe(before.signatures + 1);
	});
});

test("the journal records Turnkey's activity: one status entry per status seen, and the signed entry naming the custodian, the activity and its status", async () => {
	const to = Wallet.createRandom().address;
	const before = counters();
	const [paid] = await signItems(
		[{ payoutId: 'tk-journal' }],
		{
			operation: 'signTransaction',
			source: 'fields',
			chainId: EVM_CHAIN,
			to,
			value: '1000',
			payoutId: '={{ $json.payoutId }}',
		},
		evmKey(),
	);
	expect(paid.error).toBeUndefined();
	const activity = devnet.turnkey.activities()[before.activities];
	const entries = (await signItems([{}], { operation: 'listPayouts' }, evmKey())).filter(
		(entry) => entry.payoutId === 'tk-journal',
	);
	const statuses = entries.filter((entry) => entry.outcome === 'status');
	expect(statuses.length).toBeGreaterThan(0);
	for (const entry of statuses)
		expect(entry).toMatchObject({
			custodian: 'turnkey',
			custodianId: activity.id,
			account: devnet.turnkey.accounts.evm,
			chainId: EVM_CHAIN,
		});
	expect(statuses.map((entry) => entry.custodianStatus)).toEqual([
		...new Set(statuses.map((entry) => entry.custodianStatus)),
	]);
	expect(statuses[statuses.length - 1].custodianStatus).toBe('ACTIVITY_STATUS_COMPLETED');
	const signed = entries.filter((entry) => entry.outcome === 'signed');
	expect(signed).toHaveLength(1);
	expect(signed[0]).toMatchObject({
		custodian: 'turnkey',
		custodianId: activity.id,
		custodianStatus: 'ACTIVITY_STATUS_COMPLETED',
		transactionHash: paid.transactionHash,
	});
});
