const fs = require('fs');
const path = require('path');
const { series, src, dest } = require('gulp');

/**
 * tsc compiles with the repository root as rootDir, because the door (nodes/ExpandSigner/core.ts) imports
 * the core's nodes/shared by its real path; so it emits dist/packages/signer/... beside dist/nodes/shared/...
 * (only the shared modules the door reaches). n8n and its lint rules expect dist/ to mirror the package
 * folder: the package's own files move up to dist/, and the door's requires follow them. No declarations
 * or source maps are emitted (tsconfig.json), so nothing else holds a path.
 */
function flatten(done) {
	fs.cpSync(path.join('dist', 'packages', 'signer'), 'dist', { recursive: true });
	fs.rmSync(path.join('dist', 'packages'), { recursive: true });
	const door = path.join('dist', 'nodes', 'ExpandSigner', 'core.js');
	const text = fs.readFileSync(door, 'utf8');
	const moved = text.split('require("../../../../nodes/shared/').join('require("../shared/');
	if (moved === text)
		throw new Error(
			`${door} requires nothing from ../../../../nodes/shared/: the door moved, update flatten() in gulpfile.js`,
		);
	fs.writeFileSync(door, moved);
	done();
}

// tsc emits only JavaScript; n8n also needs the icons and the codex JSON next to the nodes.
function buildAssets() {
	return src(['icons/**/*.svg', 'nodes/ExpandSigner/**/*.node.json'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports.build = series(flatten, buildAssets);
