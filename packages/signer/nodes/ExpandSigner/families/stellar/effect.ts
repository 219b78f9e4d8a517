import { SignerKey, xdr } from '@stellar/stellar-base';

import type { Movement, OpaqueCall, TransactionEffect } from '../../policy/vocabulary';
import { accountIdKey, baseOfKey, keyOfAsset, muxedKey } from './address';
import { type DecodedStellarTransaction, operationsOf } from './decode';
import { UndecodableStellarTransaction } from './errors';
import { memoKey } from './memo';

/** Offers are taken by whoever trades against them on the Stellar DEX: their recipient, and the opaque call Allowed Contracts lists. */
export const SDEX = 'SDEX';

function amountOf(value: xdr.Int64, what: string): bigint {
	const amount = BigInt(value.toString());
	if (amount < 0n)
		throw new UndecodableStellarTransaction(
			`The Stellar transaction has a negative ${what}: ${amount}`,
		);
	return amount;
}

/** The most of the selling asset a buy offer gives: buyAmount × price (selling per buying unit), rounded up. */
function buyOfferCost(buyAmount: bigint, price: xdr.Price): bigint {
	const n = BigInt(price.n());
	const d = BigInt(price.d());
	if (n <= 0n || d <= 0n)
		throw new UndecodableStellarTransaction(`The Stellar transaction has an offer price ${n}/${d}`);
	return (buyAmount * n + d - 1n) / d;
}

/** What a set options operation changes in who controls the account (signers, thresholds, master weight, flags), in words; empty when nothing. */
function authorityChanges(options: xdr.SetOptionsOp): string[] {
	const signer = options.signer();
	const named: Array<[string, number | null | undefined]> = [
		['master weight', options.masterWeight()],
		['low threshold', options.lowThreshold()],
		['medium threshold', options.medThreshold()],
		['high threshold', options.highThreshold()],
		['set flags', options.setFlags()],
		['clear flags', options.clearFlags()],
	];
	return [
		...(signer
			? [`signer ${SignerKey.encodeSignerKey(signer.key())} weight ${signer.weight()}`]
			: []),
		...named.flatMap(([what, value]) =>
			value === null || value === undefined ? [] : [`${what} ${value}`],
		),
	];
}

/**
 * What a Stellar transaction does to its account, in the spending policy's terms; every operation's source
 * is the account's (checkOwnTransaction). Payments, path payments (the most that can leave: strict
 * receive's sendMax, strict send's sendAmount), create account (its starting balance, in XLM) and a
 * claimable balance for one unconditional claimant move the asset to the recipient (a muxed `M…` keeps its
 * ID), with the transaction's memo (`text:…`, `id:…`, `hash:…`, `return:…`). Offers move the most of
 * their selling asset that can leave to the Stellar DEX ('SDEX') and are opaque calls of 'SDEX', so under
 * a spending rule they need SDEX listed. Account merge and set options that change signers, thresholds,
 * the master weight or flags hand the account over, refused always unless `allowAccountManagement`; with
 * it, such set options are read (they move nothing) and a merge is an opaque call of its destination (it
 * moves the whole balance, which the transaction does not say), so under a spending rule the destination
 * must be listed. A bump sequence hands it over too: at 2^63 - 1 stellar-core never applies another
 * transaction of the account, its funds frozen for good. Trustlines, their flags and the home domain move
 * nothing; anything else is an opaque call named by its operation type.
 */
