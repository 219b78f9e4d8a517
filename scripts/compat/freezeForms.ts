/* eslint-disable no-console -- a command-line tool */
/**
 * `tsx scripts/compat/freezeForms.ts <out.json> <checkout>...`: writes the form snapshot
 * (formSnapshot.ts) of every node the checkouts' packages declare, from their TypeScript sources,
 * merged over the checkouts. Run it on checkouts of the commits a release shipped
 * (`git worktree add --detach <dir> <commit>`, with this repository's node_modules linked into it)
 * to freeze that release's forms as test/compat/<version>/forms.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { mergeSnapshots } from './compareForms';
import { type FormSnapshot, formSnapshot } from './formSnapshot';
import { packageNodes } from './packageNodes';

async function describe(file: string): Promise<INodeTypeDescription> {
	const exports = (await import(file)) as Record<string, new () => INodeType>;
	const NodeClass = Object.values(exports).find((value) => typeof value === 'function');
	if (!NodeClass) throw new Error(`${file} exports no node class`);
	return new NodeClass().description as INodeTypeDescription;
}

async function snapshotOf(checkout: string): Promise<FormSnapshot> {
	const nodes = [];
	for (const { packageName, source } of packageNodes(path.resolve(checkout), (file) =>
		readFileSync(file, 'utf8'),
	)) {
		const description = await describe(source);
		nodes.push({ type: `${packageName}.${description.name}`, description });
	}
	return formSnapshot(nodes);
}

/** One field a line, so a diff of two releases reads field by field. */
function serialize(snapshot: FormSnapshot): string {
	const versions = Object.entries(snapshot).map(([nodeVersion, { selectorDefaults, forms }]) => {
		const selections = Object.entries(forms).map(
			([selection, fields]) =>
				`\t\t\t${JSON.stringify(selection)}: [\n${fields.map((field) => `\t\t\t\t${JSON.stringify(field)}`).join(',\n')}\n\t\t\t]`,
		);
		return `\t${JSON.stringify(nodeVersion)}: {\n\t\t"selectorDefaults": ${JSON.stringify(selectorDefaults)},\n\t\t"forms": {\n${selections.join(',\n')}\n\t\t}\n\t}`;
	});
	return `{\n${versions.join(',\n')}\n}\n`;
}

async function main(): Promise<void> {
	const [out, ...checkouts] = process.argv.slice(2);
	if (!out || checkouts.length === 0)
		throw new Error('usage: freezeForms.ts <out.json> <checkout>...');
	const snapshots = [];
	for (const checkout of checkouts) snapshots.push(await snapshotOf(checkout));
	const merged = mergeSnapshots(snapshots);
	writeFileSync(out, serialize(merged));
	console.log(`${out}: ${Object.keys(merged).join(', ')}`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
