import {
	availableNative,
	INT64_MAX,
	issuerOf,
	type LedgerState,
	type StellarAccount,
	type Trustline,
} from './accounts';

/** An operation that failed with its result code's name (the XDR code without the operation's prefix, e.g. `Underfunded`). */
export class OpFailure extends Error {
	constructor(readonly code: string) {
		super(code);
	}
}

export function accountOf(state: LedgerState, id: string): StellarAccount | undefined {
	return state.accounts.get(id);
}

/** Whether the trustline lets its holder receive and send (fully authorised). */
export const isAuthorized = (line: Trustline) => line.authorized;

/**
 * Moves `amount` of `asset` from `source` to `destination` as stellar-core's payment does: the destination's
 * side first (no account, no trustline, not authorised, over its limit), then the source's (no trustline, not
 * authorised, underfunded, XLM above the reserve). The issuer sends and receives its own asset without a
 * trustline (it mints and burns).
 */
export function transfer(
	state: LedgerState,
	source: StellarAccount,
	destinationId: string,
	asset: string,
	amount: bigint,
): void {
	const destination = accountOf(state, destinationId);
	if (!destination) throw new OpFailure('NoDestination');
	const issuer = issuerOf(asset);
	if (issuer !== undefined && !state.accounts.has(issuer)) throw new OpFailure('NoIssuer');
	if (asset === 'native') {
		if (destination.balance + amount > INT64_MAX) throw new OpFailure('LineFull');
		if (availableNative(source) < amount) throw new OpFailure('Underfunded');
		source.balance -= amount;
		destination.balance += amount;
		return;
	}
	const destinationLine = destination.id === issuer ? undefined : destination.trustlines.get(asset);
	if (destination.id !== issuer) {
		if (!destinationLine) throw new OpFailure('NoTrust');
		if (!isAuthorized(destinationLine)) throw new OpFailure('NotAuthorized');
		if (destinationLine.balance + amount > destinationLine.limit) throw new OpFailure('LineFull');
	}
	const sourceLine = source.id === issuer ? undefined : source.trustlines.get(asset);
	if (source.id !== issuer) {
		if (!sourceLine) throw new OpFailure('SrcNoTrust');
		if (!isAuthorized(sourceLine)) throw new OpFailure('SrcNotAuthorized');
		if (sourceLine.balance < amount) throw new OpFailure('Underfunded');
	}
	if (sourceLine) sourceLine.balance -= amount;
	if (destinationLine) destinationLine.balance += amount;
}
