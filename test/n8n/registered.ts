/** What the running n8n registered from both packages, and the credential test through its REST API. */
import { EXPAND_CREDENTIAL } from '../../playground/prepare';
import { assert, equal } from '../helpers/checks';
import type { Session } from './session';
import { devnetExpandApi } from '../helpers/devnetCredentials';

const PACKAGE = 'n8n-nodes-expand-network';
const SIGNER_PACKAGE = 'n8n-nodes-expand-network-signer';

/** The nodes and credentials of both packages, the Expand AI-tool variant, and no Signer tool. */
export async function nodeAndCredentialTypes({ rest }: Session): Promise<void> {
	const nodes = (await rest().nodeTypes()).map((node) => node.name);
	const expected = [
		...['expand', 'expandTrigger', 'expandTool'].map((name) => `${PACKAGE}.${name}`),
		`${SIGNER_PACKAGE}.expandSigner`,
	];
	for (const type of expected) assert(nodes.includes(type), `${type} in /types/nodes.json`);
	assert(
		!nodes.includes(`${SIGNER_PACKAGE}.expandSignerTool`),
		'the Signer is not offered to AI agents',
	);
	const credentials = (await rest().credentialTypes()).map((credential) => credential.name);
	for (const name of [
		'expandApi',
		'expandSignerApi',
		'expandSolanaKeyApi',
		'expandTronKeyApi',
		'expandTonKeyApi',
		'expandStellarKeyApi',
	])
		assert(credentials.includes(name), `${name} in /types/credentials.json`);
}

/** The credential test succeeds with the devnet key and fails clearly with a wrong key or an unreachable URL. */
export async function credentialTest({ devnet, rest }: Session): Promise<void> {
	const data = devnetExpandApi(devnet, { streamUrl: devnet.streamUrl });
	const good = await rest().testCredential({ ...EXPAND_CREDENTIAL, data });
	equal(good.status, 'OK', `status (${good.message})`);
	// The editor's Test on a saved credential whose form was edited: its id with the form's data (n8n 2.41 requires the id).
	const bad = await rest().testCredential({
		...EXPAND_CREDENTIAL,
		data: { ...data, apiKey: 'not-a-devnet-key' },
	});
	equal(bad.status, 'Error', 'status with a wrong key');
	assert(/forbidden/i.test(bad.message), `the message says why: "${bad.message}"`);
	const offline = await rest().testCredential({
		...EXPAND_CREDENTIAL,
		data: { ...data, baseUrl: 'http://127.0.0.1:9' },
	});
	equal(offline.status, 'Error', 'status with an unreachable base URL');
}
