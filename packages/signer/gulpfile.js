const { src, dest } = require('gulp');

// tsc emits only JavaScript; n8n also needs the icons and the codex JSON next to the nodes.
function buildAssets() {
	return src(['icons/**/*.svg', 'nodes/ExpandSigner/**/*.node.json'], { base: '.', encoding: false }).pipe(dest('dist'));
}

exports['build:assets'] = buildAssets;
