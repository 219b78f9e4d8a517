/**
 * Tron payouts (Transfer TRX and Transfer TRC-20 on the devnet's chain 1001) signed by a Turnkey wallet
 * account on the devnet's Turnkey stand-in (TRANSACTION_TYPE_TRON: raw_data's bytes in, the signed
 * protobuf Transaction out) and sent through Expand's send: each lands once, a rerun and a lost answer
 * make one activity and one signature, an answer that is not the raw_data sent signed by Sign With is
 * refused, and an off-policy recipient sends nothing to Turnkey.
 */
import { SigningKey, Wallet, sha256 } from 'ethers';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet, DevnetTron } from '../../../../devnet';
import {
	base58Address,
	hexAddress,
	readSignedProtobuf,
	recoveredAddress,
	transactionId,
} from '../../../../packages/signer/nodes/ExpandSigner/families/tron';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { ledgerFolder } from '../../../helpers/ledgerFolder';
import { signAndSend } from '../../../helpers/signAndSend';
import { useDevnet } from '../../../helpers/useDevnet';
import { startLyingTurnkey } from './lyingTurnkey';
import { signRequests, turnkeyCounters, turnkeyKey } from './turnkeyRun';

const CHAIN = '1001';
const folder = ledgerFolder('expand-turnkey-tron-');

let devnet: Devnet;
let nile: DevnetTron;
useDevnet((started) => {
	devnet = started;
	nile = started.tron.find((chain) => chain.chainId === CHAIN) as DevnetTron;
});

const tronKey = (data: IDataObject = {}) =>
	turnkeyKey(devnet, devnet.turnkey.accounts.tron, folder, data);

/** A fresh Tron address nobody holds. */
const payee = () => {
	const wallet = Wallet.createRandom();
	return { hex: `41${wallet.address.slice(2).toLowerCase()}`, wallet };
};
const base58 = (hex: string) => base58Address(hex) as string;

const pay = async (
	payoutId: string,
	recipient: string,
	data: IDataObject = {},
	operation: IDataObject = { operation: 'transferTrx', amount: '1500000' },
) =>
	await signAndSend(
		[{ payoutId }],
		{
			chainFamily: 'tron',
			tronChainId: CHAIN,
			recipient,
			payoutId: '={{ $json.payoutId }}',
			...operation,
		} as INodeParameters,
		devnetCredentials(devnet, { tron: tronKey(data) }),
	);

const counters = () => turnkeyCounters(devnet);

test('the Turnkey Tron account is funded at start on the Tron chains, TRX and USDT', () => {
	const hex = hexAddress(devnet.turnkey.accounts.tron) as string;
	for (const chain of devnet.tron) {
		expect(chain.chain.balance(hex)).toBe(10_000_000_000n);
		expect(chain.chain.usdt.balanceOf(hex)).toBe(1_000_000_000_000n);
	}
});

test('a TRX payout signed by Turnkey lands once: its request is raw_data, its signature recovers to Sign With; a rerun makes no new activity', async () => {
	const to = payee();
	const before = counters();
	const first = await pay('tk-trx-1', base58(to.hex));
	expect(first.signed[0]).toMatchObject({
		payoutId: 'tk-trx-1',
		repeat: false,
		from: devnet.turnkey.accounts.tron,
	});
	expect(first.sent[0].transactionHash).toBe(first.signed[0].transactionHash);
	expect(nile.chain.balance(to.hex)).toBe(1_500_000n);
	// What Turnkey was asked: TRANSACTION_TYPE_TRON over raw_data's bytes, whose SHA-256 is the txID.
	const [request] = signRequests(devnet, before.requests);
	const parameters = (JSON.parse(request.body) as { parameters: Record<string, string> })
		.parameters;
	expect(parameters).toMatchObject({
		type: 'TRANSACTION_TYPE_TRON',
		signWith: devnet.turnkey.accounts.tron,
	});
	expect(transactionId(parameters.unsignedTransaction)).toBe(first.signed[0].transactionHash);
	expect(
		recoveredAddress(String(first.signed[0].transactionHash), String(first.signed[0].signature)),
	).toBe(devnet.turnkey.accounts.tron);

	const again = await pay('tk-trx-1', base58(to.hex));
	expect(again.signed[0]).toMatchObject({
		repeat: true,
		transactionHash: first.signed[0].transactionHash,
	});
	expect(nile.chain.balance(to.hex)).toBe(1_500_000n);
	expect(counters().activities).toBe(before.activities + 1);
	expect(counters().signatures).toBe(before.signatures + 1);
});

test('a USDT (TRC-20) payout signed by Turnkey lands once', async () => {
	const to = payee();
	const before = counters();
	const paid = await pay(
		'tk-usdt-1',
		base58(to.hex),
		{},
		{
			operation: 'transferTrc20',
			tokenAddress: nile.usdt.address,
			amount: '2500000',
			feeLimit: '30',
		},
	);
	expect(paid.signed[0]).toMatchObject({ repeat: false, from: devnet.turnkey.accounts.tron });
	expect(paid.sent[0].transactionHash).toBe(paid.signed[0].transactionHash);
	expect(nile.chain.usdt.balanceOf(to.hex)).toBe(2_500_000n);
	expect(counters().signatures).toBe(before.signatures + 1);
});

