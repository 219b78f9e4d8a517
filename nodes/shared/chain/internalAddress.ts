/** The kinds of address inside a network rather than on the internet. */
export type InternalKind =
	| 'loopback'
	| 'private'
	| 'link-local'
	| 'unspecified'
	| 'shared (CGNAT)'
	| 'multicast or reserved'
	| 'local name';

/**
 * Where a URL's host is inside a network rather than on the internet, and which kind of place that is:
 * loopback, private, link-local, unspecified, shared, multicast or reserved IP addresses, and the names
 * that only resolve inside one (localhost, single-label names, .local, .internal, .localdomain,
 * .home.arpa). The URL parser has already normalized the host (IPv4 in any notation, IPv6 compressed),
 * so only its canonical forms are read here. A public name that resolves to an internal address is not
 * seen: n8n's HTTP helper resolves it when it sends.
 */
export function internalHostOf(url: string): { host: string; kind: InternalKind } | undefined {
	let host: string;
	try {
		host = new URL(url).hostname.toLowerCase();
	} catch {
		return undefined;
	}
	const kind = host.startsWith('[')
		? ipv6Kind(host.slice(1, -1))
		: ipv4Bytes(host)
			? ipv4Kind(ipv4Bytes(host) as number[])
			: nameKind(host.replace(/\.$/, ''));
	return kind && { host, kind };
}

function nameKind(name: string): InternalKind | undefined {
	if (/(^|\.)localhost$/.test(name)) return 'loopback';
	if (!name.includes('.') || /\.(local|internal|localdomain|home\.arpa)$/.test(name))
		return 'local name';
	return undefined;
}

function ipv4Bytes(host: string): number[] | undefined {
	const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	return match ? match.slice(1).map(Number) : undefined;
}

function ipv4Kind([a, b]: number[]): InternalKind | undefined {
	if (a === 127) return 'loopback';
	if (a === 0) return 'unspecified';
	if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
	if (a === 169 && b === 254) return 'link-local';
	if (a === 100 && b >= 64 && b <= 127) return 'shared (CGNAT)';
	// IETF protocol assignments and documentation (192.0/16), benchmarking, multicast, reserved, broadcast.
	if ((a === 192 && b === 0) || (a === 198 && (b === 18 || b === 19)) || a >= 224)
		return 'multicast or reserved';
	return undefined;
}

/** The eight 16-bit groups of a canonical IPv6 address (as the URL parser writes it). */
function ipv6Groups(address: string): number[] | undefined {
	const [head, tail] = address.split('::');
	const groups = (part: string | undefined) => (part ? part.split(':') : []);
	const left = groups(head);
	const right = groups(tail);
	const missing = 8 - left.length - right.length;
	if (address.includes('::') ? missing < 1 : missing !== 0) return undefined;
	const all = [...left, ...Array<string>(missing).fill('0'), ...right].map((group) =>
		parseInt(group, 16),
	);
	return all.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
		? all
		: undefined;
}

function ipv6Kind(address: string): InternalKind | undefined {
	const groups = ipv6Groups(address);
	if (!groups) return 'multicast or reserved';
	const [first] = groups;
	const zeroUntil = (count: number) => groups.slice(0, count).every((group) => group === 0);
	if (zeroUntil(7) && groups[7] === 0) return 'unspecified';
	if (zeroUntil(7) && groups[7] === 1) return 'loopback';
	const embedded = ipv4Kind([groups[6] >> 8, groups[6] & 0xff]);
	// IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d and NAT64
	// 64:ff9b::a.b.c.d: the IPv4 address decides.
	if (zeroUntil(5) && (groups[5] === 0xffff || groups[5] === 0)) return embedded;
	if (zeroUntil(4) && groups[4] === 0xffff && groups[5] === 0) return embedded;
	if (first === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0))
		return embedded;
	// Local-use NAT64 (RFC 8215): a translator inside the network, at any prefix length.
	if (first === 0x64 && groups[1] === 0xff9b && groups[2] === 1) return 'private';
	if ((first & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
	if ((first & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
	if ((first & 0xffc0) === 0xfec0) return 'private'; // site-local fec0::/10 (deprecated)
	if ((first & 0xff00) === 0xff00 || (first === 0x2001 && groups[1] === 0xdb8))
		return 'multicast or reserved';
	return undefined;
}
