import { type Address, beginCell, type Cell, contractAddress, Dictionary, toNano } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import type { SandboxContract, TreasuryContract } from '@ton/sandbox';

import { jettonCode } from '../../contracts/ton/func';
import type { TonChain } from './chain';

export const JETTON_DECIMALS = 6;
const OP_MINT = 21;
const OP_INTERNAL_TRANSFER = 0x178d4519;
/** TON the minter attaches to each mint: the new jetton wallet's storage and gas, the rest back to the admin. */
const MINT_TON = toNano('0.05');

export const USDT_METADATA = {
	name: 'Tether USD (devnet)',
	symbol: 'USDT',
	decimals: String(JETTON_DECIMALS),
	description: 'A devnet jetton with the standard minter and wallet code',
};

/** TEP-64 on-chain content: 0x00 then a dictionary of sha256(key) to snake-format text cells. */
function onchainContent(fields: Record<string, string>): Cell {
	const dictionary = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
	for (const [key, value] of Object.entries(fields))
		dictionary.set(sha256_sync(key), beginCell().storeUint(0, 8).storeStringTail(value).endCell());
	return beginCell().storeUint(0, 8).storeDict(dictionary).endCell();
}

/** The USDT-like jetton's master on `chain`, deployed by `admin`. */
export async function deployJetton(
	chain: TonChain,
	admin: SandboxContract<TreasuryContract>,
): Promise<Address> {
	const code = jettonCode();
	const data = beginCell()
		.storeCoins(0)
		.storeAddress(admin.address)
		.storeRef(onchainContent(USDT_METADATA))
		.storeRef(code.wallet)
		.endCell();
	const init = { code: code.minter, data };
	const master = contractAddress(0, init);
	chain.tick();
	await admin.send({ to: master, value: toNano('1'), init, body: beginCell().endCell() });
	return master;
}

/** Mints `amount` units to `owner`'s jetton wallet (deployed by the mint), as the admin. */
export async function mintJetton(
	chain: TonChain,
	admin: SandboxContract<TreasuryContract>,
	master: Address,
	owner: Address,
	amount: bigint,
): Promise<void> {
	const internalTransfer = beginCell()
		.storeUint(OP_INTERNAL_TRANSFER, 32)
		.storeUint(0, 64)
		.storeCoins(amount)
		.storeAddress(null)
		.storeAddress(admin.address)
		.storeCoins(0)
		.storeBit(false)
		.endCell();
	const body = beginCell()
		.storeUint(OP_MINT, 32)
		.storeUint(0, 64)
		.storeAddress(owner)
		.storeCoins(MINT_TON)
		.storeRef(internalTransfer)
		.endCell();
	chain.tick();
	const { transactions } = await admin.send({ to: master, value: toNano('0.1'), body });
	const failed = transactions.find(
		(transaction) =>
			transaction.description.type === 'generic' &&
			transaction.description.computePhase.type === 'vm' &&
			!transaction.description.computePhase.success,
	);
	if (failed) throw new Error(`minting the devnet jetton to ${owner.toRawString()} failed`);
}

/** The jetton wallet of `owner` under `master`, as the master's get_wallet_address answers. */
export async function jettonWalletOf(
	chain: TonChain,
	master: Address,
	owner: Address,
): Promise<Address> {
	chain.tick();
	const { stackReader } = await chain.blockchain.runGetMethod(master, 'get_wallet_address', [
		{ type: 'slice', cell: beginCell().storeAddress(owner).endCell() },
	]);
	return stackReader.readAddress();
}

/**
 * `owner`'s balance of the jetton `master` (its jetton wallet's get_wallet_data), 0 while that wallet is
 * not deployed; undefined when `master` is no jetton master.
 */
export async function jettonBalance(
	chain: TonChain,
	master: Address,
	owner: Address,
): Promise<bigint | undefined> {
	const minter = await chain.blockchain.getContract(master);
	if (minter.accountState?.type !== 'active') return undefined;
	let wallet: Address;
	try {
		wallet = await jettonWalletOf(chain, master, owner);
	} catch {
		return undefined;
	}
	const contract = await chain.blockchain.getContract(wallet);
	if (contract.accountState?.type !== 'active') return 0n;
	return (await contract.get('get_wallet_data')).stackReader.readBigNumber();
}
