/**
 * One policy for everything the key signs: messages and typed data through Expand Signer in n8n's
 * engine. On Solana, a "message" that is a transaction's bytes is the theft tried on the devnet
 * (signed without the rule, the outsider assembles and sends the transaction). On EVM, permits are
 * read as approvals and checked like approve, typed data must name an allowed chain, and a 32-byte
 * hash or typed data of an unknown kind is refused while a policy is set. (The devnet's token has no
 * permit function, so the EVM permit is checked at the Signer, not carried out on the chain.)
 */
import { getTransferSolInstruction } from '@solana-program/system';
import {
	type Blockhash,
	type SignatureBytes,
	address,
	compileTransaction,
	createKeyPairSignerFromBytes,
	createNoopSigner,
	getBase16Decoder,
	getBase58Encoder,
	getTransactionEncoder,
} from '@solana/kit';
import { MaxUint256, getBytes, verifyMessage } from 'ethers';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../devnet';
import {
	signSolanaMessage,
	solanaKeyring,
} from '../../../packages/signer/nodes/ExpandSigner/families/solana';
import { ITEMS, type NodeSpec, SIGNER, runPipeline } from '../../helpers/n8n';
import { devnetExpandApi, devnetSignerKey } from '../../helpers/devnetCredentials';
import { solanaMessage } from '../../helpers/solanaMessages';
import { useDevnet } from '../../helpers/useDevnet';

const OUTSIDER = '0x' + 'be'.repeat(20);
const ALLOWED = '0x' + 'a1'.repeat(20);

let devnet: Devnet;
useDevnet((started) => (devnet = started));

/** One Signer item; `credential` is the signing credential's type and data. */
async function sign(
	parameters: IDataObject,
	credential: [string, IDataObject],
): Promise<IDataObject> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: parameters as NodeSpec['parameters'],
				continueOnFail: true,
			},
		],
		{
			expandApi: devnetExpandApi(devnet),
			[credential[0]]: credential[1] as ICredentialDataDecryptedObject,
		},
	);
	return result.output('Sign')[0].json;
}

const evmKey = (policy: IDataObject = {}): [string, IDataObject] => [
	'expandSignerApi',
	devnetSignerKey(policy),
];

test('Solana: a message whose bytes are a 50 SOL transfer is refused while a policy is set; signed without the rule, the outsider sends it', async () => {
	const treasury = devnet.solana.wallets[3];
	const outsider = await createKeyPairSignerFromBytes(
		getBase58Encoder().encode(devnet.solana.wallets[4].secretKey),
	);
	const blockhash = devnet.solana.chain.latestBlockhash().blockhash as Blockhash;
	const transaction = compileTransaction(
		solanaMessage(address(treasury.address), blockhash, [
			getTransferSolInstruction({
				source: createNoopSigner(address(treasury.address)),
				destination: outsider.address,
				amount: 50_000_000_000n,
			}),
		]),
	);
	const hex = `0x${getBase16Decoder().decode(transaction.messageBytes)}`;
	const key: [string, IDataObject] = [
		'expandSolanaKeyApi',
		{
			keyType: 'secretKey',
			secretKey: treasury.secretKey,
			allowedRecipients: devnet.solana.wallets[1].address,
			maxPerTransaction: 'native = 0.01',
		},
	];
	const message = (text: string, messageIsHex: boolean) =>
		sign({ chainFamily: 'solana', operation: 'signMessage', message: text, messageIsHex }, key);

	expect((await message(hex, true)).error).toBe(
		`Refused by the rule "allowAnyMessage": the message's bytes read as a Solana transaction message, and its signature would let anyone send that transaction; while a policy is set, it is signed only with Allow Any Message and Typed Data on; nothing was signed (item 0)`,
	);
	expect((await message('0x00ff00fe', true)).error).toMatch(
		/^Refused by the rule "allowAnyMessage": the message is neither UTF-8 text nor an off-chain message/,
	);
	expect((await message('Sign in to Treasury Ops, nonce 7', false)).signature).toEqual(
		expect.any(String),
	);

	// The theft, as it went when Sign Message signed any bytes: the outsider puts the signature on the transaction.
	const account = solanaKeyring({ keyType: 'secretKey', secretKey: treasury.secretKey }).account(0);
	const { signature } = await signSolanaMessage(account, new Uint8Array(transaction.messageBytes));
	const before = devnet.solana.chain.balance(outsider.address);
	devnet.solana.chain.send(
		getTransactionEncoder().encode({
			messageBytes: transaction.messageBytes,
			signatures: { [treasury.address]: getBase58Encoder().encode(signature) as SignatureBytes },
		}) as Uint8Array,
	);
	expect(devnet.solana.chain.balance(outsider.address) - before).toBe(50_000_000_000n);
});

