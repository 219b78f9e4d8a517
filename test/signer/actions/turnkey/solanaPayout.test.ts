/**
 * Solana payouts (Transfer SOL on the devnet's chain 901) signed by a Turnkey wallet account on the
 * devnet's Turnkey stand-in and sent through Expand's send: the transfer lands once, a rerun makes no
 * new activity, a lost answer's rerun resends the kept request, and an answer that is not the message
 * sent signed by Sign With is refused.
 */
import { generateKeyPairSync, sign } from 'crypto';

import { address, generateKeyPairSigner } from '@solana/kit';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { ledgerFolder } from '../../../helpers/ledgerFolder';
import { signAndSend } from '../../../helpers/signAndSend';
import { useDevnet } from '../../../helpers/useDevnet';
import { startLyingTurnkey } from './lyingTurnkey';
import { turnkeyCounters, turnkeyKey } from './turnkeyRun';

const folder = ledgerFolder('expand-turnkey-solana-');

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const solanaKey = (data: IDataObject = {}) =>
	turnkeyKey(devnet, devnet.turnkey.accounts.solana, folder, data);

const pay = async (payoutId: string, recipient: string, data: IDataObject = {}) =>
	await signAndSend(
		[{ payoutId }],
		{
			chainFamily: 'solana',
			solanaChainId: '901',
			operation: 'transferSol',
			recipient,
			amount: '1000000',
			payoutId: '={{ $json.payoutId }}',
		} as INodeParameters,
		devnetCredentials(devnet, { solana: solanaKey(data) }),
	);

const balance = (recipient: string) => devnet.solana.chain.balance(address(recipient));
const counters = () => turnkeyCounters(devnet);

test('a SOL payout signed by Turnkey lands once; its rerun returns the repeat with no new activity or signature', async () => {
	const payee = (await generateKeyPairSigner()).address;
	const before = counters();
	const first = await pay('tk-sol-1', payee);
	expect(first.signed[0]).toMatchObject({
		payoutId: 'tk-sol-1',
		repeat: false,
		from: devnet.turnkey.accounts.solana,
	});
	expect(first.sent[0].transactionHash).toBe(first.signed[0].transactionHash);
	expect(await balance(payee)).toBe(1_000_000n);
	expect(counters().signatures).toBe(before.signatures + 1);

	const again = await pay('tk-sol-1', payee);
	expect(again.signed[0]).toMatchObject({
		repeat: true,
		transactionHash: first.signed[0].transactionHash,
	});
	expect(await balance(payee)).toBe(1_000_000n);
	expect(counters().activities).toBe(before.activities + 1);
	expect(counters().signatures).toBe(before.signatures + 1);
});

test('a lost sign answer, then a rerun: the kept request is resent byte for byte, one activity, one signature, paid once', async () => {
	const payee = (await generateKeyPairSigner()).address;
	const before = counters();
	devnet.turnkey.faults.dropNextSignAnswer(3);
	const lost = await pay('tk-sol-lost', payee);
	expect(lost.signed[0].error).toMatch(
		/Turnkey did not answer \/public\/v1\/submit\/sign_transaction/,
	);
	const rerun = await pay('tk-sol-lost', payee);
	expect(rerun.signed[0]).toMatchObject({ repeat: false, payoutId: 'tk-sol-lost' });
	const bodies = devnet.turnkey
		.requests()
		.slice(before.requests)
		.filter((request) => request.path === '/public/v1/submit/sign_transaction')
		.map((request) => request.body);
	expect(bodies).toHaveLength(4);
	expect(new Set(bodies).size).toBe(1);
	expect(counters().activities).toBe(before.activities + 1);
	expect(counters().signatures).toBe(before.signatures + 1);
	expect(rerun.sent[0].transactionHash).toBe(rerun.signed[0].transactionHash);
	expect(await balance(payee)).toBe(1_000_000n);
});

test('an off-policy recipient is refused with no request to Turnkey', async () => {
	const before = counters();
	const allowed = (await generateKeyPairSigner()).address;
	const outsider = (await generateKeyPairSigner()).address;
	const refused = await pay('tk-sol-off', outsider, { allowedRecipients: allowed });
	expect(refused.signed[0].error).toMatch(/^Refused by the rule "allowedRecipients"/);
	expect(counters()).toEqual(before);
});

/** The wire transaction's parts: one signature (the Turnkey account is the only signer, slot 0), then the message. */
const wireParts = (signedHex: string) => {
	const bytes = Buffer.from(signedHex.replace(/^0x/, ''), 'hex');
	expect(bytes[0]).toBe(1);
	return { signature: bytes.subarray(1, 65), message: bytes.subarray(65) };
};

test.each([
	[
		'of other message bytes (its last byte changed)',
		(signedHex: string) => {
			const { signature, message } = wireParts(signedHex);
			const changed = Buffer.from(message);
			changed[changed.length - 1] ^= 1;
			return Buffer.concat([Buffer.from([1]), signature, changed]).toString('hex');
		},
		'its message is not the one sent (other instructions, accounts or blockhash)',
	],
	[
		'signed by another key',
		(signedHex: string) => {
			const { message } = wireParts(signedHex);
			const other = generateKeyPairSync('ed25519').privateKey;
			return Buffer.concat([Buffer.from([1]), sign(null, message, other), message]).toString('hex');
		},
		'it carries no valid signature of Sign With',
	],
])(
	"Turnkey's answer %s is refused naming the activity; nothing is sent",
	async (what, rewrite, words) => {
		const lying = await startLyingTurnkey(devnet.turnkey.url, rewrite);
		try {
			const payee = (await generateKeyPairSigner()).address;
			const before = counters();
			const lied = await pay(`tk-sol-lie-${what.length}`, payee, { baseUrl: lying.url });
			const activity = devnet.turnkey.activities()[before.activities];
			expect(lied.signed[0].error).toBe(
				`Refused by the rule "turnkey": Turnkey's answer to activity ${activity.id} is not the transaction the Signer sent, signed by Sign With: ${words}${words.endsWith('Sign With') ? ` ${devnet.turnkey.accounts.solana} in its slot` : ''}; nothing was signed (item 0)`,
			);
			expect(lied.sent[0].transactionHash).toBeUndefined();
			expect(await balance(payee)).toBe(0n);
		} finally {
			await lying.close();
		}
	},
);
