/**
 * Stellar transactions: built, read strictly under the chain's passphrase, signed and read again with the
 * account's signature checked, and fee-bumped; every refusal of what the Signer will not read or sign.
 */
import {
	Account,
	Asset,
	MuxedAccount,
	FeeBumpTransaction,
	Keypair,
	Operation,
	Transaction,
	TransactionBuilder,
	xdr,
} from '@stellar/stellar-base';

import {
	checkOwnTransaction,
	decodeStellarTransaction,
	feeBump,
	NotTheSigner,
	readSignedStellarTransaction,
	signStellarTransaction,
	STELLAR_CHAINS,
	stellarEffect,
	UndecodableStellarTransaction,
} from '../../../../packages/signer/nodes/ExpandSigner/families/stellar';
import { envelope, NOW, NOW_SECONDS, other, pay, RECIPIENT_42, signer } from './fixtures';

const MAINNET = STELLAR_CHAINS['1500'].passphrase;
const TESTNET = STELLAR_CHAINS['1501'].passphrase;

test.each(['1500', '1501'])('chain %s: build, sign and read again keep one hash', (chainId) => {
	const decoded = decodeStellarTransaction(
		envelope([pay(5n, RECIPIENT_42)], { chainId, memo: { type: 'id', value: '7' } }),
		chainId,
		NOW,
	);
	expect(decoded).toMatchObject({
		chainId,
		source: signer.address,
		sequence: 101n,
		fee: 100n,
		minTime: NOW_SECONDS,
		maxTime: NOW_SECONDS + 300,
		memo: { type: 'id', value: '7' },
	});
	const passphrase = STELLAR_CHAINS[chainId].passphrase;
	expect(decoded.hash).toBe(
		new Transaction(decoded.transaction.toXDR(), passphrase).hash().toString('hex'),
	);
	const signed = signStellarTransaction(signer, decoded);
	expect(signed.transactionHash).toBe(decoded.hash);
	expect(decoded.transaction.signatures).toHaveLength(0);
	const onChain = new Transaction(signed.rawTransaction, passphrase);
	expect(
		Keypair.fromPublicKey(signer.address).verify(onChain.hash(), onChain.signatures[0].signature()),
	).toBe(true);
	const again = readSignedStellarTransaction(signed.rawTransaction, chainId, signer);
	expect(again.hash).toBe(decoded.hash);
	expect(again.sequence).toBe(101n);
});

test("an envelope read under another chain's passphrase has another hash, and its signature fails there", () => {
	const xdrText = envelope([pay()], { chainId: '1501' });
	const testnet = decodeStellarTransaction(xdrText, '1501', NOW);
	const mainnet = decodeStellarTransaction(xdrText, '1500', NOW);
	expect(mainnet.hash).not.toBe(testnet.hash);
	expect(mainnet.hash).toBe(new Transaction(xdrText, MAINNET).hash().toString('hex'));
	const signed = signStellarTransaction(signer, testnet);
	expect(() => readSignedStellarTransaction(signed.rawTransaction, '1500', signer)).toThrow(
		/does not carry .* signature on chain 1500/,
	);
	expect(readSignedStellarTransaction(signed.rawTransaction, '1501', signer).hash).toBe(
		testnet.hash,
	);
	expect(TESTNET).not.toBe(MAINNET);
});

test("a transaction signed by another key is refused as the account's", () => {
	const decoded = decodeStellarTransaction(envelope([pay()]), '1501', NOW);
	const transaction = new Transaction(decoded.transaction.toXDR(), TESTNET);
	transaction.sign(other.keypair());
	expect(() => readSignedStellarTransaction(transaction.toXDR(), '1501', signer)).toThrow(
		UndecodableStellarTransaction,
	);
});

test("another account's transaction, or an operation acting for another account, is refused", () => {
	const foreign = decodeStellarTransaction(
		envelope([pay()], { source: other.address }),
		'1501',
		NOW,
	);
	expect(() => checkOwnTransaction(foreign, signer)).toThrow(NotTheSigner);
	expect(() => signStellarTransaction(signer, foreign)).toThrow(/not the signing account/);
	const foreignOperation = decodeStellarTransaction(
		envelope([
			pay(),
			Operation.payment({
				source: other.address,
				destination: signer.address,
				asset: Asset.native(),
				amount: '1',
			}),
		]),
		'1501',
		NOW,
	);
	expect(() => checkOwnTransaction(foreignOperation, signer)).toThrow(
		/Operation 2 of the Stellar transaction acts for G/,
	);
});

