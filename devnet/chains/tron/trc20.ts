/**
 * The devnet's USDT: a TRC-20 token of 6 decimals kept as a ledger of balances, with the energy a call
 * costs taken from USDT's published figures (a transfer to a holder, to a first-time holder; vendor pages,
 * not measured here). Only the calls the Signer makes are known: transfer and the constant balanceOf
 * and decimals; any other call reverts.
 */

export const TRC20_DECIMALS = 6;
/** Energy of a USDT transfer to an address that holds USDT, and to one that holds none (vendor figures). */
const TRANSFER_ENERGY_TO_HOLDER = 64_285;
const TRANSFER_ENERGY_TO_NEW_HOLDER = 130_285;
/** Energy a reverted call uses (a stand-in figure: the real one depends on where the token reverts). */
const REVERT_ENERGY = 1_000;
const CONSTANT_ENERGY = 2_000;

const TRANSFER = 'a9059cbb';
const BALANCE_OF = '70a08231';
const DECIMALS = '313ce567';
const WORD = 64;

export type CallOutcome =
	| {
			result: 'SUCCESS';
			energy: number;
			output: string;
			transfer?: { from: string; to: string; amount: bigint };
	  }
	| { result: 'REVERT'; energy: number; output: string };

export class Trc20Ledger {
	private readonly balances = new Map<string, bigint>();

	constructor(readonly address: string) {}

	balanceOf(holder: string): bigint {
		return this.balances.get(holder) ?? 0n;
	}

	mint(holder: string, amount: bigint): void {
		this.balances.set(holder, this.balanceOf(holder) + amount);
	}

	/** What a call would do and cost, without doing it. */
	call(caller: string, data: string): CallOutcome {
		const selector = data.slice(0, 8);
		const args = data.slice(8);
		if (selector === BALANCE_OF && args.length === WORD)
			return {
				result: 'SUCCESS',
				energy: CONSTANT_ENERGY,
				output: word(this.balanceOf(addressArg(args, 0))),
			};
		if (selector === DECIMALS && args.length === 0)
			return { result: 'SUCCESS', energy: CONSTANT_ENERGY, output: word(BigInt(TRC20_DECIMALS)) };
		if (selector === TRANSFER && args.length === 2 * WORD) {
			const to = addressArg(args, 0);
			const amount = BigInt(`0x${args.slice(WORD)}`);
			if (this.balanceOf(caller) < amount)
				return { result: 'REVERT', energy: REVERT_ENERGY, output: '' };
			const energy =
				this.balanceOf(to) > 0n ? TRANSFER_ENERGY_TO_HOLDER : TRANSFER_ENERGY_TO_NEW_HOLDER;
			return {
				result: 'SUCCESS',
				energy,
				output: word(1n),
				transfer: { from: caller, to, amount },
			};
		}
		return { result: 'REVERT', energy: REVERT_ENERGY, output: '' };
	}

	apply(transfer: { from: string; to: string; amount: bigint }): void {
		this.balances.set(transfer.from, this.balanceOf(transfer.from) - transfer.amount);
		this.balances.set(transfer.to, this.balanceOf(transfer.to) + transfer.amount);
	}
}

/** The ABI word at `index` read as an address, in Tron's hex41 form. */
function addressArg(args: string, index: number): string {
	return `41${args.slice(index * WORD + 24, (index + 1) * WORD)}`;
}

const word = (value: bigint) => value.toString(16).padStart(WORD, '0');
