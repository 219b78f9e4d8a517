import {
	Account,
	Asset,
	AuthRevocableFlag,
	Operation,
	StrKey,
	TransactionBuilder,
	type xdr,
} from '@stellar/stellar-base';

import { amountText, BASE_FEE, type StellarRuntime } from '../../chains/stellar';
import { fail } from '../failure';
import { list, type Params, required } from '../params';
import type { FamilyHandler } from './familyRoute';

type StellarHandler = FamilyHandler<StellarRuntime>;

/** The backend builds with stellar-sdk's setTimeout(100): no lower bound, valid 100 s from now. */
const VALID_SECONDS = 100;
const STROOPS_PER_UNIT = 10_000_000n;
/** The most stroops an amount may hold (int64). */
const MAX_STROOPS = 2n ** 63n - 1n;

/** An existing account named by `name`; `failure` when it is no account or the chain has none. */
function existingAccount(
	params: Params,
	name: string,
	{ chain }: StellarRuntime,
	failure: 'invalidUserAddress' | 'invalidIssuer' = 'invalidUserAddress',
) {
	const id = required(params, name);
	if (!StrKey.isValidEd25519PublicKey(id)) return fail(failure);
	return chain.account(id) ?? fail(failure);
}

/** The schema's assetCode: alphanumeric, 1 to 12 characters. */
function assetCodeParam(params: Params): string {
	const code = required(params, 'assetCode');
	if (!/^[a-zA-Z0-9]{1,12}$/.test(code)) fail('invalidInput');
	return code;
}

/** The schema's amount (`^[1-9][0-9]*$`), whole units of the asset, as the decimal string stellar-base takes. */
function wholeUnits(params: Params): string {
	const amount = required(params, 'amount');
	if (!/^[1-9][0-9]*$/.test(amount) || BigInt(amount) * STROOPS_PER_UNIT > MAX_STROOPS)
		fail('invalidInput');
	return amount;
}

/** The backend's getStellarAssetsByIssuer: the issuer must be an account, and the asset held by someone. */
function knownAsset(params: Params, runtime: StellarRuntime): Asset {
	const code = assetCodeParam(params);
	const issuer = required(params, 'issuer');
	if (!StrKey.isValidEd25519PublicKey(issuer)) fail('invalidIssuer');
	const key = `${code}:${issuer}`;
	if (![...runtime.chain.state.accounts.values()].some((account) => account.trustlines.has(key)))
		fail('assetNotFound');
	return new Asset(code, issuer);
}

function distinct(first: string, second: string): void {
	if (first === second) fail('invalidInput');
}

/**
 * An unsigned envelope as the backend's TransactionBuilder makes it: the source's next sequence, the base
 * fee per operation, time bounds by the chain's clock, no memo. Answered `{chainId, from, gas, data}`.
 */
function envelope(
	{ chainId, chain }: StellarRuntime,
	from: { id: string; sequence: bigint },
	operations: xdr.Operation[],
) {
	const builder = new TransactionBuilder(new Account(from.id, from.sequence.toString()), {
		fee: BASE_FEE.toString(),
		networkPassphrase: chain.passphrase,
		timebounds: { minTime: 0, maxTime: chain.now + VALID_SECONDS },
	});
	operations.forEach((operation) => builder.addOperation(operation));
	return {
		chainId,
		from: from.id,
		gas: BASE_FEE.toString(),
		data: builder.build().toEnvelope().toXDR('base64'),
	};
}

/** rwa/issue: a payment of the asset from its issuer (which mints it) to `to`. */
const issue: StellarHandler = async (params, runtime) => {
	const code = assetCodeParam(params);
	const amount = wholeUnits(params);
	distinct(required(params, 'issuer'), required(params, 'to'));
	const issuer = existingAccount(params, 'issuer', runtime, 'invalidIssuer');
	const to = existingAccount(params, 'to', runtime);
	return envelope(runtime, issuer, [
		Operation.payment({ destination: to.id, asset: new Asset(code, issuer.id), amount }),
	]);
};

/** rwa/transfer: a payment of the asset between holders; the answer names `to` too, as the backend's does. */
const transfer: StellarHandler = async (params, runtime) => {
	const amount = wholeUnits(params);
	distinct(required(params, 'from'), required(params, 'to'));
	const asset = knownAsset(params, runtime);
	const from = existingAccount(params, 'from', runtime);
	const to = existingAccount(params, 'to', runtime);
	return {
		...envelope(runtime, from, [Operation.payment({ destination: to.id, asset, amount })]),
		to: to.id,
	};
};

