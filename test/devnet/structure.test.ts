/**
 * The devnet's floors (CONTRIBUTING.md, "The devnet's floors"): every import stays in the devnet and
 * goes down or sideways, never up; no import cycle among its files, nor among its rooms. Read from the
 * sources, so a new file is held to it without being listed.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';

const devnet = join(__dirname, '..', '..', 'devnet');

/**
 * Lowest first: a room (a top-level file or folder; `chains.ts` and `chains/` are one room) may
 * import its own floor or one below.
 */
const FLOORS = [
	['api', 'compile', 'readBody'],
	['chains', 'contracts', 'metering'],
	['fixtures'],
	['gateway'],
	['safe', 'stream'],
	['index'],
	['cli'],
];

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

const files = sources(devnet).map((path) => relative(devnet, path));

const roomOf = (file: string) => file.split('/')[0].replace(/\.ts$/, '');

function floorOf(file: string): number {
	const floor = FLOORS.findIndex((rooms) => rooms.includes(roomOf(file)));
	if (floor < 0) throw new Error(`${file} is on no floor of FLOORS`);
	return floor;
}

/** The relative imports of a file, as paths inside the devnet (or outside it, starting with ..). */
function importsOf(file: string): string[] {
	const text = readFileSync(join(devnet, file), 'utf8');
	return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) => {
		const target = relative(devnet, resolve(devnet, dirname(file), match[1]));
		if (target.startsWith('..')) return target;
		return files.includes(`${target}.ts`) ? `${target}.ts` : `${target}/index.ts`;
	});
}

const edges = new Map(files.map((file) => [file, importsOf(file)]));

/** The import cycles of a graph, each as the path that closes it. */
function cyclesOf(graph: Map<string, Set<string>>): string[] {
	const cycles: string[] = [];
	const state = new Map<string, 'open' | 'done'>();
	const visit = (node: string, path: string[]) => {
		if (state.get(node) === 'done') return;
		if (state.get(node) === 'open') {
			cycles.push([...path.slice(path.indexOf(node)), node].join(' -> '));
			return;
		}
		state.set(node, 'open');
		for (const target of graph.get(node) ?? []) visit(target, [...path, node]);
		state.set(node, 'done');
	};
	for (const node of graph.keys()) visit(node, []);
	return cycles;
}

test('every file is on a floor, and every import stays in the devnet and goes down or sideways', () => {
	const upward: string[] = [];
	for (const [file, targets] of edges) {
		for (const target of targets) {
			if (target.startsWith('..')) {
				upward.push(`${file} reaches ${target} outside the devnet`);
				continue;
			}
			expect(files).toContain(target);
			if (floorOf(target) > floorOf(file)) upward.push(`${file} imports ${target} from above`);
		}
	}
	expect(upward).toEqual([]);
});

test('no import cycle among the files', () => {
	const graph = new Map([...edges].map(([file, targets]) => [file, new Set(targets)]));
	expect(cyclesOf(graph)).toEqual([]);
});

test('no import cycle among the rooms: sideways imports on one floor go one way', () => {
	const graph = new Map<string, Set<string>>();
	for (const [file, targets] of edges) {
		const room = graph.get(roomOf(file)) ?? new Set<string>();
		for (const target of targets) if (roomOf(target) !== roomOf(file)) room.add(roomOf(target));
		graph.set(roomOf(file), room);
	}
	expect(cyclesOf(graph)).toEqual([]);
});