test('a sign answer lost on every try, then a rerun: the kept request is resent byte for byte, one activity, one signature, paid once', async () => {
	const to = payee();
	const before = counters();
	devnet.turnkey.faults.dropNextSignAnswer(3);
	const lost = await pay('tk-trx-lost', base58(to.hex));
	expect(lost.signed[0].error).toMatch(
		/Turnkey did not answer \/public\/v1\/submit\/sign_transaction/,
	);
	expect(nile.chain.balance(to.hex)).toBe(0n);
	const rerun = await pay('tk-trx-lost', base58(to.hex));
	expect(rerun.signed[0]).toMatchObject({ repeat: false, payoutId: 'tk-trx-lost' });
	const bodies = signRequests(devnet, before.requests).map((request) => request.body);
	expect(bodies).toHaveLength(4);
	expect(new Set(bodies).size).toBe(1);
	expect(counters().activities).toBe(before.activities + 1);
	expect(counters().signatures).toBe(before.signatures + 1);
	expect(rerun.sent[0].transactionHash).toBe(rerun.signed[0].transactionHash);
	expect(nile.chain.balance(to.hex)).toBe(1_500_000n);
});

/** A signed protobuf Transaction: raw_data (field 1) then one 65-byte signature (field 2). */
const signedProtobuf = (rawDataHex: string, signature: string) => {
	const raw = Buffer.from(rawDataHex, 'hex');
	const length = (n: number) => {
		const bytes: number[] = [];
		while (n >= 0x80) {
			bytes.push((n & 0x7f) | 0x80);
			n >>>= 7;
		}
		bytes.push(n);
		return Buffer.from(bytes);
	};
	return Buffer.concat([
		Buffer.from([0x0a]),
		length(raw.length),
		raw,
		Buffer.from([0x12, 0x41]),
		Buffer.from(signature, 'hex'),
	]).toString('hex');
};

test.each([
	[
		'signed by another key',
		(signedHex: string) => {
			const { rawDataHex } = readSignedProtobuf(signedHex) as { rawDataHex: string };
			const other = new SigningKey(Wallet.createRandom().privateKey);
			return signedProtobuf(rawDataHex, other.sign(sha256(`0x${rawDataHex}`)).serialized.slice(2));
		},
		/its signature is by T\w+, not Sign With T\w+; nothing was signed/,
	],
	[
		'of another raw_data (its last byte changed)',
		(signedHex: string) => {
			const { rawDataHex, signatures } = readSignedProtobuf(signedHex) as {
				rawDataHex: string;
				signatures: string[];
			};
			const last = (parseInt(rawDataHex.slice(-2), 16) ^ 1).toString(16).padStart(2, '0');
			return signedProtobuf(`${rawDataHex.slice(0, -2)}${last}`, signatures[0]);
		},
		/it signs a transaction other than the one sent \(txID [0-9a-f]{64}, sent [0-9a-f]{64}\); nothing was signed/,
	],
])(
	"Turnkey's answer %s is refused naming the activity; nothing is sent",
	async (_, rewrite, words) => {
		const lying = await startLyingTurnkey(devnet.turnkey.url, rewrite);
		try {
			const to = payee();
			const before = counters();
			const lied = await pay(`tk-trx-lie-${String(_).length}`, base58(to.hex), {
				baseUrl: lying.url,
			});
			const activity = devnet.turnkey.activities()[before.activities];
			expect(lied.signed[0].error).toMatch(
				`Refused by the rule "turnkey": Turnkey's answer to activity ${activity.id} is not the transaction the Signer sent, signed by Sign With:`,
			);
			expect(lied.signed[0].error).toMatch(words);
			expect(lied.sent[0].transactionHash).toBeUndefined();
			expect(nile.chain.balance(to.hex)).toBe(0n);
		} finally {
			await lying.close();
		}
	},
);

test('an off-policy recipient is refused with no request to Turnkey', async () => {
	const before = counters();
	const refused = await pay('tk-trx-off', base58(payee().hex), {
		allowedRecipients: base58(payee().hex),
	});
	expect(refused.signed[0].error).toMatch(/^Refused by the rule "allowedRecipients"/);
	expect(counters()).toEqual(before);
});

test('Sign Message with a Turnkey Tron key is refused naming the operation and the key type; a Sign With that is not a Tron address is refused; neither asks Turnkey', async () => {
	const before = counters();
	const message = await signAndSend(
		[{}],
		{
			chainFamily: 'tron',
			tronChainId: CHAIN,
			operation: 'signMessage',
			message: 'hello',
		} as never,
		devnetCredentials(devnet, { tron: tronKey() }),
	);
	expect(message.signed[0].error).toMatch(
		/Sign Message is not served by a Turnkey key \(the credential's Key Type: Turnkey\)/,
	);
	const wrong = await pay('tk-trx-wrong-sign-with', base58(payee().hex), {
		signWith: devnet.turnkey.accounts.evm,
	});
	expect(wrong.signed[0].error).toMatch(
		`The Sign With of the Turnkey credential must be a Tron address (base58, T…); got "${devnet.turnkey.accounts.evm}"`,
	);
	expect(counters()).toEqual(before);
});
