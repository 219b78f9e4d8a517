/** Node types that moved to another package, old name to new: the signer package's migration's own table. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the migration is a plain script shipped in the signer package
const migration = require('../../packages/signer/bin/migrate-workflows.js') as {
	renamedNodeTypes: Record<string, string>;
	migrateWorkflows(value: unknown): string[];
};

export const { renamedNodeTypes, migrateWorkflows } = migration;
