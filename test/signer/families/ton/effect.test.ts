/**
 * What a TON transfer does, as the spending policy reads it: one test per rule. Every message's TON goes
 * to its destination; a jetton transfer or burn through the sender's own jetton wallet moves the master's
 * jetton; what cannot be read is opaque; a mode that empties or destroys the wallet is refused always.
 */
import { Address, beginCell, type Cell } from '@ton/core';

import {
	commentBody,
	JETTON_BURN,
	jettonTransferBody,
	TON_POLICY_FORMAT,
	tonEffect,
	type TonOutMessage,
	UndecodableTonTransaction,
} from '../../../../packages/signer/nodes/ExpandSigner/families/ton';
import { transactionRefusal } from '../../../../packages/signer/nodes/ExpandSigner/policy/check';
import { readPolicy } from '../../../../packages/signer/nodes/ExpandSigner/policy/policy';
import { devnetKeyring } from './fixtures';

const account = devnetKeyring('W5').account(0, '1100');
const SENDER = account.address;
const RECIPIENT = '0:' + '11'.repeat(32);
const MASTER = '0:' + '3a'.repeat(32);
const JETTON_WALLET = '0:' + '4b'.repeat(32);
const STRANGER_WALLET = '0:' + '5c'.repeat(32);
const OWN = new Map([[JETTON_WALLET, MASTER]]);

const effectOf = (...messages: TonOutMessage[]) =>
	tonEffect({ chainId: '1100', seqno: 1, validUntil: 1_900_000_000, messages }, account, OWN);
const send = (to: string, value: bigint, extra: Partial<TonOutMessage> = {}): TonOutMessage => ({
	to,
	value,
	bounce: true,
	mode: 3,
	...extra,
});
const jettonTransfer = (p: { comment?: string; response?: string } = {}) =>
	jettonTransferBody({
		queryId: 1n,
		amount: 2_500_000n,
		destination: RECIPIENT,
		responseDestination: p.response ?? SENDER,
		forwardTonAmount: 1n,
		comment: p.comment,
	});
const policy = (fields: Record<string, string | boolean> = {}) =>
	readPolicy(fields, TON_POLICY_FORMAT, undefined);
const refusalOf = (messages: TonOutMessage[], fields: Record<string, string | boolean> = {}) =>
	transactionRefusal(policy(fields), effectOf(...messages), false);

test("every message's TON is a native movement to its destination, summed by the per-transaction limit", () => {
	const effect = effectOf(
		send(RECIPIENT, 400_000_000n),
		send(RECIPIENT, 700_000_000n, { bounce: false }),
	);
	expect(effect).toEqual({
		chainId: '1100',
		from: SENDER,
		movements: [
			{
				asset: 'native',
				recipient: RECIPIENT,
				amount: 400_000_000n,
				via: 'TON transfer',
				action: 'transfer',
			},
			{
				asset: 'native',
				recipient: RECIPIENT,
				amount: 700_000_000n,
				via: 'TON transfer',
				action: 'transfer',
			},
		],
		opaque: [],
		// Forwarding the two messages and importing the external message that carries them.
		maxFee: 3_373_200n,
	});
	expect(
		refusalOf([send(RECIPIENT, 400_000_000n), send(RECIPIENT, 700_000_000n)], {
			maxPerTransaction: 'native = 1',
		})?.rule,
	).toBe('maxPerTransaction');
	expect(
		refusalOf([send(RECIPIENT, 400_000_000n)], { maxPerTransaction: 'native = 1' }),
	).toBeUndefined();
});

test('a text comment is the memo of its movement', () => {
	expect(effectOf(send(RECIPIENT, 5n, { body: commentBody('payout 77') })).movements).toEqual([
		{
			asset: 'native',
			recipient: RECIPIENT,
			amount: 5n,
			via: 'TON transfer',
			action: 'transfer',
			memo: 'payout 77',
		},
	]);
});

