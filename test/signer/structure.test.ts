/**
 * The Signer's floors (CONTRIBUTING.md, "The Signer's floors"): every import goes down or sideways,
 * never up; the chain families never import each other; only the door reaches the core's code; no
 * import cycle; and the credential's ledger fields are read on the ledger floor only. Read from the
 * sources, so a new file is held to it without being listed.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';

const signer = join(__dirname, '..', '..', 'packages', 'signer', 'nodes', 'ExpandSigner');

/** Lowest first: a file may import its own floor or one below. */
const FLOORS = [
	'core.ts',
	'policy',
	'ledger',
	'nonces',
	'families',
	'actions',
	'methods',
	'ExpandSigner.node.ts',
];

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

const files = sources(signer).map((path) => relative(signer, path));

function floorOf(file: string): number {
	const floor = FLOORS.indexOf(file.split('/')[0]);
	if (floor < 0) throw new Error(`${file} is on no floor of FLOORS`);
	return floor;
}

/** The relative imports of a file, as paths inside the Signer (or outside it, starting with ..). */
function importsOf(file: string): string[] {
	const text = readFileSync(join(signer, file), 'utf8');
	return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) => {
		const target = relative(signer, resolve(signer, dirname(file), match[1]));
		if (target.startsWith('..')) return target;
		return files.includes(`${target}.ts`) ? `${target}.ts` : `${target}/index.ts`;
	});
}

const edges = new Map(files.map((file) => [file, importsOf(file)]));

test('every file is on a floor, and every import stays in the Signer and goes down or sideways', () => {
	const upward: string[] = [];
	for (const [file, targets] of edges) {
		for (const target of targets) {
			if (target.startsWith('..')) {
				if (file !== 'core.ts') upward.push(`${file} reaches ${target} outside the door`);
				continue;
			}
			expect(files).toContain(target);
			if (floorOf(target) > floorOf(file)) upward.push(`${file} imports ${target} from above`);
		}
	}
	expect(upward).toEqual([]);
});

test('the chain families never import each other, in families/ or in actions/', () => {
	const crossing: string[] = [];
	for (const [file, targets] of edges) {
		const family = /^(families|actions)\/(evm|solana)\//.exec(file)?.[2];
		if (!family) continue;
		for (const target of targets) {
			const other = /^(families|actions)\/(evm|solana)\//.exec(target)?.[2];
			if (other && other !== family) crossing.push(`${file} imports ${target}`);
		}
	}
	expect(crossing).toEqual([]);
});

test('no import cycle', () => {
	const cycles: string[] = [];
	const state = new Map<string, 'open' | 'done'>();
	const visit = (file: string, path: string[]) => {
		if (state.get(file) === 'done') return;
		if (state.get(file) === 'open') {
			cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
			return;
		}
		state.set(file, 'open');
		for (const target of edges.get(file) ?? [])
			if (!target.startsWith('..')) visit(target, [...path, file]);
		state.set(file, 'done');
	};
	for (const file of files) visit(file, []);
	expect(cycles).toEqual([]);
});

test("the credential's ledger fields are read in one place, on the ledger floor (ledger/settings.ts)", () => {
	const field =
		/\.(ledgerStore|payoutLedgerFolder|ledger(?:Host|Port|Database|User|Password|Ssl|SslCa|Schema))\b/;
	const readers = files.filter((file) => field.test(readFileSync(join(signer, file), 'utf8')));
	expect(readers).toEqual(['ledger/settings.ts']);
});
