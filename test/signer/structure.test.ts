/**
 * The Signer's floors (CONTRIBUTING.md, "The Signer's floors"): every import goes down or sideways,
 * never up; the chain families (the folders of families/ and actions/) never import each other, and
 * nothing else names one but the registry; only the door reaches the core's code; no import cycle;
 * and the credential's ledger fields are read on the ledger floor only. Read from the
 * sources, so a new file is held to it without being listed.
 */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

import { ExpandSigner } from '../../packages/signer/nodes/ExpandSigner/ExpandSigner.node';
import { ExpandSignerTrigger } from '../../packages/signer/nodes/ExpandSigner/ExpandSignerTrigger.node';
import { families } from '../../packages/signer/nodes/ExpandSigner/actions/operations';
import { cyclesOf, importGraph } from '../helpers/importGraph';

const signer = join(__dirname, '..', '..', 'packages', 'signer', 'nodes', 'ExpandSigner');

/** Lowest first: a file may import its own floor or one below. */
const FLOORS = [
	'core.ts',
	'policy',
	'ledger',
	'nonces',
	'custody',
	'families',
	'actions',
	'methods',
	'trigger',
	'ExpandSigner.node.ts',
	'ExpandSignerTrigger.node.ts',
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

/** The chain families, as their folders name them: every folder of families/ and of actions/. */
const familyFolders = (floor: string) =>
	readdirSync(join(signer, floor), { withFileTypes: true })
		.filter((entry) => entry.isDirectory())
		.map((entry) => entry.name);
const FAMILIES = [...new Set([...familyFolders('families'), ...familyFolders('actions')])];

/** The family a file belongs to, when it is in a family's folder. */
const familyOf = (file: string): string | undefined => {
	const [floor, folder] = file.split('/');
	return ['families', 'actions'].includes(floor) && FAMILIES.includes(folder) ? folder : undefined;
};

/** The custodians of the registry, each with the chain family it builds on. */
const BUILT_ON = new Map(
	families
		.filter((family) => family.builtOn !== undefined)
		.map((family) => [String(family.option.value), String(family.builtOn)]),
);

test('every family folder is a registered family, in families/ and in actions/ (a custodian in actions/ only)', () => {
	expect(FAMILIES.length).toBeGreaterThan(1);
	expect(familyFolders('families').sort()).toEqual(
		familyFolders('actions')
			.filter((folder) => !BUILT_ON.has(folder))
			.sort(),
	);
	expect(familyFolders('actions').sort()).toEqual(
		families.map((family) => String(family.option.value)).sort(),
	);
});

test("the node lists each family's signing key credential, shown with it and tested by its Test, as the registry has them", () => {
	// Written out in the node file, where n8n's linter reads the credentials and their testedBy.
	const node = new ExpandSigner();
	const signing = (node.description.credentials ?? []).filter((credential) => credential.testedBy);
	expect(
		signing.map(({ name, testedBy, displayOptions }) => ({ name, testedBy, displayOptions })),
	).toEqual(
		families.map((family) => ({
			name: family.credential,
			testedBy: family.credentialTest.name,
			displayOptions: { show: { chainFamily: [family.option.value] } },
		})),
	);
	expect(Object.keys(node.methods.credentialTest)).toEqual(
		families.map((family) => family.credentialTest.name),
	);
});

test('the chain families never import each other, in families/ or in actions/; a custodian imports only the family it builds on', () => {
	const crossing: string[] = [];
	for (const [file, targets] of edges) {
		const family = familyOf(file);
		if (!family) continue;
		for (const target of targets) {
			const other = familyOf(target);
			if (other && other !== family && BUILT_ON.get(family) !== other)
				crossing.push(`${file} imports ${target}`);
		}
	}
	expect(crossing).toEqual([]);
});

test("nothing outside a family's folders names a family but the registry, which imports and lists them; custodians are named where custody is the subject", () => {
	const registry = /^(import \{ \w+ \} from '\.\/\w+';|export const families\b.*)$/;
	const named: string[] = [];
	// The custody floor and the trigger are about custodians: they name them, never a chain family.
	const aboutCustodians = (file: string) =>
		['custody', 'trigger', 'ExpandSignerTrigger.node.ts'].includes(file.split('/')[0]);
	for (const file of files.filter((file) => !familyOf(file))) {
		const names = FAMILIES.filter((family) => !(aboutCustodians(file) && BUILT_ON.has(family)));
		readFileSync(join(signer, file), 'utf8')
			.split('\n')
			.forEach((line, index) => {
				if (file === 'actions/operations.ts' && registry.test(line)) return;
				if (names.some((family) => new RegExp(`\\b${family}\\b`).test(line)))
					named.push(`${file}:${index + 1}: ${line.trim()}`);
			});
	}
	expect(named).toEqual([]);
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

test("the trigger lists each custodian's credential tested as the Signer tests it, shown with its custodian", () => {
	const trigger = new ExpandSignerTrigger();
	const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
	const listed = (trigger.description.credentials ?? [])
		.map(({ name, testedBy }) => ({ name, testedBy }))
		.sort(byName);
	const custodial = families.filter((family) => family.builtOn || family.turnkeyKeys);
	expect(listed).toEqual(
		custodial
			.map((family) => ({ name: family.credential, testedBy: family.credentialTest.name }))
			.sort(byName),
	);
	expect(Object.keys(trigger.methods.credentialTest).sort()).toEqual(
		families.map((family) => family.credentialTest.name).sort(),
	);
});
