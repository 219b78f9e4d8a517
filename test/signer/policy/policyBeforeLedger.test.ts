/**
 * Which error a credential with several unreadable fields gives: the policy's chain list and Require
 * Intent are read before the ledger settings, and the ledger settings before the policy's totals and
 * lists, in the credential Test and when the node opens its session alike.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEVNET_MNEMONIC as MNEMONIC } from '../../../devnet/fixtures';
import { evm } from '../../../packages/signer/nodes/ExpandSigner/actions/evm';
import { solana } from '../../../packages/signer/nodes/ExpandSigner/actions/solana';
import { expandSignerKeyTest, expandSolanaKeyTest } from '../../helpers/signerKeyTests';

const NO_HOST =
	'The credential field "ledgerHost" is needed for the PostgreSQL ledger store; it is empty';
const WRONG_STORE = 'The credential field "ledgerStore" must be folder or postgres; got "sqlite"';
const CHAIN_ZERO = 'The policy field "allowedChainIds" must list chain IDs above 0; got "0"';
const BAD_INTENT =
	'The policy field "requireIntent" must be one of auto, always, never; got "sometimes"';

/** The error of the credential Test, and of opening the node's session, for these credential fields. */
async function errors(family: 'evm' | 'solana', fields: IDataObject) {
	const data = { keyType: 'mnemonic', mnemonic: MNEMONIC, ...fields };
	const credential = { id: '1', name: 'k', type: 'test', data: data as never };
	const tested =
		family === 'evm'
			? await expandSignerKeyTest.call({} as never, credential)
			: await expandSolanaKeyTest.call({} as never, credential);
	const context = { getCredentials: async () => data };
	const opening =
		family === 'evm'
			? evm.openSession.call(context as never)
			: solana.openSession.call(context as never);
	const opened = await opening.then(
		() => 'opened',
		(error: Error) => error.message,
	);
	return { tested: tested.message, opened };
}

test.each(['evm', 'solana'] as const)(
	'%s: a bad chain list or Require Intent is named before the ledger settings, and the ledger settings before the totals and lists',
	async (family) => {
		const postgres = { ledgerStore: 'postgres' };
		expect(await errors(family, { ...postgres, allowedChainIds: '0' })).toEqual({
			tested: CHAIN_ZERO,
			opened: CHAIN_ZERO,
		});
		expect(await errors(family, { ledgerStore: 'sqlite', requireIntent: 'sometimes' })).toEqual({
			tested: BAD_INTENT,
			opened: BAD_INTENT,
		});
		expect(
			await errors(family, { ...postgres, maxPerDay: 'not a limit', allowedRecipients: 'x' }),
		).toEqual({ tested: NO_HOST, opened: NO_HOST });
		expect(await errors(family, { ledgerStore: 'sqlite', maxPer30Days: 'nope' })).toEqual({
			tested: WRONG_STORE,
			opened: WRONG_STORE,
		});
	},
);
