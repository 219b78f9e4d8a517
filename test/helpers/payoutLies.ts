/**
 * The lying API the payout examples are run against (devnet/gateway/faults/lies.ts), aimed at two payees of
 * a sheet, and what a run paid or proposed, read back from the chain and the Safe service stand-in.
 */
import { getAddress, Interface } from 'ethers';

import type { Devnet, TransactionLie } from '../../devnet';

export const LIE_MODES = ['multiply', 'drop', 'swap', 'dropOneDoubleAnother'] as const;
export type LieMode = (typeof LIE_MODES)[number];

/** A payee as its row asks: its address and amount in the smallest unit. */
export interface Payee {
	address: string;
	units: string;
}

/**
 * The lie of `mode` against Alice and Bob: Alice's form answered with three copies of its transaction
 * (multiply); Bob's with none (drop); each with the other's transaction (swap); Bob's with none and
 * Alice's with two (dropOneDoubleAnother, the attack of issue 32).
 */
export function lieAgainst(mode: LieMode, alice: Payee, bob: Payee): TransactionLie {
	switch (mode) {
		case 'multiply':
			return { mode, recipient: alice.address, copies: 3 };
		case 'drop':
			return { mode, recipient: bob.address };
		case 'swap':
			return {
				mode,
				forms: [
					{ recipient: alice.address, amount: alice.units },
					{ recipient: bob.address, amount: bob.units },
				],
			};
		case 'dropOneDoubleAnother':
			return { mode, dropped: bob.address, doubled: alice.address };
	}
}

const erc20 = new Interface(['function transfer(address to, uint256 amount)']);

/** A token payment: who receives how much (smallest unit) of which token. */
export interface Payment {
	token: string;
	recipient: string;
	units: string;
}

interface StoredProposal {
	safeTxHash: string;
	to: string;
	value: string;
	data: string | null;
}

/** The proposals the devnet's Safe service stand-in holds for its Safe, by safeTxHash. */
export async function proposalsHeld(devnet: Devnet): Promise<Map<string, StoredProposal>> {
	const { serviceUrl, address, apiKey } = devnet.safe;
	const response = await fetch(
		`${serviceUrl}/api/v1/safes/${address}/multisig-transactions/?limit=100`,
		{ headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} },
	);
	if (!response.ok) throw new Error(`the Safe stand-in answered ${response.status}`);
	const { results } = (await response.json()) as { results: StoredProposal[] };
	return new Map(results.map((proposal) => [proposal.safeTxHash, proposal]));
}

/** The payments the proposals held now, and not in `before`, would make once executed: ERC-20 transfers, sorted. */
export async function paymentsProposedSince(
	devnet: Devnet,
	before: Map<string, StoredProposal>,
): Promise<Payment[]> {
	const added = [...(await proposalsHeld(devnet)).values()].filter(
		(proposal) => !before.has(proposal.safeTxHash),
	);
	return added
		.map((proposal) => {
			if (BigInt(proposal.value) !== 0n || !proposal.data)
				throw new Error(`proposal ${proposal.safeTxHash} is not a token transfer`);
			const [recipient, units] = erc20.decodeFunctionData('transfer', proposal.data) as unknown as [
				string,
				bigint,
			];
			return {
				token: getAddress(proposal.to),
				recipient: getAddress(recipient),
				units: units.toString(),
			};
		})
		.sort((a, b) => `${a.recipient}${a.units}`.localeCompare(`${b.recipient}${b.units}`));
}