test('a muxed form of the account is its own, as source and as operation source', () => {
	const muxed = new MuxedAccount(new Account(signer.address, '100'), '9');
	const ownMuxed = decodeStellarTransaction(
		new TransactionBuilder(muxed, {
			fee: '100',
			networkPassphrase: TESTNET,
			timebounds: { minTime: NOW_SECONDS, maxTime: NOW_SECONDS + 60 },
		})
			.addOperation(
				Operation.payment({
					source: muxed.accountId(),
					destination: RECIPIENT_42,
					asset: Asset.native(),
					amount: '1',
				}),
			)
			.build()
			.toXDR(),
		'1501',
		NOW,
	);
	expect(ownMuxed.source).toBe(muxed.accountId());
	expect(ownMuxed.source).toMatch(/^M/);
	expect(() => checkOwnTransaction(ownMuxed, signer)).not.toThrow();
	expect(stellarEffect(ownMuxed, false).from).toBe(signer.address);
	expect(signStellarTransaction(signer, ownMuxed).transactionHash).toBe(ownMuxed.hash);
	const otherMuxed = new MuxedAccount(new Account(other.address, '100'), '9');
	const foreign = decodeStellarTransaction(
		envelope([
			Operation.payment({
				source: otherMuxed.accountId(),
				destination: RECIPIENT_42,
				asset: Asset.native(),
				amount: '1',
			}),
		]),
		'1501',
		NOW,
	);
	expect(() => checkOwnTransaction(foreign, signer)).toThrow(NotTheSigner);
});

/** A transaction of the signer with the builder's options, for the preconditions only it can set. */
function built(
	configure: (builder: TransactionBuilder) => TransactionBuilder,
	options: Partial<TransactionBuilder.TransactionBuilderOptions> = {},
): string {
	const builder = new TransactionBuilder(new Account(signer.address, '100'), {
		fee: '100',
		networkPassphrase: TESTNET,
		...options,
	});
	return configure(builder.addOperation(pay())).build().toXDR();
}

function withCond(cond: xdr.Preconditions): string {
	const transaction = xdr.TransactionEnvelope.fromXDR(envelope([pay()]), 'base64');
	transaction.v1().tx().cond(cond);
	return transaction.toXDR('base64');
}

/** The signer's payment with V2 preconditions written directly: time bounds and one other, without a minimum sequence. */
function withV2(
	fields: Partial<{
		minSeqAge: xdr.Uint64;
		minSeqLedgerGap: number;
		extraSigners: xdr.SignerKey[];
	}>,
): string {
	const transaction = xdr.TransactionEnvelope.fromXDR(envelope([pay()]), 'base64');
	transaction
		.v1()
		.tx()
		.cond(
			xdr.Preconditions.precondV2(
				new xdr.PreconditionsV2({
					timeBounds: new xdr.TimeBounds({
						minTime: new xdr.Uint64(NOW_SECONDS),
						maxTime: new xdr.Uint64(NOW_SECONDS + 60),
					}),
					ledgerBounds: null,
					minSeqNum: null,
					minSeqAge: fields.minSeqAge ?? new xdr.Uint64(0),
					minSeqLedgerGap: fields.minSeqLedgerGap ?? 0,
					extraSigners: fields.extraSigners ?? [],
				}),
			),
		);
	return transaction.toXDR('base64');
}

test('V2 preconditions holding only time bounds are read', () => {
	expect(decodeStellarTransaction(withV2({}), '1501', NOW).maxTime).toBe(NOW_SECONDS + 60);
});

const bounded = (builder: TransactionBuilder) =>
	builder.setTimebounds(NOW_SECONDS, NOW_SECONDS + 60);