export function stellarEffect(
	decoded: DecodedStellarTransaction,
	allowAccountManagement: boolean,
): TransactionEffect {
	const memo = memoKey(decoded.memo);
	const movements: Movement[] = [];
	const opaque: OpaqueCall[] = [];
	const handsOver: string[] = [];
	const move = (asset: string, recipient: string, amount: bigint, via: string) =>
		movements.push({
			asset,
			recipient,
			amount,
			via,
			action: 'transfer',
			...(memo === undefined ? {} : { memo }),
		});
	/** Allowed, a merge still empties the account by an amount the transaction does not say: opaque, its destination listable. */
	const management = (what: string, emptiesInto?: string) => {
		if (!allowAccountManagement) handsOver.push(what);
		else if (emptiesInto) opaque.push({ to: emptiesInto, what });
	};
	operationsOf(decoded.transaction).forEach((operation, index) => {
		const body = operation.body();
		const type = body.switch().name;
		const at = `operation ${index + 1} (${type})`;
		switch (body.switch()) {
			case xdr.OperationType.payment(): {
				const op = body.paymentOp();
				move(
					keyOfAsset(op.asset()),
					muxedKey(op.destination()),
					amountOf(op.amount(), `${at} amount`),
					'Stellar payment',
				);
				return;
			}
			case xdr.OperationType.pathPaymentStrictReceive(): {
				const op = body.pathPaymentStrictReceiveOp();
				amountOf(op.destAmount(), `${at} destination amount`);
				move(
					keyOfAsset(op.sendAsset()),
					muxedKey(op.destination()),
					amountOf(op.sendMax(), `${at} sendMax`),
					'Stellar path payment (strict receive, at most sendMax)',
				);
				return;
			}
			case xdr.OperationType.pathPaymentStrictSend(): {
				const op = body.pathPaymentStrictSendOp();
				amountOf(op.destMin(), `${at} destination minimum`);
				move(
					keyOfAsset(op.sendAsset()),
					muxedKey(op.destination()),
					amountOf(op.sendAmount(), `${at} sendAmount`),
					'Stellar path payment (strict send)',
				);
				return;
			}
			case xdr.OperationType.createAccount(): {
				const op = body.createAccountOp();
				move(
					'native',
					accountIdKey(op.destination()),
					amountOf(op.startingBalance(), `${at} starting balance`),
					'Stellar create account (starting balance)',
				);
				return;
			}
			case xdr.OperationType.createClaimableBalance(): {
				const op = body.createClaimableBalanceOp();
				const amount = amountOf(op.amount(), `${at} amount`);
				const claimants = op.claimants().map((claimant) => claimant.v0());
				const [single] = claimants;
				if (
					claimants.length === 1 &&
					single.predicate().switch() === xdr.ClaimPredicateType.claimPredicateUnconditional()
				) {
					move(
						keyOfAsset(op.asset()),
						accountIdKey(single.destination()),
						amount,
						'Stellar claimable balance (one unconditional claimant)',
					);
					return;
				}
				const to = claimants.map((claimant) => accountIdKey(claimant.destination())).join(', ');
				move(keyOfAsset(op.asset()), 'claimable balance', amount, 'Stellar claimable balance');
				opaque.push({
					to: type,
					what: `a claimable balance for ${to} with conditions or several claimants`,
				});
				return;
			}
			case xdr.OperationType.manageSellOffer():
			case xdr.OperationType.createPassiveSellOffer(): {
				const op =
					body.switch() === xdr.OperationType.manageSellOffer()
						? body.manageSellOfferOp()
						: body.createPassiveSellOfferOp();
				const selling = keyOfAsset(op.selling());
				move(selling, SDEX, amountOf(op.amount(), `${at} amount`), 'SDEX offer');
				opaque.push({
					to: SDEX,
					what: `an offer on the Stellar DEX selling ${selling} for ${keyOfAsset(op.buying())}`,
				});
				return;
			}
			case xdr.OperationType.manageBuyOffer(): {
				const op = body.manageBuyOfferOp();
				const selling = keyOfAsset(op.selling());
				move(
					selling,
					SDEX,
					buyOfferCost(amountOf(op.buyAmount(), `${at} buy amount`), op.price()),
					'SDEX offer',
				);
				opaque.push({
					to: SDEX,
					what: `an offer on the Stellar DEX buying ${keyOfAsset(op.buying())} with ${selling}`,
				});
				return;
			}
			case xdr.OperationType.accountMerge(): {
				const destination = muxedKey(body.destination());
				management(
					`merges the account into ${destination} (account merge: its whole XLM balance, and the account closed)`,
					destination,
				);
				return;
			}
			case xdr.OperationType.setOptions(): {
				const op = body.setOptionsOp();
				const changes = authorityChanges(op);
				if (changes.length)
					management(`changes who controls the account with set options (${changes.join(', ')})`);
				else if (op.inflationDest())
					opaque.push({ to: type, what: 'set options naming an inflation destination' });
				return;
			}
			case xdr.OperationType.changeTrust(): {
				const op = body.changeTrustOp();
				amountOf(op.limit(), `${at} limit`);
				if (op.line().switch() === xdr.AssetType.assetTypePoolShare())
					opaque.push({ to: type, what: 'a trustline to a liquidity pool share' });
				return;
			}
			case xdr.OperationType.clawback(): {
				const op = body.clawbackOp();
				amountOf(op.amount(), `${at} amount`);
				opaque.push({
					to: type,
					what: `a clawback of ${keyOfAsset(op.asset())} from ${muxedKey(op.from())}`,
				});
				return;
			}
			case xdr.OperationType.bumpSequence():
				management(
					`bumps the account's sequence to ${body.bumpSequenceOp().bumpTo().toString()} (bump sequence: every transaction it signed below that can no longer apply, and at 2^63 - 1 none ever can again)`,
				);
				return;
			case xdr.OperationType.setTrustLineFlags():
			case xdr.OperationType.allowTrust():
				return;
			default:
				opaque.push({
					to: type,
					what: `a Stellar ${type} operation, which the Signer does not read`,
				});
		}
	});
	return {
		chainId: decoded.chainId,
		// The signing account: a muxed source (M…) is the same account, as intents and limits name it.
		from: baseOfKey(decoded.source),
		movements,
		opaque,
		...(handsOver.length ? { handsOver: handsOver.join('; ') } : {}),
		maxFee: decoded.feeBump?.fee ?? decoded.fee,
	};
}
