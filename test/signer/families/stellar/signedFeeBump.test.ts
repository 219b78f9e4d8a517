/**
 * A Speed Up Payout's fee bump read back from its signed envelope, with the official library building
 * the envelopes: the account's own bump gives its hash under the chain's passphrase, its fee and the
 * inner transaction's envelope; a plain transaction is not a bump; a bump another account pays or
 * signs, one signed under another network's passphrase, or bytes that are not XDR are refused.
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
	readSignedFeeBump,
	UndecodableStellarTransaction,
} from '../../../../packages/signer/nodes/ExpandSigner/families/stellar';

const keypair = Keypair.random();
const account = { address: keypair.publicKey(), keypair: () => keypair };

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

test("the account's fee bump reads with its hash, its fee and the inner envelope", () => {
	const signed = bump();
	expect(readSignedFeeBump(signed.toXDR(), '1501', account)).toEqual({
		hash: signed.hash().toString('hex'),
		fee: 2000n,
		innerRawTransaction: signed.innerTransaction.toEnvelope().toXDR('base64'),
	});
});

test('a plain transaction is not a fee bump', () => {
	expect(readSignedFeeBump(inner().toXDR(), '1501', account)).toBeUndefined();
});

test.each([
	['another account pays', () => bump(Keypair.random(), keypair)],
	['another key signs', () => bump(keypair, Keypair.random())],
	['signed under the mainnet passphrase', () => bump(keypair, keypair, Networks.PUBLIC)],
])('a fee bump %s is refused', (_, make) => {
	expect(() => readSignedFeeBump(make().toXDR(), '1501', account)).toThrow(
		`The fee bump is not paid and signed by the account ${account.address}`,
	);
});

test('bytes that are not XDR, or a chain that is not Stellar, are refused', () => {
	expect(() => readSignedFeeBump('AAAA!', '1501', account)).toThrow(UndecodableStellarTransaction);
	expect(() => readSignedFeeBump(bump().toXDR(), '1100', account)).toThrow(
		'Chain 1100 is not a Stellar chain',
	);
});
