/**
 * The install instructions (docs/install.md, examples/docker) name the versions the tests prove: the
 * supported range starts at the oldest n8n tested, the Docker example builds on the latest tested,
 * and the N8N_COMMUNITY_PACKAGES value shown is the one the real-n8n test starts n8n with.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { N8N_LATEST, N8N_OLDEST } from '../playground/install';
import { COMMUNITY_PACKAGES } from './n8n/install';

const root = join(__dirname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const manifest = JSON.parse(read('package.json')) as {
	name: string;
	version: string;
	engines: Record<string, string>;
};
const signer = JSON.parse(read('packages/signer/package.json')) as {
	name: string;
	version: string;
};
const bothPackages = `${manifest.name}@${manifest.version} ${signer.name}@${signer.version}`;

test('package.json states the supported n8n range from the oldest version tested', () => {
	expect(manifest.engines.n8n).toBe(`>=${N8N_OLDEST}`);
});

test('the Docker example builds on the latest n8n tested and installs this version of both packages', () => {
	const dockerfile = read('examples/docker/Dockerfile');
	const compose = read('examples/docker/compose.yaml');
	expect(dockerfile).toContain(`ARG N8N_VERSION=${N8N_LATEST}\n`);
	expect(dockerfile).toContain(`ARG PACKAGES="${bothPackages}"\n`);
	expect(dockerfile).toMatch(/npm install --omit=dev --omit=peer /);
	expect(compose).toContain(`N8N_VERSION: ${N8N_LATEST}\n`);
	expect(compose).toContain(`PACKAGES: ${bothPackages}\n`);
});

test('the docs show the N8N_COMMUNITY_PACKAGES value the real-n8n test uses', () => {
	expect(JSON.parse(COMMUNITY_PACKAGES)).toEqual([
		{ name: manifest.name, version: manifest.version },
		{ name: signer.name, version: signer.version },
	]);
	expect(read('docs/install.md')).toContain(`N8N_COMMUNITY_PACKAGES='${COMMUNITY_PACKAGES}'`);
	expect(read('examples/docker/README.md')).toContain(
		`N8N_COMMUNITY_PACKAGES: '${COMMUNITY_PACKAGES}'`,
	);
});
