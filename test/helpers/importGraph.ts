import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/**
 * The relative imports of every TypeScript file under `root`, by path inside it; an import that
 * leaves `root` is kept as its path from there (starting with ..).
 */
export function importGraph(root: string): Map<string, string[]> {
	const files = sources(root).map((path) => relative(root, path));
	const importsOf = (file: string) =>
		[...readFileSync(join(root, file), 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)].map(
			(match) => {
				const target = relative(root, resolve(root, dirname(file), match[1]));
				if (target.startsWith('..')) return target;
				return files.includes(`${target}.ts`) ? `${target}.ts` : `${target}/index.ts`;
			},
		);
	return new Map(files.map((file) => [file, importsOf(file)]));
}

/** The cycles of a graph, each as the path that closes it. */
export function cyclesOf(graph: Map<string, Iterable<string>>): string[] {
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
