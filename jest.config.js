/** @type {import('jest').Config} */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	setupFiles: ['<rootDir>/test/setup/env.ts'],
	testTimeout: 60000,
	maxWorkers: 2,
	// n8n-core keeps a 60 s interval alive after a run; tests must not wait for it.
	forceExit: true,
	// Sources import node files with a .js suffix (see test/helpers/n8n.ts); jest resolves them to .ts.
	moduleNameMapper: { '^(\\.{1,2}/.*\\.node)\\.js$': '$1' },
	transform: { '^.+\\.ts$': ["ts-jest", { diagnostics: false }] },
};
