import type { ChainClient } from '../../core';

/**
 * Chain-wide answers (the latest block's base fee, the suggested tip, the gas price) asked once per
 * chain per execution and shared by its items. A failed question is asked again by the next item.
 */
export class ChainAnswers {
	private readonly answers = new Map<string, Promise<unknown>>();

	async ask<T>(
		client: ChainClient,
		chainId: string,
		method: string,
		params: unknown[] = [],
	): Promise<T> {
		const key = `${chainId}:${method}`;
		let answer = this.answers.get(key);
		if (!answer) {
			answer = client.rpc<T>(method, params);
			answer.catch(() => this.answers.delete(key));
			this.answers.set(key, answer);
		}
		return (await answer) as T;
	}

	async baseFee(client: ChainClient, chainId: string): Promise<bigint | undefined> {
		const block = await this.ask<{ baseFeePerGas?: string } | null>(
			client,
			chainId,
			'eth_getBlockByNumber',
			['latest', false],
		);
		return block?.baseFeePerGas ? BigInt(block.baseFeePerGas) : undefined;
	}

	async priorityFee(client: ChainClient, chainId: string): Promise<bigint> {
		return BigInt(await this.ask<string>(client, chainId, 'eth_maxPriorityFeePerGas'));
	}

	async gasPrice(client: ChainClient, chainId: string): Promise<bigint> {
		return BigInt(await this.ask<string>(client, chainId, 'eth_gasPrice'));
	}
}