/** EIP-2612's Permit, as a token's typed data declares it. */
const PERMIT_TYPES = {
	Permit: [
		{ name: 'owner', type: 'address' },
		{ name: 'spender', type: 'address' },
		{ name: 'value', type: 'uint256' },
		{ name: 'nonce', type: 'uint256' },
		{ name: 'deadline', type: 'uint256' },
	],
};

test('EVM: an EIP-2612 permit is checked like approve: an outsider spender, an unlimited value above a cap, and a chain not allowed are refused; a permit within the policy is signed', async () => {
	const usdc = devnet.chains[0].tokens.USDC.address;
	const permit = (spender: string, value: bigint, chainId = 31337) =>
		JSON.stringify({
			domain: { name: 'USD Coin', version: '2', chainId, verifyingContract: usdc },
			types: PERMIT_TYPES,
			message: {
				owner: devnet.chains[0].wallets[0].address,
				spender,
				value: value.toString(),
				nonce: '0',
				deadline: '9999999999',
			},
		});
	const typed = (typedData: string, policy: IDataObject) =>
		sign({ operation: 'signTypedData', typedData }, evmKey(policy));
	const policy = {
		allowedChainIds: '31337',
		allowedRecipients: ALLOWED,
		maxPerTransaction: `${usdc}:6 = 100`,
	};

	expect((await typed(permit(OUTSIDER, MaxUint256), policy)).error).toMatch(
		/^Refused by the rule "allowedRecipients": the recipient 0x[bB][eE]\w+ \(EIP-2612 permit of token 0x\w+\) is not on the allowed list/,
	);
	expect((await typed(permit(ALLOWED, MaxUint256), policy)).error).toBe(
		`Refused by the rule "maxPerTransaction": EIP-2612 permit of 115792089237316195423570985008687907853269984665640564039457584007913129.639935 (${MaxUint256} in the smallest unit) of token ${usdc} is above the limit of 100 per transaction; nothing was signed (item 0)`,
	);
	expect((await typed(permit(ALLOWED, 50_000_000n, 1), policy)).error).toBe(
		'Refused by the rule "allowedChainIds": chain 1 is not one of the allowed chains (31337); nothing was signed (item 0)',
	);
	const signed = await typed(permit(ALLOWED, 50_000_000n), policy);
	expect(signed.error).toBeUndefined();
	expect(signed.signature).toMatch(/^0x[0-9a-f]{130}$/);
});

test('EVM: a permit whose domain names no chain is refused while a limit is set: under a limit for one chain it would otherwise be counted on no chain and signed unlimited to an outsider', async () => {
	const usdc = devnet.chains[0].tokens.USDC.address;
	// A token whose EIP-712 domain has no chainId (older permit tokens) accepts exactly this signature.
	const chainless = JSON.stringify({
		domain: { name: 'Old Permit Token', version: '1', verifyingContract: usdc },
		types: PERMIT_TYPES,
		message: {
			owner: devnet.chains[0].wallets[0].address,
			spender: OUTSIDER,
			value: MaxUint256.toString(),
			nonce: '0',
			deadline: '9999999999',
		},
	});
	const policy = { maxPerTransaction: `${usdc}:6@31337 = 100` };
	const refused = await sign({ operation: 'signTypedData', typedData: chainless }, evmKey(policy));
	expect(refused.error).toBe(
		'Refused by the rule "maxPerTransaction": the EIP-2612 permit names no chain (domain.chainId), so the amount limits, which may be per chain, cannot be applied to it; while an amount limit or the recipient list is set, such an approval is not signed; nothing was signed (item 0)',
	);
	// With no policy it is signed, as the Test says (no rule is set).
	expect(
		(await sign({ operation: 'signTypedData', typedData: chainless }, evmKey({}))).signature,
	).toMatch(/^0x[0-9a-f]{130}$/);
});

