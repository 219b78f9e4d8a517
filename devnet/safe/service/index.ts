import { SafeChainReader } from '../onChain';
import { ZERO_ADDRESS } from '../safeTx';
import { DelegateRegistry } from './delegates';
import { type Body, isChecksumAddress } from './fields';
import { type Answer, Page, type PageLimits } from './http';
import { TransactionStore } from './transactions';

type Rpc = <T = unknown>(method: string, params?: unknown[]) => Promise<T>;

const checksumFailed = (address: string): Answer => ({
	status: 422,
	body: { code: 1, message: 'Checksum address validation failed', arguments: [address] },
});

const HASH = '(0x[0-9a-fA-F]{64})';

/**
 * A stand-in of the Safe Transaction Service for one devnet chain: the real service's paths
 * (`/api/v1/…`, `/api/v2/…`), checks, messages and answer shapes, for the endpoints that propose,
 * list, confirm and read. Proposals and delegates live in memory; owners, threshold, nonce and
 * executions are read from the chain on every call.
 */
export class SafeTransactionService {
	readonly chain: SafeChainReader;
	readonly delegates: DelegateRegistry;
	readonly transactions: TransactionStore;
	/** Safes the stand-in knows (the devnet's, and any that received a proposal): what the real one would have indexed. */
	readonly safes: Set<string>;
	/** Page sizes of every list (the service's 100 by default, at most 200); tests may lower them to see paging. */
	readonly pageLimits: PageLimits = { default: 100, max: 200 };

	constructor(rpc: Rpc, chainId: string, safes: string[]) {
		this.chain = new SafeChainReader(rpc, chainId);
		this.delegates = new DelegateRegistry(this.chain);
		this.safes = new Set(safes);
		this.transactions = new TransactionStore(this.chain, this.delegates, this.safes);
	}

	/** `path` is the part after the service's base (e.g. `/api/v1/safes/0x…/`); `url` the whole request URL, for page links. */
	async handle(
		method: string,
		path: string,
		url: URL,
		readBody: () => Promise<string>,
	): Promise<Answer> {
		const route = path.replace(/\/?$/, '/');
		// An unreadable body gets DRF's ParseError before any check.
		const withBody = async (handler: (body: Body) => Promise<Answer>): Promise<Answer> => {
			let parsed: unknown;
			try {
				const text = await readBody();
				parsed = text === '' ? {} : JSON.parse(text);
			} catch {
				parsed = undefined;
			}
			if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
				return { status: 400, body: { detail: 'JSON parse error' } };
			return handler(parsed as Body);
		};
		const page = new Page(url, this.pageLimits);
		let match: RegExpMatchArray | null;

		if (route === '/api/v1/about/' && method === 'GET')
			return {
				status: 200,
				body: {
					name: 'Safe Transaction Service',
					version: 'devnet',
					api_version: 'v1',
					secure: false,
					host: url.host,
					headers: [],
					settings: { ETHEREUM_NODE_URL: 'devnet', ETH_L2_NETWORK: true },
				},
			};
		if ((match = route.match(new RegExp(`^/api/v1/safes/([^/]+)/$`))) && method === 'GET')
			return this.safeInfo(match[1]);
		if ((match = route.match(/^\/api\/v1\/owners\/([^/]+)\/safes\/$/)) && method === 'GET')
			return this.safesOf(match[1]);
		if ((match = route.match(new RegExp(`^/api/(v1|v2)/safes/([^/]+)/multisig-transactions/$`)))) {
			const [, version, safe] = match;
			if (!isChecksumAddress(safe)) return checksumFailed(safe);
			if (method === 'GET') return this.transactions.list(safe, version as 'v1' | 'v2', page);
			if (method === 'POST') return withBody((parsed) => this.transactions.propose(safe, parsed));
		}
		if (
			(match = route.match(new RegExp(`^/api/(v1|v2)/multisig-transactions/${HASH}/$`))) &&
			method === 'GET'
		)
			return this.transactions.detail(match[2].toLowerCase(), match[1] as 'v1' | 'v2');
		if (
			(match = route.match(new RegExp(`^/api/v1/multisig-transactions/${HASH}/confirmations/$`)))
		) {
			const hash = match[1].toLowerCase();
			if (method === 'GET') return this.transactions.confirmations(hash, page);
			if (method === 'POST') return withBody((parsed) => this.transactions.confirm(hash, parsed));
		}
		if (route === '/api/v2/delegates/') {
			if (method === 'GET') return this.delegates.list(page);
			if (method === 'POST') return withBody((parsed) => this.delegates.add(parsed));
		}
		if ((match = route.match(new RegExp(`^/api/v2/delegates/([^/]+)/$`))) && method === 'DELETE') {
			const delegate = match[1];
			if (!isChecksumAddress(delegate)) return checksumFailed(delegate);
			return withBody((parsed) => this.delegates.remove(delegate, parsed));
		}
		return { status: 404, body: { detail: 'Not found.' } };
	}

	/** GET /api/v1/owners/{address}/safes/: the known Safes the address owns now. */
	private async safesOf(owner: string): Promise<Answer> {
		if (!isChecksumAddress(owner)) return checksumFailed(owner);
		const owned: string[] = [];
		for (const safe of this.safes)
			if ((await this.chain.owners(safe))?.includes(owner)) owned.push(safe);
		return { status: 200, body: { safes: owned } };
	}

	/** GET /api/v1/safes/{address}/ (SafeInfoResponseSerializer), read from the chain. */
	private async safeInfo(address: string): Promise<Answer> {
		if (!isChecksumAddress(address)) return checksumFailed(address);
		const info = await this.chain.info(address);
		if (!info) return { status: 404 };
		return {
			status: 200,
			body: {
				address: info.address,
				nonce: String(info.nonce),
				threshold: info.threshold,
				owners: info.owners,
				masterCopy: info.masterCopy,
				modules: info.modules,
				fallbackHandler: info.fallbackHandler,
				guard: info.guard,
				moduleGuard: ZERO_ADDRESS,
				version: info.version,
			},
		};
	}
}
