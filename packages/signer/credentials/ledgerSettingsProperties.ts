import type { INodeProperties } from 'n8n-workflow';

const forPostgres = { show: { ledgerStore: ['postgres'] } };

/**
 * The ledger store fields of both signing credentials: Folder (the Payout Ledger Folder, described by
 * each credential for what its family keeps there) or PostgreSQL, for n8n processes on several machines.
 */
export function ledgerSettingsProperties(folder: INodeProperties): INodeProperties[] {
	return [
		{
			displayName: 'Ledger Store',
			name: 'ledgerStore',
			type: 'options',
			options: [
				{
					name: 'Folder',
					value: 'folder',
					description: 'The Payout Ledger Folder: one n8n machine, or a folder every worker shares',
				},
				{
					name: 'PostgreSQL',
					value: 'postgres',
					description:
						'Tables in a PostgreSQL database every n8n process reaches: queue mode on several machines',
				},
			],
			default: 'folder',
			description:
				'Where signed payout IDs, nonce claims and the totals of Max Per Execution, Max Per Day and Max Per 30 Days are kept. Every n8n process signing with this key must use the same store.',
		},
		{ ...folder, displayOptions: { show: { ledgerStore: ['folder'] } } },
		{
			displayName: 'PostgreSQL Host',
			name: 'ledgerHost',
			type: 'string',
			default: '',
			placeholder: 'postgres.internal',
			displayOptions: forPostgres,
		},
		{
			displayName: 'PostgreSQL Port',
			name: 'ledgerPort',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 65535 },
			default: 5432,
			displayOptions: forPostgres,
		},
		{
			displayName: 'PostgreSQL Database',
			name: 'ledgerDatabase',
			type: 'string',
			default: '',
			placeholder: 'n8n',
			displayOptions: forPostgres,
		},
		{
			displayName: 'PostgreSQL User',
			name: 'ledgerUser',
			type: 'string',
			default: '',
			description:
				'Needs to read and insert rows of the ledger tables; on first use also to create them (or have them created once by a user who may)',
			displayOptions: forPostgres,
		},
		{
			displayName: 'PostgreSQL Password',
			name: 'ledgerPassword',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			displayOptions: forPostgres,
		},
		{
			displayName: 'PostgreSQL SSL',
			name: 'ledgerSsl',
			type: 'options',
			options: [
				{
					name: 'Verify Full',
					value: 'verify-full',
					description:
						"Encrypted; the server's certificate must be signed by the PostgreSQL CA Certificate below (when empty, by a CA Node.js trusts; NODE_EXTRA_CA_CERTS adds one) and name the PostgreSQL Host",
				},
				{
					name: 'Verify CA',
					value: 'verify-ca',
					description:
						"Encrypted; the server's certificate must be signed by the PostgreSQL CA Certificate below; the host name is not checked. For a self-hosted database with its own CA whose certificate does not name the host used here.",
				},
				{
					name: 'Require',
					value: 'require',
					description:
						'Encrypted, but any certificate is accepted: safe from eavesdroppers only. Someone on the network path can pose as the server, ask for the password in clear and answer in its place.',
				},
				{
					name: 'Disable',
					value: 'disable',
					description: 'Not encrypted: only where the network to the database is trusted',
				},
			],
			default: 'verify-full',
			description:
				'Whoever can alter the answers of the database can hide a signed payout ID from the Signer, which would then sign it again: use Verify Full, or Verify CA with your own CA',
			displayOptions: forPostgres,
		},
		{
			displayName: 'PostgreSQL CA Certificate',
			name: 'ledgerSslCa',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			placeholder: '-----BEGIN CERTIFICATE-----',
			description:
				"PEM certificate(s) of the CA that signed the server's certificate (the server's root.crt). Needed for Verify CA; for Verify Full it replaces the CAs Node.js trusts.",
			displayOptions: {
				show: { ledgerStore: ['postgres'], ledgerSsl: ['verify-ca', 'verify-full'] },
			},
		},
		{
			displayName: 'PostgreSQL Schema',
			name: 'ledgerSchema',
			type: 'string',
			default: 'public',
			description:
				'Schema of the ledger tables (expand_ledger_records, expand_ledger_hints, expand_ledger_schema_version), created on first use',
			displayOptions: forPostgres,
		},
	];
}
