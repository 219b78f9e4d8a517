/**
 * Whether a URL's host is an address inside a network rather than on the internet: loopback, private,
 * link-local, unspecified, shared (CGNAT), multicast or reserved IP addresses, and the names that
 * only resolve inside one (localhost, single-label names, .local, .internal, .localdomain,
 * .home.arpa). The URL parser has already normalized the host (IPv4 in any notation, IPv6 compressed),
 * so only its canonical forms are read here. A public name that resolves to an internal address is
 * not seen: n8n's HTTP helper resolves it when it sends.
 */
export function internalHostOf(url: string): string | undefined {
	let host: string;
	try {
		host = new URL(url).hostname.toLowerCase();
	} catch {
		return undefined;
	}
	if (host.startsWith('[')) return internalIpv6(host.slice(1, -1)) ? host : undefined;
	const ipv4 = ipv4Bytes(host);
	if (ipv4) return internalIpv4(ipv4) ? host : undefined;
	const name = host.replace(/\.$/, '');
	const inside =
		!name.includes('.') || /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/.test(name);
	return inside ? host : undefined;
}

function ipv4Bytes(host: string): number[] | undefined {
	const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	return match ? match.slice(1).map(Number) : undefined;
}

function internalIpv4([a, b]: number[]): boolean {
	return (
		a === 0 || // unspecified, "this network"
		a === 10 ||
		a === 127 ||
		(a === 100 && b >= 64 && b <= 127) || // shared address space (CGNAT)
		(a === 169 && b === 254) ||
		(a === 172 && b >= 16 && b <= 31) ||
		(a === 192 && b === 168) ||
		(a === 192 && b === 0) || // IETF protocol assignments, documentation
		(a === 198 && (b === 18 || b === 19)) || // benchmarking
		a >= 224 // multicast, reserved, broadcast
	);
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

function internalIpv6(address: string): boolean {
	const groups = ipv6Groups(address);
	if (!groups) return true;
	const [first] = groups;
	const zeroUntil = (count: number) => groups.slice(0, count).every((group) => group === 0);
	if (zeroUntil(7) && groups[7] <= 1) return true; // :: and ::1
	const embedded = internalIpv4([groups[6] >> 8, groups[6] & 0xff]);
	// IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d and NAT64 64:ff9b::a.b.c.d: the IPv4 address decides.
	if (zeroUntil(5) && (groups[5] === 0xffff || groups[5] === 0)) return embedded;
	if (first === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0))
		return embedded;
	return (
		(first & 0xfe00) === 0xfc00 || // unique local fc00::/7
		(first & 0xffc0) === 0xfe80 || // link-local fe80::/10
		(first & 0xffc0) === 0xfec0 || // site-local fec0::/10 (deprecated)
		(first & 0xff00) === 0xff00 || // multicast
		(first === 0x2001 && groups[1] === 0xdb8) // documentation
	);
}
