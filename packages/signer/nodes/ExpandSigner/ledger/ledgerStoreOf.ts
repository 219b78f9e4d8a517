import type { IExecuteFunctions } from 'n8n-workflow';

import type { LedgerSettings } from './settings';
import { PostgresStore } from './postgres/postgresStore';
import { type FileHelpers, SharedFolder } from './sharedFolder';
import type { LedgerStore } from './store';

/** The store of the credential's ledger settings (ledger/settings.ts): its folder, or its PostgreSQL database. */
export function ledgerStoreOf(
	context: Pick<IExecuteFunctions, 'getNode'> & { helpers: FileHelpers },
	settings: LedgerSettings,
): LedgerStore {
	return settings.kind === 'folder'
		? new SharedFolder(context.getNode(), context.helpers, settings.folder)
		: new PostgresStore(context.getNode(), settings.postgres);
}
