/**
 * A Speed Up Payout's fee bump read back from its signed envelope by readSignedStellarTransaction, with
 * the official library building the envelopes: the account's own bump gives the inner transaction with
 * the bump's hash under the chain's passphrase and its fee; a plain transaction has no bump; a bump another
 * account pays or signs, one signed under another network's passphrase, or bytes that are not XDR are refused.
 */
import {
	Account,
	Asset,
	Keypair,
	Networks,
	Operation,
	TransactionBuilder,
} from '@stellar/stellar-base';

import {
	readSignedStellarTransaction,
	UndecodableStellarTransaction,
} from '../../../../packages/signer/nodes/ExpandSigner/families/stellar';
import { seedAccount } from './fixtures';

const keypair = Keypair.random();
const account = seedAccount(keypair.secret());

/** A signed payment of the account on the testnet (1501). */
function inner() {
	const transaction = new TransactionBuilder(new Account(account.address, '41'), {
		fee: '100',
		networkPassphrase: Networks.TESTNET,
		timebounds: { minTime: 0, maxTime: 1_790_000_300 },
	})
		.addOperation(
			Operation.payment({
				destination: Keypair.random().publicKey(),
				asset: Asset.native(),
				amount: '1.5',
			}),
		)
		.build();
	transaction.sign(keypair);
	return transaction;
}

function bump(payer = keypair, signer = keypair, passphrase = Networks.TESTNET) {
	const transaction = TransactionBuilder.buildFeeBumpTransaction(
		payer,
		'1000',
		inner(),
		passphrase,
	);
	transaction.sign(signer);
	return transaction;
}

test("the account's fee bump reads as its inner transaction with the bump's hash and fee", () => {
	const signed = bump();
	const read = readSignedStellarTransaction(signed.toXDR(), '1501', account);
	expect(read.feeBump).toEqual({ hash: signed.hash().toString('hex'), fee: 2000n });
	expect(read.hash).toBe(signed.innerTransaction.hash().toString('hex'));
	expect(read.sequence).toBe(42n);
});

test('a plain transaction has no fee bump', () => {
	expect(readSignedStellarTransaction(inner().toXDR(), '1501', account).feeBump).toBeUndefined();
});

test.each([
	['another account pays', () => bump(Keypair.random(), keypair)],
	['another key signs', () => bump(keypair, Keypair.random())],
	['signed under the mainnet passphrase', () => bump(keypair, keypair, Networks.PUBLIC)],
])('a fee bump %s is refused', (_, make) => {
	expect(() => readSignedStellarTransaction(make().toXDR(), '1501', account)).toThrow(
		`The Stellar transaction does not carry ${account.address}'s signature on chain 1501`,
	);
});

test('bytes that are not XDR, or a chain that is not Stellar, are refused', () => {
	expect(() => readSignedStellarTransaction('AAAA!', '1501', account)).toThrow(
		UndecodableStellarTransaction,
	);
	expect(() => readSignedStellarTransaction(bump().toXDR(), '1100', account)).toThrow(/1100/);
});
