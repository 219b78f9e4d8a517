import type { Handler, HandlerContext } from '../context';
import { fail } from '../failure';
import { type Params, text } from '../params';

/** A running chain of a non-EVM family, as its handlers serve it. */
export interface FamilyRuntime {
	chainId: string;
	symbol: string;
}

export type FamilyHandler<Runtime> = (params: Params, runtime: Runtime) => Promise<unknown>;

/** The runtime a call names (by chainId, which wins, or chainSymbol), if any. */
function runtimeOf<Runtime extends FamilyRuntime>(
	params: Params,
	runtimes: Map<string, Runtime>,
): Runtime | undefined {
	const chainId = text(params, 'chainId');
	if (chainId !== undefined) return runtimes.get(chainId);
	const symbol = text(params, 'chainSymbol')?.toUpperCase();
	return [...runtimes.values()].find((runtime) => runtime.symbol === symbol);
}

/**
 * The handler for a call on one of a family's chains, or undefined when the call names none of them (the
 * EVM handlers answer it). A path the family has no handler for answers "Given function is not applicable".
 */
export function familyRoute<Runtime extends FamilyRuntime>(
	path: string,
	params: Params,
	runtimes: Map<string, Runtime>,
	handlers: Record<string, FamilyHandler<Runtime>>,
): Handler | undefined {
	const runtime = runtimeOf(params, runtimes);
	if (!runtime) return undefined;
	return async (context: HandlerContext) => {
		context.chainId = runtime.chainId;
		const handler = handlers[path];
		// The chain family answers with the invalidInput code (400), as its backend does; the catalogue's own code elsewhere.
		if (!handler) fail('notApplicable', path.startsWith('/chain/') ? 400 : 406);
		return await handler(params, runtime);
	};
}
