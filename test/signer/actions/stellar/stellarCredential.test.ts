/**
 * The Stellar signing key credential: the builder's fields around its key kinds (the secret seed first
 * and default, a SEP-0005 mnemonic with its passphrase), Allow Account Management (off) after Allow Any
 * Message, Max Total Fee in XLM; registered in the package and shown on the node with the Stellar
 * family, tested by its key test.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { ExpandStellarKeyApi } from '../../../../packages/signer/credentials/ExpandStellarKeyApi.credentials';
import { ExpandTronKeyApi } from '../../../../packages/signer/credentials/ExpandTronKeyApi.credentials';
import { ExpandSigner } from '../../../../packages/signer/nodes/ExpandSigner/ExpandSigner.node';
import { credentialTest } from '../../../../packages/signer/nodes/ExpandSigner/methods/credentialTest';

const stellar = new ExpandStellarKeyApi();
const field = (name: string) => stellar.properties.filter((property) => property.name === name)[0];
const names = (properties: Array<{ name: string }>) => properties.map(({ name }) => name);

test("its fields are every signing credential's, with Allow Account Management after Allow Any Message", () => {
	expect(stellar.name).toBe('expandStellarKeyApi');
	// Tron's, less its Key Type Turnkey fields (a Turnkey wallet account signs no TON or Stellar here).
	const tron = names(
		new ExpandTronKeyApi().properties.filter(
			(property) => !property.displayOptions?.show?.keyType?.includes('turnkey'),
		),
	);
	const after = tron.indexOf('allowAnyMessage') + 1;
	expect(names(stellar.properties)).toEqual([
		...tron.slice(0, after),
		'allowAccountManagement',
		...tron.slice(after),
	]);
	expect(field('keyType')).toMatchObject({
		default: 'privateKey',
		options: [
			{ name: 'Secret Seed', value: 'privateKey' },
			{ name: 'Mnemonic', value: 'mnemonic' },
		],
	});
	expect(field('privateKey')).toMatchObject({
		typeOptions: { password: true },
		displayOptions: { show: { keyType: ['privateKey'] } },
	});
	expect(field('mnemonic').description).toContain("m/44'/148'/N'");
	expect(field('passphrase').displayOptions?.show?.keyType).toEqual(['mnemonic']);
	expect(field('allowAccountManagement')).toMatchObject({ type: 'boolean', default: false });
	expect(field('maxTotalFee')).toMatchObject({ displayName: 'Max Total Fee (XLM)', default: '1' });
});

test('it is registered in the package, shown with the Stellar family and tested by its key test', () => {
	const manifest = JSON.parse(
		readFileSync(join(__dirname, '../../../../packages/signer/package.json'), 'utf8'),
	) as { n8n: { credentials: string[] } };
	expect(manifest.n8n.credentials).toContain('dist/credentials/ExpandStellarKeyApi.credentials.js');
	const entry = new ExpandSigner().description.credentials?.find(
		(credential) => credential.name === 'expandStellarKeyApi',
	);
	expect(entry).toEqual({
		name: 'expandStellarKeyApi',
		required: true,
		testedBy: 'expandStellarKeyTest',
		displayOptions: { show: { chainFamily: ['stellar'] } },
	});
	expect(Object.keys(credentialTest)).toContain('expandStellarKeyTest');
});