test.each([
	['garbage', () => 'not xdr at all', /not a transaction envelope/],
	['truncated XDR', () => envelope([pay()]).slice(0, 40), /not a transaction envelope/],
	['no time bounds', () => withCond(xdr.Preconditions.precondNone()), /no time bounds/],
	['an infinite timeout', () => built((builder) => builder.setTimeout(0)), /no upper time bound/],
	[
		'maxTime 0',
		() => built((builder) => builder.setTimebounds(NOW_SECONDS, 0)),
		/no upper time bound/,
	],
	[
		'maxTime past now + 900 s',
		() => envelope([pay()], { maxTime: NOW_SECONDS + 901 }),
		/more than 900 seconds/,
	],
	['expired', () => envelope([pay()], { minTime: 0, maxTime: NOW_SECONDS - 1 }), /expired/],
	[
		'ledger bounds',
		() => built((builder) => bounded(builder).setLedgerbounds(1, 2)),
		/ledger bounds/,
	],
	[
		'a minimum sequence',
		() => built((builder) => bounded(builder).setMinAccountSequence('5')),
		/minimum account sequence/,
	],
	['a minimum sequence age', () => withV2({ minSeqAge: new xdr.Uint64(5) }), /sequence age/],
	['a minimum sequence ledger gap', () => withV2({ minSeqLedgerGap: 5 }), /ledger gap/],
	[
		'extra signers',
		() =>
			withV2({
				extraSigners: [xdr.SignerKey.signerKeyTypeEd25519(other.keypair().rawPublicKey())],
			}),
		/extra signers/,
	],
	[
		'a minimum sequence of 0 beside them',
		() => built((builder) => bounded(builder).setMinAccountSequenceAge(5)),
		/minimum account sequence/,
	],
	[
		'Soroban',
		() => built((builder) => bounded(builder).addOperation(Operation.restoreFootprint({}))),
		/Soroban \(restoreFootprint\)/,
	],
	[
		'a text memo that is not UTF-8',
		() => {
			const transaction = xdr.TransactionEnvelope.fromXDR(envelope([pay()]), 'base64');
			transaction
				.v1()
				.tx()
				.memo(xdr.Memo.memoText(Buffer.from([0xff, 0x41])));
			return transaction.toXDR('base64');
		},
		/text memo that is not UTF-8/,
	],
	[
		'a fee bump',
		() => {
			const inner = new Transaction(envelope([pay()]), TESTNET);
			inner.sign(signer.keypair());
			return TransactionBuilder.buildFeeBumpTransaction(
				signer.address,
				'200',
				inner,
				TESTNET,
			).toXDR();
		},
		/fee bump/,
	],
	[
		'signatures already on it',
		() => {
			const transaction = new Transaction(envelope([pay()]), TESTNET);
			transaction.sign(other.keypair());
			return transaction.toXDR();
		},
		/already carries 1 signature/,
	],
])('refused: %s', (_what, make, words) => {
	let error: unknown;
	try {
		decodeStellarTransaction(make(), '1501', NOW);
	} catch (caught) {
		error = caught;
	}
	expect(error).toBeInstanceOf(UndecodableStellarTransaction);
	expect((error as Error).message).toMatch(words);
});

test('an unknown chain is refused', () => {
	expect(() => decodeStellarTransaction(envelope([pay()]), '1502', NOW)).toThrow(
		/not a Stellar chain/,
	);
});

test('a fee bump keeps the inner transaction and its hash, is signed by the account, and reads back as the inner one', () => {
	const decoded = decodeStellarTransaction(envelope([pay(), pay(1n)]), '1501', NOW);
	const signed = signStellarTransaction(signer, decoded);
	const inner = readSignedStellarTransaction(signed.rawTransaction, '1501', signer);
	const bump = feeBump(signer, inner, 1000n);
	expect(bump.innerHash).toBe(decoded.hash);
	expect(bump.fee).toBe(3000n);
	const envelopeRead = new FeeBumpTransaction(bump.rawTransaction, TESTNET);
	expect(envelopeRead.innerTransaction.hash().toString('hex')).toBe(decoded.hash);
	expect(envelopeRead.hash().toString('hex')).toBe(bump.transactionHash);
	expect(envelopeRead.feeSource).toBe(signer.address);
	const again = readSignedStellarTransaction(bump.rawTransaction, '1501', signer);
	expect(again.hash).toBe(decoded.hash);
	expect(again.feeBump).toEqual({ hash: bump.transactionHash, fee: 3000n });
	expect(() => readSignedStellarTransaction(bump.rawTransaction, '1501', other)).toThrow(
		UndecodableStellarTransaction,
	);
	expect(() => feeBump(signer, decoded, 1000n)).toThrow(/carries no signature/);
	expect(() => feeBump(signer, inner, 50n)).toThrow(/below the inner transaction's fee/);
	expect(xdr.EnvelopeType.envelopeTypeTxFeeBump()).toBe(envelopeRead.toEnvelope().switch());
});
