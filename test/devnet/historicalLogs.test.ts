/** The devnet's fungibletoken/historical/logs: a token's Transfer and Approval events from the chain's own logs, paged. */
import { parseUnits } from 'ethers';

import type { Devnet } from '../../devnet';
import { useDevnet } from '../helpers/useDevnet';

let devnet: Devnet;
useDevnet((started) => (devnet = started));

async function logs(query: Record<string, string>) {
	const response = await fetch(
		`${devnet.baseUrl}/fungibletoken/historical/logs?${new URLSearchParams(query)}`,
		{ headers: { 'x-api-key': devnet.apiKey } },
	);
	return {
		status: response.status,
		body: (await response.json()) as {
			data: { page: number; totalPages: number; logs: Array<Record<string, unknown>> };
			error?: { message: string };
		},
	};
}

test("Transfer logs of a token are the chain's own, decoded, oldest first", async () => {
	const chain = devnet.chains[0];
	const [, alice, bob] = chain.wallets;
	const { status, body } = await logs({
		chainId: chain.chainId,
		tokenAddress: chain.tokens.USDC.address,
		type: 'Transfer',
		page: '1',
	});
	expect(status).toBe(200);
	const raw = await devnet.rpc<unknown[]>(chain.chainId, 'eth_getLogs', [
		{
			address: chain.tokens.USDC.address,
			fromBlock: '0x0',
			toBlock: 'latest',
			topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'],
		},
	]);
	expect(body.data.logs).toHaveLength(raw.length);
	expect(body.data).toMatchObject({ page: 1, totalPages: 1 });
	const numbers = body.data.logs.map((log) => log.blockNumber as number);
	expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
	expect(body.data.logs).toContainEqual(
		expect.objectContaining({
			address: chain.tokens.USDC.address,
			from: alice.address,
			to: bob.address,
			value: parseUnits('250', 6).toString(),
			removed: false,
		}),
	);
});

test("a block range narrows the logs; a bad type or an inverted range is the API's error", async () => {
	const chain = devnet.chains[0];
	const all = (
		await logs({
			chainId: chain.chainId,
			tokenAddress: chain.tokens.DAI.address,
			type: 'Approval',
			page: '1',
		})
	).body.data.logs;
	expect(all.length).toBeGreaterThan(0);
	// The fixtures' approval of 500 DAI by alice to carol.
	const approval = all.find((log) => log.owner === chain.wallets[1].address) as Record<
		string,
		unknown
	>;
	const block = String(approval.blockNumber);
	const narrowed = (
		await logs({
			chainId: chain.chainId,
			tokenAddress: chain.tokens.DAI.address,
			type: 'Approval',
			page: '1',
			startBlock: block,
			endBlock: block,
		})
	).body.data.logs;
	expect(narrowed.map((log) => log.blockNumber)).toEqual(
		all.filter((log) => String(log.blockNumber) === block).map((log) => log.blockNumber),
	);
	expect(narrowed).toContainEqual(
		expect.objectContaining({
			owner: chain.wallets[1].address,
			spender: chain.wallets[3].address,
			value: parseUnits('500', 18).toString(),
		}),
	);
	expect(
		(await logs({ tokenAddress: chain.tokens.DAI.address, type: 'Mint', page: '1' })).status,
	).toBe(400);
	expect(
		(
			await logs({
				tokenAddress: chain.tokens.DAI.address,
				type: 'Transfer',
				page: '1',
				startBlock: '5',
				endBlock: '2',
			})
		).body.error?.message,
	).toBe('endBlock should be greater than startBlock');
});
