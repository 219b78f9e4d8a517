/**
 * The devnet's USDT: a TRC-20 token of 6 decimals kept as a ledger of balances and allowances, with the
 * energy a transfer costs taken from USDT's published figures (to a holder, to a first-time holder;
 * vendor pages, not measured here). It knows transfer, transferFrom, approve, increaseApproval (Tron's
 * USDT has it) and the constant balanceOf, allowance and decimals; any other call reverts. As a Solidity
 * contract does, it reads its arguments from the first words of the call data and ignores what follows.
 */

export const TRC20_DECIMALS = 6;
/** Energy of a USDT transfer to an address that holds USDT, and to one that holds none (vendor figures). */
const TRANSFER_ENERGY_TO_HOLDER = 64_285;
const TRANSFER_ENERGY_TO_NEW_HOLDER = 130_285;
/** Energy a reverted call uses (a stand-in figure: the real one depends on where the token reverts). */
const REVERT_ENERGY = 1_000;
const CONSTANT_ENERGY = 2_000;
/** Energy of setting an allowance (a stand-in figure). */
const APPROVE_ENERGY = 22_000;
const UNLIMITED = 2n ** 256n - 1n;

const TRANSFER = 'a9059cbb';
const TRANSFER_FROM = '23b872dd';
const APPROVE = '095ea7b3';
const INCREASE_APPROVAL = 'd73dd623';
const BALANCE_OF = '70a08231';
const ALLOWANCE = 'dd62ed3e';
const DECIMALS = '313ce567';
const WORD = 64;

/** What a call changes: tokens moved (a Transfer log), and an allowance set to a new value. */
export interface TokenTransfer {
	from: string;
	to: string;
	amount: bigint;
}
export interface AllowanceChange {
	owner: string;
	spender: string;
	amount: bigint;
}

export type CallOutcome =
	| {
			result: 'SUCCESS';
			energy: number;
			output: string;
			transfer?: TokenTransfer;
			allowance?: AllowanceChange;
	  }
	| { result: 'REVERT'; energy: number; output: string };

export class Trc20Ledger {
	private readonly balances = new Map<string, bigint>();
	private readonly allowances = new Map<string, bigint>();

	constructor(readonly address: string) {}

	balanceOf(holder: string): bigint {
		return this.balances.get(holder) ?? 0n;
	}

	allowance(owner: string, spender: string): bigint {
		return this.allowances.get(`${owner}:${spender}`) ?? 0n;
	}

	mint(holder: string, amount: bigint): void {
		this.balances.set(holder, this.balanceOf(holder) + amount);
	}

	/** What a call would do and cost, without doing it. */
	call(caller: string, data: string): CallOutcome {
		const selector = data.slice(0, 8);
		const args = data.slice(8);
		const has = (words: number) => args.length >= words * WORD;
		const amountArg = (index: number) =>
			BigInt(`0x${args.slice(index * WORD, (index + 1) * WORD)}`);
		if (selector === BALANCE_OF && has(1))
			return constant(word(this.balanceOf(addressArg(args, 0))));
		if (selector === ALLOWANCE && has(2))
			return constant(word(this.allowance(addressArg(args, 0), addressArg(args, 1))));
		if (selector === DECIMALS) return constant(word(BigInt(TRC20_DECIMALS)));
		if (selector === TRANSFER && has(2))
			return this.transferOutcome({ from: caller, to: addressArg(args, 0), amount: amountArg(1) });
		if (selector === TRANSFER_FROM && has(3)) {
			const transfer = { from: addressArg(args, 0), to: addressArg(args, 1), amount: amountArg(2) };
			const allowed = this.allowance(transfer.from, caller);
			if (allowed < transfer.amount) return REVERTED;
			const outcome = this.transferOutcome(transfer);
			if (outcome.result !== 'SUCCESS' || allowed === UNLIMITED) return outcome;
			return {
				...outcome,
				allowance: { owner: transfer.from, spender: caller, amount: allowed - transfer.amount },
			};
		}
		if ((selector === APPROVE || selector === INCREASE_APPROVAL) && has(2)) {
			const spender = addressArg(args, 0);
			const amount =
				selector === APPROVE ? amountArg(1) : this.allowance(caller, spender) + amountArg(1);
			if (amount > UNLIMITED) return REVERTED;
			return {
				result: 'SUCCESS',
				energy: APPROVE_ENERGY,
				output: word(1n),
				allowance: { owner: caller, spender, amount },
			};
		}
		return REVERTED;
	}

	apply(outcome: { transfer?: TokenTransfer; allowance?: AllowanceChange }): void {
		const { transfer, allowance } = outcome;
		if (transfer) {
			this.balances.set(transfer.from, this.balanceOf(transfer.from) - transfer.amount);
			this.balances.set(transfer.to, this.balanceOf(transfer.to) + transfer.amount);
		}
		if (allowance) this.allowances.set(`${allowance.owner}:${allowance.spender}`, allowance.amount);
	}

	private transferOutcome(transfer: TokenTransfer): CallOutcome {
		if (this.balanceOf(transfer.from) < transfer.amount) return REVERTED;
		const energy =
			this.balanceOf(transfer.to) > 0n ? TRANSFER_ENERGY_TO_HOLDER : TRANSFER_ENERGY_TO_NEW_HOLDER;
		return { result: 'SUCCESS', energy, output: word(1n), transfer };
	}
}

const REVERTED: CallOutcome = { result: 'REVERT', energy: REVERT_ENERGY, output: '' };
const constant = (output: string): CallOutcome => ({
	result: 'SUCCESS',
	energy: CONSTANT_ENERGY,
	output,
});

/** The ABI word at `index` read as an address, in Tron's hex41 form. */
function addressArg(args: string, index: number): string {
	return `41${args.slice(index * WORD + 24, (index + 1) * WORD)}`;
}

const word = (value: bigint) => value.toString(16).padStart(WORD, '0');
