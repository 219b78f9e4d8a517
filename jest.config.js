/** @type {import('jest').Config} */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testTimeout: 60000,
	maxWorkers: 2,
	// Sources import node files with a .js suffix (see scripts/engine/n8n.ts); jest resolves them to .ts.
	moduleNameMapper: { '^(\\.{1,2}/.*\\.node)\\.js$': '$1' },
	transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
};
