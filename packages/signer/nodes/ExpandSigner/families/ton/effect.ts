import type { Movement, OpaqueCall, TransactionEffect } from '../../policy/vocabulary';
import { isEmptyBody, readComment } from './comment';
import { forwardingFees } from './fees';
import { decodeJettonBody, type JettonBurn, type JettonTransfer } from './jetton';
import type { TonAccount } from './keys';
import { type TonOutMessage, type TonTransfer, UndecodableTonTransaction } from './message';

/** Send mode flags: +128 carries the wallet's whole balance, +32 destroys the wallet once it is empty. */
const CARRY_ALL_BALANCE = 128;
const DESTROY_IF_ZERO = 32;
/** +1 pays the fees apart from the value, +2 ignores errors: neither moves more than the message says. */
const READ_MODE_BITS = 1 | 2;

/** What a mode with +128 or +32 does, in words; a mode with any other flag is refused as unreadable. */
function handsOverWords(message: TonOutMessage): string | undefined {
	const { mode } = message;
	if (mode & ~(READ_MODE_BITS | CARRY_ALL_BALANCE | DESTROY_IF_ZERO))
		throw new UndecodableTonTransaction(
			`The TON message to ${message.to} has send mode ${mode}, whose flags the signer does not read (only +1 and +2 are signed)`,
		);
	const words = [
		...(mode & CARRY_ALL_BALANCE ? ["carries the wallet's whole balance (+128)"] : []),
		...(mode & DESTROY_IF_ZERO ? ['destroys the wallet once its balance is zero (+32)'] : []),
	];
	return words.length
		? `sends to ${message.to} with mode ${mode}, which ${words.join(' and ')}`
		: undefined;
}

/** Why a jetton message from the sender's own jetton wallet cannot be read as a payment, if it cannot. */
function unreadJetton(
	jetton: JettonTransfer | JettonBurn,
	message: TonOutMessage,
	from: string,
): string | undefined {
	if (!message.bounce)
		return 'a jetton wallet call sent without bounce, so a failure would keep its TON instead of returning it';
	if (jetton.responseDestination !== from)
		return `a jetton ${jetton.kind} whose leftover TON goes to ${jetton.responseDestination ?? 'no one'}, not the sender`;
	if (jetton.customPayload)
		return `a jetton ${jetton.kind} with a custom payload, which the signer cannot read`;
	return undefined;
}

/**
 * What a TON transfer does to its wallet, in the spending policy's terms. Every message's TON is a native
 * movement to its destination, with the text comment it carries as its memo. A jetton transfer or burn
 * sent to one of the sender's own jetton wallets (`ownJettonWallets`, jetton wallet → master, both raw,
 * as the masters name them) moves the master's jetton to its destination (a burn: to the master), its
 * attached TON a cost of carrying it out and the most it can cost in fees; every other body (not a text
 * comment) is an opaque call. A mode that carries the whole balance or destroys the wallet hands it over
 * (refused always); a state init deploys a contract. The fee also counts what carrying the messages
 * costs, which grows with their size.
 */
export function tonEffect(
	transfer: TonTransfer,
	account: TonAccount,
	ownJettonWallets: Map<string, string>,
): TransactionEffect {
	const from = account.address;
	const movements: Movement[] = [];
	const opaque: OpaqueCall[] = [];
	const { init } = account.wallet();
	let maxFee = forwardingFees(
		transfer.messages,
		transfer.deployWallet ? [init.code, init.data] : [],
	);
	let deploys = false;
	const handsOver: string[] = [];
	for (const message of transfer.messages) {
		const words = handsOverWords(message);
		if (words) handsOver.push(words);
		if (message.stateInit) deploys = true;
		const native: Movement = {
			asset: 'native',
			recipient: message.to,
			amount: message.value,
			via: 'TON transfer',
			action: 'transfer',
		};
		const { body } = message;
		if (!body || isEmptyBody(body)) {
			movements.push(native);
			continue;
		}
		const memo = readComment(body);
		if (memo !== undefined) {
			movements.push({ ...native, memo });
			continue;
		}
		const jetton = decodeJettonBody(body);
		const master = ownJettonWallets.get(message.to);
		if (!jetton) {
			movements.push(native);
			opaque.push({
				to: message.to,
				what: `a message to ${message.to} whose body is neither a text comment nor a jetton transfer`,
			});
			continue;
		}
		if (!master) {
			movements.push(native);
			opaque.push({
				to: message.to,
				what: `a jetton ${jetton.kind} from a jetton wallet not shown to be the sender's (${message.to})`,
			});
			continue;
		}
		const unread = unreadJetton(jetton, message, from);
		if (unread) {
			movements.push(native);
			opaque.push({ to: message.to, what: `${unread} (jetton wallet ${message.to})` });
			continue;
		}
		const recipient = jetton.kind === 'transfer' ? jetton.destination : master;
		movements.push({
			asset: master,
			recipient,
			amount: jetton.amount,
			via: `jetton ${jetton.kind}`,
			action: 'transfer',
			contract: master,
			// The recipient is notified with the comment only when forward_ton_amount pays the notification.
			...(jetton.kind === 'transfer' && jetton.comment !== undefined && jetton.forwardTonAmount > 0n
				? { memo: jetton.comment }
				: {}),
		});
		// The attached TON pays the jetton wallets' fees and the forward amount to the recipient; the rest comes back.
		movements.push({
			...native,
			recipient,
			via: `TON attached to a jetton ${jetton.kind}`,
			cost: true,
		});
		maxFee += message.value;
		if (jetton.kind === 'transfer' && jetton.forwardPayload && jetton.comment === undefined)
			opaque.push({
				to: jetton.destination,
				what: `a jetton transfer notifying ${jetton.destination} with a payload that is not a text comment, which the recipient may act on`,
			});
	}
	return {
		chainId: transfer.chainId,
		from,
		movements,
		opaque,
		...(deploys ? { deploys: true as const } : {}),
		...(handsOver.length ? { handsOver: handsOver.join('; ') } : {}),
		maxFee,
	};
}
