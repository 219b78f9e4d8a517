/**
 * The Fireblocks credential's Test, as n8n finds it in the node's methods: the vault, the pace, the
 * asset IDs written, and a policy summary that says what applies to a custodian's transaction (no fee
 * ceilings: Fireblocks sets and pays the fee), never the EVM gas limits; a bad key is not quoted.
 */
import { generateKeyPairSync } from 'crypto';

import { ExpandSigner } from '../../../../packages/signer/nodes/ExpandSigner/ExpandSigner.node';

const test_ = new ExpandSigner().methods.credentialTest.expandFireblocksTest;
const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
	.privateKey.export({ type: 'pkcs8', format: 'pem' })
	.toString();

const credential = (data: Record<string, unknown>) => ({
	id: '1',
	name: 'fb',
	type: 'expandFireblocksApi',
	data: {
		apiKey: 'unit-fireblocks-0000-4000-8000-000000000001',
		secretKey: pem,
		environment: 'custom',
		baseUrl: 'http://127.0.0.1:9',
		vaultAccountId: '3',
		maxRequestsPerSecond: 4,
		assetIds: '31337:native = ETH_DEVNET',
		allowedChainIds: '31337',
		maxPerTransaction: 'native = 2',
		maxGasLimit: '123456',
		maxFeePerGas: '77',
		...data,
	},
});

test('the summary says Fireblocks sets the fee and quotes no gas or fee ceiling', async () => {
	const ok = await test_.call({} as never, credential({}) as never);
	expect(ok.status).toBe('OK');
	expect(ok.message).toMatch(
		/^Valid key\. Accounts: vault account 3 at http:\/\/127\.0\.0\.1:9\. Policy: chains 31337 only;/,
	);
	expect(ok.message).toContain(
		'no fee ceilings: Fireblocks sets and pays the fee (the gas and total fee limits do not apply)',
	);
	expect(ok.message).not.toMatch(/gas limit at most|fee per gas at most|total fee at most|123456/);
	expect(ok.message).toContain(
		'at most 4 requests per second; asset IDs: 31337:native = ETH_DEVNET.',
	);
	expect(ok.message).not.toContain('PRIVATE KEY');
});

test('a key that is not RSA fails without quoting it', async () => {
	const bad = await test_.call(
		{} as never,
		credential({ secretKey: 'not-a-key-c2VjcmV0' }) as never,
	);
	expect(bad.status).toBe('Error');
	expect(bad.message).toMatch(/"API Secret Key"/);
	expect(bad.message).not.toContain('c2VjcmV0');
});
