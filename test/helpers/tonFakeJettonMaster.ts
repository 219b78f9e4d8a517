/**
 * An attacker's "jetton master" on a devnet TON chain: a contract whose get_wallet_address answers, for
 * any owner, the jetton wallet it was deployed with (another jetton's), and which keeps whatever it is sent.
 */
import { compileFunc } from '@ton-community/func-js';
import { Address, beginCell, Cell, contractAddress, toNano } from '@ton/core';
import { readFileSync } from 'fs';
import { join } from 'path';

import type { DevnetTon } from '../../devnet';

const SOURCE = `
#include "stdlib.fc";
() recv_internal(slice in_msg_body) impure { }
slice get_wallet_address(slice owner_address) method_id {
	return get_data().begin_parse();
}
`;

async function code(): Promise<Cell> {
	const result = await compileFunc({
		targets: ['stdlib.fc', 'fake-master.fc'],
		sources: (path) =>
			path === 'fake-master.fc'
				? SOURCE
				: readFileSync(join(__dirname, '../../devnet/contracts/ton', path), 'utf8'),
	});
	if (result.status === 'error') throw new Error(`func: ${result.message}`);
	return Cell.fromBase64(result.codeBoc);
}

/** Deploys the contract answering `jettonWallet` on `ton`'s chain; its raw address. */
export async function deployFakeJettonMaster(
	ton: DevnetTon,
	jettonWallet: string,
): Promise<string> {
	const init = {
		code: await code(),
		data: beginCell().storeAddress(Address.parse(jettonWallet)).endCell(),
	};
	const address = contractAddress(0, init);
	const deployer = await ton.chain.blockchain.treasury('fake jetton master deployer');
	ton.chain.tick();
	await deployer.send({ to: address, value: toNano('1'), init, bounce: false });
	return address.toRawString();
}
