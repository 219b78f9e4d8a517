import { getBytes } from 'ethers';

import type { Movement, OpaqueCall, TransactionEffect } from '../../policy/vocabulary';
import { base58Address } from './address';
import type { DecodedTransaction } from './decode';
import { decodeTrc20Call } from './trc20';

/** A TRC-10 token as a movement's asset: its ID (a number), which no address can be mistaken for. */
export const trc10Asset = (id: string) => `TRC-10 ${id}`;

/**
 * A TRC-10 movement is also unreadable to the spending rules: no amount limit line can name a TRC-10
 * token, so under amount limits alone one of any size would be signed uncapped. As an opaque call it
 * is refused while an amount limit or the recipient list is set, unless its recipient (a transfer's)
 * or contract (a call's) is listed.
 */
const trc10Opaque = (movement: Movement): OpaqueCall => ({
	to: movement.recipient,
	what: `${movement.via} of ${movement.amount} (smallest unit) of ${movement.asset}, an asset no amount limit can name`,
});

/** The text of a hex field (TRC-10 IDs travel as the hex of their decimal digits). */
const textOf = (hex: unknown) => new TextDecoder().decode(getBytes(`0x${String(hex)}`));

const address = (hex: unknown) => base58Address(String(hex)) ?? String(hex);

/**
 * What a decoded transaction does to its owner, in the spending policy's terms: TRX sent
 * (TransferContract), a TRC-10 token sent (TransferAssetContract), and for a contract call
 * (TriggerSmartContract) the TRX and TRC-10 it carries and the TRC-20 operation its data encodes
 * (transfer, transferFrom, approve, increaseApproval); a call that is none of those is opaque, so is
 * a TRC-10 movement (trc10Opaque), and so is every other contract type (freezing, voting,
 * permissions, …), named by its type, which no allowlist can hold. Its fee ceiling is fee_limit,
 * the most a contract call may burn in energy.
 */
export function tronEffect(decoded: DecodedTransaction, chainId: string): TransactionEffect {
	const { value } = decoded;
	const movements: Movement[] = [];
	const opaque: OpaqueCall[] = [];
	const trc10 = (movement: Movement) => {
		movements.push(movement);
		opaque.push(trc10Opaque(movement));
	};
	switch (decoded.type) {
		case 'TransferContract':
			movements.push({
				asset: 'native',
				recipient: address(value.to_address),
				amount: BigInt(value.amount as number),
				via: 'TRX transfer',
				action: 'transfer',
			});
			break;
		case 'TransferAssetContract':
			trc10({
				asset: trc10Asset(textOf(value.asset_name)),
				recipient: address(value.to_address),
				amount: BigInt(value.amount as number),
				via: 'TRC-10 transfer',
				action: 'transfer',
			});
			break;
		case 'TriggerSmartContract': {
			const contract = address(value.contract_address);
			const callValue = BigInt((value.call_value as number | undefined) ?? 0);
			const tokenValue = BigInt((value.call_token_value as number | undefined) ?? 0);
			if (callValue > 0n)
				movements.push({
					asset: 'native',
					recipient: contract,
					amount: callValue,
					via: 'TRX sent with a contract call',
					action: 'transfer',
				});
			if (tokenValue > 0n)
				trc10({
					asset: trc10Asset(String(value.token_id)),
					recipient: contract,
					amount: tokenValue,
					via: 'TRC-10 token sent with a contract call',
					action: 'transfer',
				});
			const token = decodeTrc20Call(contract, String(value.data ?? ''));
			if (token) movements.push(token);
			else
				opaque.push({
					to: contract,
					what: 'a contract call that is not a TRC-20 transfer, transferFrom, approve or increaseApproval',
				});
			break;
		}
		default:
			opaque.push({
				to: decoded.type,
				what: `a ${decoded.type}, which is not a payment the Signer reads`,
			});
	}
	return { chainId, from: decoded.owner, movements, opaque, maxFee: decoded.feeLimit };
}