test('EVM: 32 bytes of text are a hash too: signed without the rule, the text gives the very signature of the 32-byte hash with its bytes (an approval elsewhere); refused while a policy is set', async () => {
	// An attacker grinds a Safe transaction (or an order) until its hash is printable, then asks for a text message.
	const text = 'approve 0xSafeTx 31337 nonce 042';
	expect(Buffer.byteLength(text, 'utf8')).toBe(32);
	const asHash = '0x' + Buffer.from(text, 'utf8').toString('hex');
	const signedText = await sign({ operation: 'signMessage', message: text }, evmKey({}));
	const signedHash = await sign(
		{ operation: 'signMessage', message: asHash, messageIsHex: true },
		evmKey({}),
	);
	expect(signedText.signature).toMatch(/^0x[0-9a-f]{130}$/);
	expect(signedText.signature).toBe(signedHash.signature);
	expect(verifyMessage(getBytes(asHash), signedText.signature as string)).toBe(signedText.address);

	const policy = { maxPerTransaction: 'native = 1' };
	expect((await sign({ operation: 'signMessage', message: text }, evmKey(policy))).error).toBe(
		'Refused by the rule "allowAnyMessage": a 32-byte message is a hash, whose signature can approve a transaction elsewhere (a Safe transaction, an order); while a policy is set, it is signed only with Allow Any Message and Typed Data on; nothing was signed (item 0)',
	);
	const longer = await sign(
		{ operation: 'signMessage', message: `${text} please` },
		evmKey(policy),
	);
	expect(longer.signature).toMatch(/^0x[0-9a-f]{130}$/);
});

test('EVM: a 32-byte hash, typed data of an unknown kind and a sign-in message for another chain are refused while a policy is set; with Allow Any Message and Typed Data, or with no policy, they are signed', async () => {
	const hash = '0x' + '11'.repeat(32);
	const mail = JSON.stringify({
		domain: { name: 'Mail', version: '1', chainId: 31337 },
		types: { Mail: [{ name: 'contents', type: 'string' }] },
		message: { contents: 'hello' },
	});
	const policy = { maxPerTransaction: 'native = 1' };
	const hashMessage = (credentialPolicy: IDataObject) =>
		sign({ operation: 'signMessage', message: hash, messageIsHex: true }, evmKey(credentialPolicy));
	const mailData = (credentialPolicy: IDataObject) =>
		sign({ operation: 'signTypedData', typedData: mail }, evmKey(credentialPolicy));

	expect((await hashMessage(policy)).error).toBe(
		'Refused by the rule "allowAnyMessage": a 32-byte message is a hash, whose signature can approve a transaction elsewhere (a Safe transaction, an order); while a policy is set, it is signed only with Allow Any Message and Typed Data on; nothing was signed (item 0)',
	);
	expect((await mailData(policy)).error).toBe(
		'Refused by the rule "allowAnyMessage": typed data of type "Mail" is not an approval the signer can read (an EIP-2612, DAI or Permit2 permit); while a policy is set, it is signed only with Allow Any Message and Typed Data on; nothing was signed (item 0)',
	);
	const signIn =
		'treasury.example wants you to sign in with your Ethereum account:\n0x0000000000000000000000000000000000000000\n\nURI: https://treasury.example\nVersion: 1\nChain ID: 1\nNonce: 32891756';
	expect(
		(
			await sign(
				{ operation: 'signMessage', message: signIn },
				evmKey({ allowedChainIds: '31337' }),
			)
		).error,
	).toBe(
		'Refused by the rule "allowedChainIds": chain 1 is not one of the allowed chains (31337); nothing was signed (item 0)',
	);

	for (const credentialPolicy of [{ ...policy, allowAnyMessage: true }, {}]) {
		expect((await hashMessage(credentialPolicy)).signature).toMatch(/^0x[0-9a-f]{130}$/);
		expect((await mailData(credentialPolicy)).signature).toMatch(/^0x[0-9a-f]{130}$/);
	}
});