test("a jetton transfer through the sender's own jetton wallet moves the master's jetton, its TON a cost within Max Total Fee", () => {
	const message = send(JETTON_WALLET, 50_000_000n, { body: jettonTransfer({ comment: 'inv 5' }) });
	const effect = effectOf(message);
	expect(effect.movements).toEqual([
		{
			asset: MASTER,
			recipient: RECIPIENT,
			amount: 2_500_000n,
			via: 'jetton transfer',
			action: 'transfer',
			contract: MASTER,
			memo: 'inv 5',
		},
		{
			asset: 'native',
			recipient: RECIPIENT,
			amount: 50_000_000n,
			via: 'TON attached to a jetton transfer',
			action: 'transfer',
			cost: true,
		},
	]);
	// The attached TON and the forwarding of the message and its import.
	expect([effect.opaque, effect.maxFee]).toEqual([[], 50_000_000n + 2_866_400n]);
	// Max Total Fee (0.5 TON unless set) bounds the attached TON.
	// Under a recipient list the jetton must be known, as a TRC-20 or ERC-20 token: by a limit line or listed.
	expect(refusalOf([message], { allowedRecipients: RECIPIENT })?.rule).toBe('allowedContracts');
	expect(
		refusalOf([message], { allowedRecipients: RECIPIENT, allowedContracts: MASTER }),
	).toBeUndefined();
	expect(
		refusalOf([message], { allowedRecipients: RECIPIENT, maxPerTransaction: `${MASTER}:6 = 10` }),
	).toBeUndefined();
	const heavy = send(JETTON_WALLET, 600_000_000n, { body: jettonTransfer() });
	expect(refusalOf([heavy])?.message).toBe(
		'Refused by the rule "maxTotalFee": the fee can reach 0.6027288 native units (602728800 nanoton), above the limit of 0.5; nothing was signed',
	);
	expect(refusalOf([heavy], { maxTotalFee: '1' })).toBeUndefined();
	// Limit lines name the jetton by its master, in any form.
	const friendlyMaster = Address.parse(MASTER).toString({ bounceable: true });
	expect(refusalOf([message], { maxPerTransaction: `${friendlyMaster}:6 = 2` })?.rule).toBe(
		'maxPerTransaction',
	);
	expect(refusalOf([message], { maxPerTransaction: `${MASTER}:6 = 2.5` })).toBeUndefined();
});

test('a jetton burn moves the jetton to its master', () => {
	const burn = beginCell()
		.storeUint(JETTON_BURN, 32)
		.storeUint(0, 64)
		.storeCoins(10)
		.storeAddress(Address.parse(SENDER))
		.storeMaybeRef(null)
		.endCell();
	const effect = effectOf(send(JETTON_WALLET, 30_000_000n, { body: burn }));
	expect(effect.movements[0]).toEqual({
		asset: MASTER,
		recipient: MASTER,
		amount: 10n,
		via: 'jetton burn',
		action: 'transfer',
		contract: MASTER,
	});
	expect(effect.movements[1]).toMatchObject({
		asset: 'native',
		cost: true,
		via: 'TON attached to a jetton burn',
	});
});

test("a jetton body to a jetton wallet not shown to be the sender's is opaque", () => {
	const effect = effectOf(send(STRANGER_WALLET, 50_000_000n, { body: jettonTransfer() }));
	expect(effect.movements).toEqual([
		{
			asset: 'native',
			recipient: STRANGER_WALLET,
			amount: 50_000_000n,
			via: 'TON transfer',
			action: 'transfer',
		},
	]);
	expect(effect.opaque).toEqual([
		{
			to: STRANGER_WALLET,
			what: `a jetton transfer from a jetton wallet not shown to be the sender's (${STRANGER_WALLET})`,
		},
	]);
	expect(
		refusalOf([send(STRANGER_WALLET, 1n, { body: jettonTransfer() })], {
			maxPerTransaction: 'native = 1',
		})?.rule,
	).toBe('allowedContracts');
});

test('a jetton transfer whose leftover TON goes elsewhere than the sender is opaque', () => {
	const effect = effectOf(
		send(JETTON_WALLET, 1n, { body: jettonTransfer({ response: RECIPIENT }) }),
	);
	expect(effect.movements.map((movement) => movement.asset)).toEqual(['native']);
	expect(effect.opaque).toEqual([
		{
			to: JETTON_WALLET,
			what: `a jetton transfer whose leftover TON goes to ${RECIPIENT}, not the sender (jetton wallet ${JETTON_WALLET})`,
		},
	]);
});

test('a jetton wallet call sent without bounce is opaque', () => {
	const effect = effectOf(send(JETTON_WALLET, 1n, { bounce: false, body: jettonTransfer() }));
	expect(effect.movements.map((movement) => movement.asset)).toEqual(['native']);
	expect(effect.opaque[0].what).toMatch(/^a jetton wallet call sent without bounce/);
});

test('a jetton transfer with a custom payload is opaque; one notifying with a payload other than a comment is also an opaque call to its recipient', () => {
	const custom = beginCell()
		.storeUint(0x0f8a7ea5, 32)
		.storeUint(0, 64)
		.storeCoins(1)
		.storeAddress(Address.parse(RECIPIENT))
		.storeAddress(Address.parse(SENDER))
		.storeMaybeRef(beginCell().storeUint(1, 8).endCell())
		.storeCoins(0)
		.storeBit(false)
		.endCell();
	expect(effectOf(send(JETTON_WALLET, 1n, { body: custom })).opaque[0].what).toMatch(
		/custom payload/,
	);
	const swap: Cell = beginCell()
		.storeUint(0x0f8a7ea5, 32)
		.storeUint(0, 64)
		.storeCoins(1)
		.storeAddress(Address.parse(RECIPIENT))
		.storeAddress(Address.parse(SENDER))
		.storeBit(false)
		.storeCoins(1)
		.storeBit(true)
		.storeRef(beginCell().storeUint(0x25938561, 32).endCell())
		.endCell();
	const effect = effectOf(send(JETTON_WALLET, 1n, { body: swap }));
	expect(effect.movements[0]).toMatchObject({ asset: MASTER, recipient: RECIPIENT, amount: 1n });
	expect(effect.opaque).toEqual([
		{
			to: RECIPIENT,
			what: `a jetton transfer notifying ${RECIPIENT} with a payload that is not a text comment, which the recipient may act on`,
		},
	]);
});

