import type { FormSnapshot, SavedField, VersionForms } from './formSnapshot';

const fieldKey = (field: SavedField) => JSON.stringify(field);

/** One snapshot holding every field any of these had: the forms of a release that spans several commits. */
export function mergeSnapshots(snapshots: FormSnapshot[]): FormSnapshot {
	const merged: FormSnapshot = {};
	for (const snapshot of snapshots) {
		for (const [nodeVersion, { selectorDefaults, forms }] of Object.entries(snapshot)) {
			const into: VersionForms = (merged[nodeVersion] ??= { selectorDefaults: {}, forms: {} });
			Object.assign(into.selectorDefaults, selectorDefaults);
			for (const [selection, fields] of Object.entries(forms)) {
				const byKey = new Map(
					(into.forms[selection] ?? []).map((field) => [fieldKey(field), field]),
				);
				for (const field of fields) byKey.set(fieldKey(field), field);
				into.forms[selection] = [...byKey.values()].sort(
					(a, b) => a.path.localeCompare(b.path) || a.type.localeCompare(b.type),
				);
			}
		}
	}
	return merged;
}

/** Where a saved selection lives now: the same selectors, plus any selector added since at its default. */
function currentSelection(selection: string, current: VersionForms): string | undefined {
	if (current.forms[selection]) return selection;
	const saved = new Map(selection.split(',').map((pair) => pair.split('=') as [string, string]));
	return Object.keys(current.forms).find((candidate) =>
		candidate.split(',').every((pair) => {
			const [name, value] = pair.split('=');
			return saved.has(name) ? saved.get(name) === value : current.selectorDefaults[name] === value;
		}),
	);
}

function keeps(now: SavedField, saved: SavedField): boolean {
	return (
		now.type === saved.type &&
		JSON.stringify(now.default) === JSON.stringify(saved.default) &&
		(saved.values ?? []).every((value) => now.values?.includes(value))
	);
}

const describeField = (field: SavedField) =>
	`${field.path} (${field.type}, default ${JSON.stringify(field.default)})`;

function change(saved: SavedField, candidates: SavedField[]): string {
	if (candidates.length === 0) return 'is gone or moved';
	return candidates
		.map((now) => {
			const lost = (saved.values ?? []).filter((value) => !now.values?.includes(value));
			return lost.length &&
				now.type === saved.type &&
				JSON.stringify(now.default) === JSON.stringify(saved.default)
				? `no longer accepts ${lost.map((value) => JSON.stringify(value)).join(', ')}`
				: `is now ${describeField(now)}`;
		})
		.join(' or ');
}

/**
 * What a saved workflow of a frozen release would lose on the current forms: a node version, an
 * operation or a field that is gone, moved, of another type or default, or an option value dropped.
 * `renamed` maps node types that moved package to their new names.
 */
export function brokenFields(
	frozen: FormSnapshot,
	current: FormSnapshot,
	renamed: Record<string, string> = {},
): string[] {
	const broken: string[] = [];
	for (const [nodeVersion, saved] of Object.entries(frozen)) {
		const [type, version] = nodeVersion.split('@');
		const now = current[`${renamed[type] ?? type}@${version}`];
		if (!now) {
			broken.push(`${nodeVersion}: the node version is gone`);
			continue;
		}
		for (const [selection, fields] of Object.entries(saved.forms)) {
			const at = currentSelection(selection, now);
			if (!at) {
				broken.push(`${nodeVersion} ${selection}: the operation is gone`);
				continue;
			}
			for (const field of fields) {
				const candidates = now.forms[at].filter((candidate) => candidate.path === field.path);
				if (candidates.some((candidate) => keeps(candidate, field))) continue;
				broken.push(
					`${nodeVersion} ${selection}: ${describeField(field)} ${change(field, candidates)}`,
				);
			}
		}
	}
	return broken;
}
