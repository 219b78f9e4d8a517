import { Asset, Keypair, type Operation, type Transaction, xdr } from '@stellar/stellar-base';

import {
	assetKey,
	availableNative,
	BASE_RESERVE,
	baseAccount,
	INT64_MAX,
	issuerOf,
	type LedgerState,
	MAX_SIGNERS,
	minimumBalance,
	newAccount,
	type StellarAccount,
	stroopsOf,
} from './accounts';
import { accountOf, OpFailure, transfer } from './transfer';

/** What an operation needs besides its own fields: the ledger, its source, its transaction and place in it. */
export interface OpContext {
	state: LedgerState;
	source: StellarAccount;
	transaction: Transaction;
	index: number;
	ledgerSequence: number;
}

/** An applied operation's success value for its XDR result, when its success arm carries one. */
export type OpValue = unknown;

type Apply<T> = (operation: T, context: OpContext) => OpValue;

const FLAG_AUTH_REQUIRED = 1;
const FLAG_AUTH_REVOCABLE = 2;
const FLAG_AUTH_IMMUTABLE = 4;
const FLAG_AUTH_CLAWBACK = 8;

const accountIdXdr = (id: string) => Keypair.fromPublicKey(id).xdrAccountId();

function positive(amount: string): bigint {
	const stroops = stroopsOf(amount);
	if (stroops <= 0n) throw new OpFailure('Malformed');
	return stroops;
}

function addSubEntry(account: StellarAccount, count = 1): void {
	account.numSubEntries += count;
	if (account.balance < minimumBalance(account)) throw new OpFailure('LowReserve');
}

const createAccount: Apply<Operation.CreateAccount> = (
	operation,
	{ state, source, ledgerSequence },
) => {
	const starting = stroopsOf(operation.startingBalance);
	if (starting < 0n) throw new OpFailure('Malformed');
	const destination = baseAccount(operation.destination);
	if (state.accounts.has(destination)) throw new OpFailure('AlreadyExist');
	if (starting < 2n * BASE_RESERVE) throw new OpFailure('LowReserve');
	if (availableNative(source) < starting) throw new OpFailure('Underfunded');
	source.balance -= starting;
	state.accounts.set(destination, newAccount(destination, starting, BigInt(ledgerSequence) << 32n));
};

const payment: Apply<Operation.Payment> = (operation, { state, source }) => {
	transfer(
		state,
		source,
		baseAccount(operation.destination),
		assetKey(operation.asset),
		positive(operation.amount),
	);
};

function simplePayment(destination: string, asset: Asset, amount: bigint) {
	return new xdr.SimplePaymentResult({
		destination: accountIdXdr(destination),
		asset: asset.toXDRObject(),
		amount: xdr.Int64.fromString(amount.toString()),
	});
}

/**
 * Path payments deliver only what needs no conversion: the same asset sent and received with an empty path.
 * The stand-in matches no offers, so any conversion finds none (`TooFewOffers`).
 */
const pathPaymentStrictSend: Apply<Operation.PathPaymentStrictSend> = (
	operation,
	{ state, source },
) => {
	const sent = positive(operation.sendAmount);
	const destMin = positive(operation.destMin);
	if (operation.path.length > 0 || !operation.sendAsset.equals(operation.destAsset))
		throw new OpFailure('TooFewOffers');
	if (sent < destMin) throw new OpFailure('UnderDestmin');
	const destination = baseAccount(operation.destination);
	transfer(state, source, destination, assetKey(operation.sendAsset), sent);
	return new xdr.PathPaymentStrictSendResultSuccess({
		offers: [],
		last: simplePayment(destination, operation.destAsset, sent),
	});
};

const pathPaymentStrictReceive: Apply<Operation.PathPaymentStrictReceive> = (
	operation,
	{ state, source },
) => {
	const received = positive(operation.destAmount);
	const sendMax = positive(operation.sendMax);
	if (operation.path.length > 0 || !operation.sendAsset.equals(operation.destAsset))
		throw new OpFailure('TooFewOffers');
	if (sendMax < received) throw new OpFailure('OverSendmax');
	const destination = baseAccount(operation.destination);
	transfer(state, source, destination, assetKey(operation.sendAsset), received);
	return new xdr.PathPaymentStrictReceiveResultSuccess({
		offers: [],
		last: simplePayment(destination, operation.destAsset, received),
	});
};

