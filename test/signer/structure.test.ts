/**
 * The Signer's floors (CONTRIBUTING.md, "The Signer's floors"): every import goes down or sideways,
 * never up; the chain families never import each other; only the door reaches the core's code; no
 * import cycle; and the credential's ledger fields are read on the ledger floor only. Read from the
 * sources, so a new file is held to it without being listed.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { cyclesOf, importGraph } from '../helpers/importGraph';

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

/** Every file of the Signer, with its relative imports (an import leaving the Signer starts with ..). */
const edges = importGraph(signer);
const files = [...edges.keys()];

function floorOf(file: string): number {
	const floor = FLOORS.indexOf(file.split('/')[0]);
	if (floor < 0) throw new Error(`${file} is on no floor of FLOORS`);
	return floor;
}

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
	const inside = new Map(
		[...edges].map(([file, targets]) => [
			file,
			targets.filter((target) => !target.startsWith('..')),
		]),
	);
	expect(cyclesOf(inside)).toEqual([]);
});

test("the credential's ledger fields are read in one place, on the ledger floor (ledger/settings.ts)", () => {
	const field =
		/\.(ledgerStore|payoutLedgerFolder|ledger(?:Host|Port|Database|User|Password|Ssl|SslCa|Schema))\b/;
	const readers = files.filter((file) => field.test(readFileSync(join(signer, file), 'utf8')));
	expect(readers).toEqual(['ledger/settings.ts']);
});
