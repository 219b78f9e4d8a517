/**
 * A DAI permit's `allowed` is a bool, which the EIP-712 encoder writes as the JavaScript truth of the
 * value: the string "false" is signed as true. Read as a revoke, it passed an allowlist; its signature
 * is a valid unlimited DAI permit to the outsider. (The devnet's token has no permit function: the
 * signature is checked the way DAI's permit checks it, by recovering the holder from the digest.)
 */
import { TypedDataEncoder, verifyTypedData } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { devnetCredentials, devnetSignerKey } from '../../../helpers/devnetCredentials';
import { useDevnet } from '../../../helpers/useDevnet';

const OUTSIDER = '0x' + 'be'.repeat(20);
const ALLOWED = '0x' + 'a1'.repeat(20);

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const types = {
	Permit: [
		{ name: 'holder', type: 'address' },
		{ name: 'spender', type: 'address' },
		{ name: 'nonce', type: 'uint256' },
		{ name: 'expiry', type: 'uint256' },
		{ name: 'allowed', type: 'bool' },
	],
};

async function signTyped(typedData: IDataObject): Promise<IDataObject> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: { operation: 'signTypedData', typedData: JSON.stringify(typedData) },
				continueOnFail: true,
			},
		],
		devnetCredentials(devnet, {
			signer: devnetSignerKey({
				allowedChainIds: '31337',
				allowedRecipients: ALLOWED,
			}),
		}),
	);
	return result.output('Sign')[0].json;
}

test('a DAI permit whose "allowed" is any truthy value but true (the string "false", 1) is an unlimited approval of its spender: refused for an outsider under an allowlist; false itself approves nothing and is signed', async () => {
	const domain = {
		name: 'Dai Stablecoin',
		version: '1',
		chainId: 31337,
		verifyingContract: devnet.chains[0].tokens.DAI.address,
	};
	const message = {
		holder: devnet.chains[0].wallets[0].address,
		spender: OUTSIDER,
		nonce: '0',
		expiry: '0',
	};
	// What the encoder signs: "false" hashes as true.
	expect(TypedDataEncoder.hash(domain, types, { ...message, allowed: 'false' })).toBe(
		TypedDataEncoder.hash(domain, types, { ...message, allowed: true }),
	);

	for (const allowed of ['false', 1, 'no']) {
		const signed = await signTyped({ domain, types, message: { ...message, allowed } });
		if (signed.signature !== undefined) {
			// Signed: the signature is the holder's unlimited permit to the outsider.
			expect(
				verifyTypedData(domain, types, { ...message, allowed: true }, signed.signature as string),
			).toBe(message.holder);
		}
		expect(signed.signature).toBeUndefined();
		expect(signed.error).toMatch(
			/^Refused by the rule "allowedRecipients": the recipient 0x[bB][eE]\w+ \(DAI permit of token 0x\w+\) is not on the allowed list/,
		);
	}
	const revoke = await signTyped({ domain, types, message: { ...message, allowed: false } });
	expect(revoke.error).toBeUndefined();
	expect(
		verifyTypedData(domain, types, { ...message, allowed: false }, revoke.signature as string),
	).toBe(message.holder);
});