const changeTrust: Apply<Operation.ChangeTrust> = (operation, { state, source }) => {
	if (!(operation.line instanceof Asset) || operation.line.isNative())
		throw new OpFailure('Malformed');
	const limit = stroopsOf(operation.limit);
	if (limit < 0n) throw new OpFailure('Malformed');
	const key = assetKey(operation.line);
	const issuerId = operation.line.getIssuer();
	if (issuerId === source.id) throw new OpFailure('SelfNotAllowed');
	const existing = source.trustlines.get(key);
	if (existing) {
		if (limit < existing.balance) throw new OpFailure('InvalidLimit');
		if (limit === 0n) {
			source.trustlines.delete(key);
			source.numSubEntries -= 1;
		} else existing.limit = limit;
		return;
	}
	if (limit === 0n) throw new OpFailure('InvalidLimit');
	const issuer = accountOf(state, issuerId);
	if (!issuer) throw new OpFailure('NoIssuer');
	addSubEntry(source);
	source.trustlines.set(key, {
		balance: 0n,
		limit,
		authorized: !issuer.flags.authRequired,
		authorizedToMaintainLiabilities: false,
		clawbackEnabled: issuer.flags.authClawbackEnabled,
	});
};

function applyFlags(account: StellarAccount, setFlags: number, clearFlags: number): void {
	if ((setFlags & clearFlags) !== 0) throw new OpFailure('BadFlags');
	if (((setFlags | clearFlags) & ~15) !== 0) throw new OpFailure('UnknownFlag');
	if (account.flags.authImmutable && (setFlags | clearFlags) !== 0)
		throw new OpFailure('CantChange');
	const apply = (bit: number, current: boolean) =>
		setFlags & bit ? true : clearFlags & bit ? false : current;
	const flags = {
		authRequired: apply(FLAG_AUTH_REQUIRED, account.flags.authRequired),
		authRevocable: apply(FLAG_AUTH_REVOCABLE, account.flags.authRevocable),
		authImmutable: apply(FLAG_AUTH_IMMUTABLE, account.flags.authImmutable),
		authClawbackEnabled: apply(FLAG_AUTH_CLAWBACK, account.flags.authClawbackEnabled),
	};
	if (flags.authClawbackEnabled && !flags.authRevocable)
		throw new OpFailure('AuthRevocableRequired');
	account.flags = flags;
}

function applySigner(account: StellarAccount, signer: Operation.SetOptions['signer']): void {
	if (!signer) return;
	if (!('ed25519PublicKey' in signer)) throw new OpFailure('BadSigner');
	const key = signer.ed25519PublicKey;
	const weight = Number(signer.weight ?? 0);
	if (key === account.id || weight > 255) throw new OpFailure('BadSigner');
	if (weight === 0) {
		if (account.signers.delete(key)) account.numSubEntries -= 1;
		return;
	}
	if (!account.signers.has(key)) {
		if (account.signers.size >= MAX_SIGNERS) throw new OpFailure('TooManySigners');
		addSubEntry(account);
	}
	account.signers.set(key, weight);
}

const setOptions: Apply<Operation.SetOptions> = (operation, { source }) => {
	const thresholds = [
		operation.masterWeight,
		operation.lowThreshold,
		operation.medThreshold,
		operation.highThreshold,
	];
	if (thresholds.some((value) => value !== undefined && (Number(value) < 0 || Number(value) > 255)))
		throw new OpFailure('ThresholdOutOfRange');
	if (operation.homeDomain !== undefined && operation.homeDomain.length > 32)
		throw new OpFailure('InvalidHomeDomain');
	applyFlags(source, Number(operation.setFlags ?? 0), Number(operation.clearFlags ?? 0));
	if (operation.masterWeight !== undefined) source.masterWeight = Number(operation.masterWeight);
	if (operation.lowThreshold !== undefined) source.thresholds.low = Number(operation.lowThreshold);
	if (operation.medThreshold !== undefined) source.thresholds.med = Number(operation.medThreshold);
	if (operation.highThreshold !== undefined)
		source.thresholds.high = Number(operation.highThreshold);
	if (operation.homeDomain !== undefined) source.homeDomain = operation.homeDomain;
	applySigner(source, operation.signer);
};

const accountMerge: Apply<Operation.AccountMerge> = (operation, { state, source }) => {
	const destinationId = baseAccount(operation.destination);
	if (destinationId === source.id) throw new OpFailure('Malformed');
	const destination = accountOf(state, destinationId);
	if (!destination) throw new OpFailure('NoAccount');
	if (source.flags.authImmutable) throw new OpFailure('ImmutableSet');
	if (source.numSubEntries !== source.signers.size) throw new OpFailure('HasSubEntries');
	if (destination.balance + source.balance > INT64_MAX) throw new OpFailure('DestFull');
	destination.balance += source.balance;
	state.accounts.delete(source.id);
	return xdr.Int64.fromString(source.balance.toString());
};

interface OfferFields {
	selling: Asset;
	buying: Asset;
	/** Stroops of `selling` (a buy offer's buy amount times its price). */
	amount: bigint;
	offerId: string;
	passive: boolean;
}