/** rwa/settrustline: a trustline to the asset with `amount` as its limit. */
const settrustline: StellarHandler = async (params, runtime) => {
	const code = assetCodeParam(params);
	const limit = wholeUnits(params);
	distinct(required(params, 'issuer'), required(params, 'from'));
	const issuer = existingAccount(params, 'issuer', runtime, 'invalidIssuer');
	const from = existingAccount(params, 'from', runtime);
	return envelope(runtime, from, [
		Operation.changeTrust({ asset: new Asset(code, issuer.id), limit }),
	]);
};

/** rwa/burn: a payment of the asset back to its issuer, which burns it. */
const burn: StellarHandler = async (params, runtime) => {
	const amount = wholeUnits(params);
	distinct(required(params, 'issuer'), required(params, 'from'));
	const asset = knownAsset(params, runtime);
	const from = existingAccount(params, 'from', runtime);
	return envelope(runtime, from, [
		Operation.payment({ destination: asset.getIssuer(), asset, amount }),
	]);
};

/**
 * rwa/freeze: the issuer revokes the holder's authorisation (allowTrust authorize false), first turning
 * auth_revocable on when its account lacks it, as the backend does.
 */
const freeze: StellarHandler = async (params, runtime) => {
	distinct(required(params, 'issuer'), required(params, 'user'));
	const asset = knownAsset(params, runtime);
	const user = existingAccount(params, 'user', runtime);
	const issuer = existingAccount(params, 'issuer', runtime, 'invalidIssuer');
	return envelope(runtime, issuer, [
		...(issuer.flags.authRevocable ? [] : [Operation.setOptions({ setFlags: AuthRevocableFlag })]),
		Operation.allowTrust({
			trustor: user.id,
			assetCode: asset.getCode(),
			authorize: false,
		}),
	]);
};

/** An SDEX path entry: `XLM` (native) or `CODE:ISSUER`. */
function pathAsset(entry: string): Asset {
	if (entry.toUpperCase() === 'XLM' || entry === 'native') return Asset.native();
	const [code, issuer] = entry.split(':');
	if (!code || !/^[a-zA-Z0-9]{1,12}$/.test(code) || !StrKey.isValidEd25519PublicKey(issuer ?? ''))
		fail('invalidToken');
	return new Asset(code, issuer);
}

/** SDEX amounts are stroops (the backend formats them to units); the schema's `^[1-9][0-9]*$`. */
function stroopsParam(params: Params, name: string): string {
	const value = required(params, name);
	if (!/^[1-9][0-9]*$/.test(value) || BigInt(value) > MAX_STROOPS) fail('invalidInput');
	return amountText(BigInt(value));
}

/**
 * dex/swap on SDEX (dexId 2400, 2401): a pathPaymentStrictSend from `from` to itself, path[0] for
 * path[last], `amountIn` sent and at least `amountOutMin` received, a trustline to the asset bought first when
 * `from` has none. The backend quotes the amount out from Horizon's paths first and answers "Pool not found"
 * without one; the devnet has no order book, so it quotes nothing and builds with `amountOutMin`.
 */
const swap: StellarHandler = async (params, runtime) => {
	const path = list(params, 'path').map(pathAsset);
	if (path.length < 2) fail('invalidInput');
	const sendAmount = stroopsParam(params, 'amountIn');
	const destMin = stroopsParam(params, 'amountOutMin');
	const from = existingAccount(params, 'from', runtime);
	const [sendAsset, destAsset] = [path[0], path[path.length - 1]];
	const needsTrust =
		!destAsset.isNative() &&
		!from.trustlines.has(`${destAsset.getCode()}:${destAsset.getIssuer()}`);
	return envelope(runtime, from, [
		...(needsTrust ? [Operation.changeTrust({ asset: destAsset })] : []),
		Operation.pathPaymentStrictSend({
			sendAsset,
			sendAmount,
			destination: from.id,
			destAsset,
			destMin,
			path: path.slice(1, -1),
		}),
	]);
};

export const stellarWrites: Record<string, StellarHandler> = {
	'/rwa/issue': issue,
	'/rwa/transfer': transfer,
	'/rwa/settrustline': settrustline,
	'/rwa/burn': burn,
	'/rwa/freeze': freeze,
	'/dex/swap': swap,
};
