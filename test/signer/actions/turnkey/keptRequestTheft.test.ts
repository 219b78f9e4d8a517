/**
 * The ledger folder is the attacker: a payout's Turnkey request kept there (its answer lost) is
 * rewritten before the rerun. What the rerun sends must be exactly a request the Signer itself would
 * write for the transaction it checks: another recipient, Sign With or organization, and a body that
 * carries the checked transaction beside keys a server could read instead (a key spelled in another
 * case, a duplicate key), are refused with no request to Turnkey.
 */
import { readdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import { Transaction, Wallet } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { ledgerFolder } from '../../../helpers/ledgerFolder';
import { useDevnet } from '../../../helpers/useDevnet';
import { payEvm, signRequests, turnkeyKey } from './turnkeyRun';

const folder = ledgerFolder('expand-turnkey-kept-');

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const evmKey = () =>
	turnkeyKey(devnet, devnet.turnkey.accounts.evm, folder, {
		// A lost answer holds its nonce for the lease: short here, so the next payout is not held up.
		nonceLeaseSeconds: 1,
	});

const pay = (payoutId: string, to: string) => payEvm(devnet, evmKey(), payoutId, to);

const signRequestCount = () => signRequests(devnet).length;

/** The one kept request file written since `known`. */
function keptFile(known: Set<string>): string {
	const fresh = readdirSync(folder).filter(
		(name) => name.startsWith('expand-turnkey-') && !known.has(name),
	);
	expect(fresh).toHaveLength(1);
	return join(folder, fresh[0]);
}

/** Pays `payoutId` with every answer lost, rewrites its kept body with `rewrite`, reruns: the rerun's output. */
async function rewrittenRerun(
	payoutId: string,
	rewrite: (body: string, request: IDataObject) => string,
): Promise<IDataObject> {
	await new Promise((resolve) => setTimeout(resolve, 1100));
	const known = new Set(readdirSync(folder));
	const payee = Wallet.createRandom().address;
	devnet.turnkey.faults.dropNextSignAnswer(3);
	const lost = await pay(payoutId, payee);
	expect(lost.signed[0].error).toMatch(/Turnkey did not answer/);
	const file = keptFile(known);
	const kept = JSON.parse(readFileSync(file, 'utf8')) as IDataObject;
	writeFileSync(file, JSON.stringify({ ...kept, body: rewrite(String(kept.body), kept) }));
	const before = signRequestCount();
	const rerun = await pay(payoutId, payee);
	expect(signRequestCount()).toBe(before);
	return rerun.signed[0];
}

/** The unsigned transaction of a body, its recipient replaced. */
function otherRecipient(unsignedHex: string): string {
	const tx = Transaction.from(`0x${unsignedHex}`);
	tx.to = Wallet.createRandom().address;
	return tx.unsignedSerialized.slice(2);
}

test('another recipient, Sign With or organization in the kept body: refused, nothing sent to Turnkey', async () => {
	const withParameters = (body: string, change: (parsed: IDataObject) => void) => {
		const parsed = JSON.parse(body) as IDataObject;
		change(parsed);
		return JSON.stringify(parsed);
	};
	const recipient = await rewrittenRerun('tk-kept-recipient', (body) =>
		withParameters(body, (parsed) => {
			const parameters = parsed.parameters as IDataObject;
			parameters.unsignedTransaction = otherRecipient(String(parameters.unsignedTransaction));
		}),
	);
	expect(recipient.error).toMatch(
		/^Refused by the rule "payoutId": the Turnkey request kept for payout ID "tk-kept-recipient" .* asks to sign /,
	);
	const signWith = await rewrittenRerun('tk-kept-signwith', (body) =>
		withParameters(body, (parsed) => {
			(parsed.parameters as IDataObject).signWith = Wallet.createRandom().address;
		}),
	);
	expect(signWith.error).toMatch(/is not a sign-transaction request of organization/);
	const organization = await rewrittenRerun('tk-kept-org', (body) =>
		withParameters(body, (parsed) => {
			parsed.organizationId = '00000000-0000-4000-8000-000000000000';
		}),
	);
	expect(organization.error).toMatch(/is not a sign-transaction request of organization/);
});

test('the checked transaction beside another one under a key a server may read instead (another case, a duplicate key): refused, nothing sent to Turnkey', async () => {
	const smuggled = (body: string, key: string) => {
		const { parameters } = JSON.parse(body) as { parameters: IDataObject };
		const evil = otherRecipient(String(parameters.unsignedTransaction));
		// Before the genuine key: a parser taking the first of duplicate keys, or matching keys
		// without case, may sign this one; the Signer's parser reads the genuine one.
		return body.replace('"parameters":{', `"parameters":{"${key}":"${evil}",`);
	};
	const cased = await rewrittenRerun('tk-kept-cased', (body) =>
		smuggled(body, 'UnsignedTransaction'),
	);
	expect(cased.error).toMatch(
		/^Refused by the rule "payoutId": the Turnkey request kept for payout ID "tk-kept-cased" .*is not a request the Signer writes/,
	);
	const duplicate = await rewrittenRerun('tk-kept-duplicate', (body) =>
		smuggled(body, 'unsignedTransaction'),
	);
	expect(duplicate.error).toMatch(
		/^Refused by the rule "payoutId": the Turnkey request kept for payout ID "tk-kept-duplicate" .*is not a request the Signer writes/,
	);
});