/**
 * An offer recorded without matching: the trustlines and funds it needs are checked, it takes a subentry
 * (and its reserve), amount 0 deletes it. Nothing crosses, nothing is reserved as liabilities.
 */
function manageOffer(
	fields: OfferFields,
	{ state, source, transaction, index }: OpContext,
): OpValue {
	const { selling, buying } = fields;
	if (selling.equals(buying) || fields.amount < 0n) throw new OpFailure('Malformed');
	const sellingKey = assetKey(selling);
	const buyingKey = assetKey(buying);
	for (const [key, side] of [
		[sellingKey, 'Sell'],
		[buyingKey, 'Buy'],
	] as const) {
		const issuer = issuerOf(key);
		if (issuer === undefined || issuer === source.id) continue;
		if (!state.accounts.has(issuer)) throw new OpFailure(`${side}NoIssuer`);
		const line = source.trustlines.get(key);
		if (!line) throw new OpFailure(`${side}NoTrust`);
		if (!line.authorized) throw new OpFailure(`${side}NotAuthorized`);
	}
	const existing = fields.offerId === '0' ? undefined : state.offers.get(fields.offerId);
	if (fields.offerId !== '0' && (!existing || existing.seller !== source.id))
		throw new OpFailure('NotFound');
	if (fields.amount === 0n) {
		if (!existing) throw new OpFailure('Malformed');
		state.offers.delete(existing.id);
		source.numSubEntries -= 1;
		return new xdr.ManageOfferSuccessResult({
			offersClaimed: [],
			offer: xdr.ManageOfferSuccessResultOffer.manageOfferDeleted(),
		});
	}
	const held =
		sellingKey === 'native'
			? availableNative(source) - (existing ? 0n : BASE_RESERVE)
			: issuerOf(sellingKey) === source.id
				? INT64_MAX
				: (source.trustlines.get(sellingKey)?.balance ?? 0n);
	if (!existing) addSubEntry(source);
	if (held < fields.amount) throw new OpFailure('Underfunded');
	const id = existing?.id ?? (state.nextOfferId++).toString();
	const price = rawPrice(transaction, index);
	state.offers.set(id, {
		id,
		seller: source.id,
		selling: sellingKey,
		buying: buyingKey,
		amount: fields.amount,
		price: { n: price.n(), d: price.d() },
		passive: fields.passive,
	});
	const entry = new xdr.OfferEntry({
		sellerId: accountIdXdr(source.id),
		offerId: xdr.Int64.fromString(id),
		selling: selling.toXDRObject(),
		buying: buying.toXDRObject(),
		amount: xdr.Int64.fromString(fields.amount.toString()),
		price,
		flags: fields.passive ? 1 : 0,
		ext: new xdr.OfferEntryExt(0),
	});
	return new xdr.ManageOfferSuccessResult({
		offersClaimed: [],
		offer: existing
			? xdr.ManageOfferSuccessResultOffer.manageOfferUpdated(entry)
			: xdr.ManageOfferSuccessResultOffer.manageOfferCreated(entry),
	});
}

/** The operation's price as the envelope carries it (n/d), which the decoded form gives only as a decimal. */
function rawPrice(transaction: Transaction, index: number): xdr.Price {
	const body = transaction.toEnvelope().v1().tx().operations()[index].body();
	switch (body.switch().name) {
		case 'manageSellOffer':
			return body.manageSellOfferOp().price();
		case 'manageBuyOffer':
			return body.manageBuyOfferOp().price();
		default:
			return body.createPassiveSellOfferOp().price();
	}
}

const manageSellOffer: Apply<Operation.ManageSellOffer> = (operation, context) =>
	manageOffer(
		{
			...operation,
			amount: stroopsOf(operation.amount),
			offerId: String(operation.offerId),
			passive: false,
		},
		context,
	);

const createPassiveSellOffer: Apply<Operation.CreatePassiveSellOffer> = (operation, context) =>
	manageOffer(
		{ ...operation, amount: stroopsOf(operation.amount), offerId: '0', passive: true },
		context,
	);

const manageBuyOffer: Apply<Operation.ManageBuyOffer> = (operation, context) => {
	const price = rawPrice(context.transaction, context.index);
	// A buy offer sells buyAmount × price of its selling asset.
	const selling =
		(stroopsOf(operation.buyAmount) * BigInt(price.n()) + BigInt(price.d()) - 1n) /
		BigInt(price.d());
	return manageOffer(
		{ ...operation, amount: selling, offerId: String(operation.offerId), passive: false },
		context,
	);
};