test('any other body is an opaque call to its destination', () => {
	const effect = effectOf(
		send(RECIPIENT, 3n, { body: beginCell().storeUint(0x12345678, 32).endCell() }),
	);
	expect(effect.opaque).toEqual([
		{
			to: RECIPIENT,
			what: `a message to ${RECIPIENT} whose body is neither a text comment nor a jetton transfer`,
		},
	]);
	expect(
		refusalOf([send(RECIPIENT, 3n, { body: beginCell().storeUint(1, 32).endCell() })], {
			allowedRecipients: RECIPIENT,
		}),
	).toBeUndefined();
	expect(
		refusalOf([send(RECIPIENT, 3n, { body: beginCell().storeUint(1, 32).endCell() })], {
			maxPerTransaction: 'native = 1',
		})?.rule,
	).toBe('allowedContracts');
});

test('a mode that carries the whole balance or destroys the wallet hands it over, refused whatever the policy says', () => {
	for (const [mode, words] of [
		[128, "carries the wallet's whole balance (+128)"],
		[130, "carries the wallet's whole balance (+128)"],
		[35, 'destroys the wallet once its balance is zero (+32)'],
		[
			160,
			"carries the wallet's whole balance (+128) and destroys the wallet once its balance is zero (+32)",
		],
	] as const) {
		const message = send(RECIPIENT, 0n, { mode });
		expect(effectOf(message).handsOver).toBe(
			`sends to ${RECIPIENT} with mode ${mode}, which ${words}`,
		);
		for (const fields of [
			{} as Record<string, string>,
			{ allowedRecipients: RECIPIENT, maxPerTransaction: 'native = 1000' },
		])
			expect(refusalOf([message], fields)?.message).toBe(
				`Refused by the rule "handsOver": the transaction sends to ${RECIPIENT} with mode ${mode}, which ${words}, which hands the account over or empties it; the signer never signs that, whatever the policy says; nothing was signed`,
			);
	}
	expect(effectOf(send(RECIPIENT, 0n, { mode: 3 })).handsOver).toBeUndefined();
});

test('a send mode with any flag but +1, +2, +32 and +128 is refused as unreadable', () => {
	for (const mode of [64, 16, 4, 66])
		expect(() => effectOf(send(RECIPIENT, 1n, { mode }))).toThrow(
			new UndecodableTonTransaction(
				`The TON message to ${RECIPIENT} has send mode ${mode}, whose flags the signer does not read (only +1 and +2 are signed)`,
			),
		);
});

test('a state init deploys a contract: refused under a spending rule unless Allow Contract Deployment', () => {
	const init = beginCell()
		.storeUint(0b00110, 5)
		.storeRef(beginCell().endCell())
		.storeRef(beginCell().endCell())
		.endCell();
	const message = send(RECIPIENT, 1n, { stateInit: init });
	expect(effectOf(message).deploys).toBe(true);
	expect(effectOf(send(RECIPIENT, 1n)).deploys).toBeUndefined();
	expect(refusalOf([message], { maxPerTransaction: 'native = 1' })?.rule).toBe(
		'allowContractDeployment',
	);
	expect(
		refusalOf([message], {
			maxPerTransaction: 'native = 1',
			allowContractDeployment: true,
		}),
	).toBeUndefined();
});

test('a jetton comment is no memo when forward_ton_amount is 0: the jetton wallet then sends its recipient no notification carrying it', () => {
	const silent = jettonTransferBody({
		queryId: 1n,
		amount: 2_500_000n,
		destination: RECIPIENT,
		responseDestination: SENDER,
		forwardTonAmount: 0n,
		comment: 'deposit 42',
	});
	const [jetton] = effectOf(send(JETTON_WALLET, 50_000_000n, { body: silent })).movements;
	expect(jetton).toMatchObject({ asset: MASTER, amount: 2_500_000n });
	expect(jetton.memo).toBeUndefined();
	expect(
		effectOf(send(JETTON_WALLET, 50_000_000n, { body: jettonTransfer({ comment: 'deposit 42' }) }))
			.movements[0].memo,
	).toBe('deposit 42');
});
