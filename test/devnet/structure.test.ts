/**
 * The devnet's floors (CONTRIBUTING.md, "The devnet's floors"): every import stays in the devnet and
 * goes down or sideways, never up; no import cycle among its files, nor among its rooms. Read from the
 * sources, so a new file is held to it without being listed.
 */
import { join } from 'path';

import { cyclesOf, importGraph } from '../helpers/importGraph';

/**
 * Lowest first: a room (a top-level file or folder; `chains.ts` and `chains/` are one room) may
 * import its own floor or one below.
 */
const FLOORS = [
	['api', 'compile', 'edrContext', 'readBody'],
	['chains', 'contracts', 'metering'],
	['fixtures'],
	['gateway'],
	['custody', 'safe', 'stream'],
	['index'],
	['cli'],
];

const edges = importGraph(join(__dirname, '..', '..', 'devnet'));

const roomOf = (file: string) => file.split('/')[0].replace(/\.ts$/, '');

function floorOf(file: string): number {
	const floor = FLOORS.findIndex((rooms) => rooms.includes(roomOf(file)));
	if (floor < 0) throw new Error(`${file} is on no floor of FLOORS`);
	return floor;
}

test('every file is on a floor, and every import stays in the devnet and goes down or sideways', () => {
	const upward: string[] = [];
	for (const [file, targets] of edges) {
		for (const target of targets) {
			if (target.startsWith('..')) {
				upward.push(`${file} reaches ${target} outside the devnet`);
				continue;
			}
			expect([...edges.keys()]).toContain(target);
			if (floorOf(target) > floorOf(file)) upward.push(`${file} imports ${target} from above`);
		}
	}
	expect(upward).toEqual([]);
});

test('no import cycle among the files', () => {
	expect(cyclesOf(edges)).toEqual([]);
});

test('no import cycle among the rooms: sideways imports on one floor go one way', () => {
	const rooms = new Map<string, Set<string>>();
	for (const [file, targets] of edges) {
		const room = rooms.get(roomOf(file)) ?? new Set<string>();
		for (const target of targets) if (roomOf(target) !== roomOf(file)) room.add(roomOf(target));
		rooms.set(roomOf(file), room);
	}
	expect(cyclesOf(rooms)).toEqual([]);
});