/** The amount leaves the source at once; claiming it back or by a claimant is not modelled. */
const createClaimableBalance: Apply<Operation.CreateClaimableBalance> = (operation, context) => {
	const { state, source, transaction, index } = context;
	const amount = positive(operation.amount);
	if (operation.claimants.length === 0) throw new OpFailure('Malformed');
	const asset = assetKey(operation.asset);
	// The source sponsors the entry: a base reserve per claimant must be free (checked, not held afterwards).
	const reserve = BigInt(operation.claimants.length) * BASE_RESERVE;
	if (asset === 'native') {
		if (availableNative(source) < reserve) throw new OpFailure('LowReserve');
		if (availableNative(source) - reserve < amount) throw new OpFailure('Underfunded');
		source.balance -= amount;
	} else if (issuerOf(asset) !== source.id) {
		const line = source.trustlines.get(asset);
		if (!line) throw new OpFailure('NoTrust');
		if (!line.authorized) throw new OpFailure('NotAuthorized');
		if (availableNative(source) < reserve) throw new OpFailure('LowReserve');
		if (line.balance < amount) throw new OpFailure('Underfunded');
		line.balance -= amount;
	}
	const id = transaction.getClaimableBalanceId(index);
	state.claimableBalances.set(id, {
		id,
		asset,
		amount,
		claimants: operation.claimants.map((claimant) => claimant.destination),
		sponsor: source.id,
	});
	return xdr.ClaimableBalanceId.fromXDR(id, 'hex');
};

const clawback: Apply<Operation.Clawback> = (operation, { state, source }) => {
	const amount = positive(operation.amount);
	const asset = assetKey(operation.asset);
	if (issuerOf(asset) !== source.id) throw new OpFailure('Malformed');
	const from = accountOf(state, baseAccount(operation.from));
	const line = from?.trustlines.get(asset);
	if (!line) throw new OpFailure('NoTrust');
	if (!line.clawbackEnabled) throw new OpFailure('NotClawbackEnabled');
	if (line.balance < amount) throw new OpFailure('Underfunded');
	line.balance -= amount;
};

/** The issuer's change of a trustline's authorisation, shared by setTrustLineFlags and allowTrust. */
function authorize(
	{ state, source }: OpContext,
	trustor: string,
	asset: string,
	change: { authorized?: boolean; maintain?: boolean; clawback?: boolean },
	noTrust: string,
): void {
	if (issuerOf(asset) !== source.id || trustor === source.id) throw new OpFailure('Malformed');
	const line = accountOf(state, trustor)?.trustlines.get(asset);
	if (!line) throw new OpFailure(noTrust);
	const authorized = change.authorized ?? line.authorized;
	const maintain = change.maintain ?? line.authorizedToMaintainLiabilities;
	const revoking =
		(line.authorized && !authorized) ||
		(line.authorizedToMaintainLiabilities && !authorized && !maintain);
	if (revoking && !source.flags.authRevocable) throw new OpFailure('CantRevoke');
	line.authorized = authorized;
	line.authorizedToMaintainLiabilities = !authorized && maintain;
	if (change.clawback !== undefined) line.clawbackEnabled = change.clawback;
}

const setTrustLineFlags: Apply<Operation.SetTrustLineFlags> = (operation, context) => {
	const { flags } = operation;
	// The clawback flag may only be cleared on a trustline.
	if (flags.clawbackEnabled === true) throw new OpFailure('Malformed');
	authorize(
		context,
		baseAccount(operation.trustor),
		assetKey(operation.asset),
		{
			authorized: flags.authorized,
			maintain: flags.authorizedToMaintainLiabilities,
			clawback: flags.clawbackEnabled,
		},
		'NoTrustLine',
	);
};

const allowTrust: Apply<Operation.AllowTrust> = (operation, context) => {
	const level = Number(operation.authorize);
	authorize(
		context,
		baseAccount(operation.trustor),
		`${operation.assetCode}:${context.source.id}`,
		{ authorized: level === 1, maintain: level === 2 },
		'NoTrustLine',
	);
};

const bumpSequence: Apply<Operation.BumpSequence> = (operation, { source }) => {
	const bumpTo = BigInt(operation.bumpTo);
	if (bumpTo < 0n) throw new OpFailure('BadSeq');
	if (bumpTo > source.sequence) source.sequence = bumpTo;
};

/** The operations the stand-in applies, by stellar-base's type name; any other is op_not_supported. */
export const OPERATIONS: Partial<Record<Operation['type'], Apply<never>>> = {
	createAccount,
	payment,
	pathPaymentStrictSend,
	pathPaymentStrictReceive,
	changeTrust,
	setOptions,
	accountMerge,
	manageSellOffer,
	manageBuyOffer,
	createPassiveSellOffer,
	createClaimableBalance,
	clawback,
	setTrustLineFlags,
	allowTrust,
	bumpSequence,
};

export function applyOperation(operation: Operation, context: OpContext): OpValue {
	const apply = OPERATIONS[operation.type] as Apply<Operation> | undefined;
	if (!apply) throw new OpFailure('NotSupported');
	return apply(operation, context);
}
