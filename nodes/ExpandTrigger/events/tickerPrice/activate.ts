import type { IDataObject, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { EXPAND_API_CREDENTIAL } from '../../../shared/credentials';
import { TickerConnection } from './connection';
import type { TickerMessage } from './message';
import { Pace } from './pace';
import { RUNTIME_REQUIREMENT, runtimeWebSocket } from './runtimeWebSocket';
import { movedEnough } from './threshold';

/** Drops are logged at the 1st, 10th, 100th … of each reason, so a flood of bad frames cannot flood the log. */
const shouldLog = (count: number) => /^10*$/.test(String(count));

/** Ticker Price: every message of the credential's stream, or only moves above a threshold. */
export async function activateTickerPrice(this: ITriggerFunctions): Promise<ITriggerResponse> {
	const WebSocket = runtimeWebSocket();
	if (!WebSocket) throw new NodeOperationError(this.getNode(), RUNTIME_REQUIREMENT);
	const credentials = await this.getCredentials<{ apiKey: string; streamUrl: string }>(
		EXPAND_API_CREDENTIAL,
	);
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const symbols = String(this.getNodeParameter('symbols', '') ?? '')
		.split(',')
		.map((symbol) => symbol.trim().toUpperCase())
		.filter(Boolean);
	const threshold = String(options.minChangePercent ?? '');
	const maxAttempts = Number(options.reconnectAttempts ?? 8);
	const silenceSeconds = Number(options.silenceTimeoutSeconds ?? 60);
	if (!Number.isFinite(silenceSeconds) || silenceSeconds < 1) {
		throw new NodeOperationError(
			this.getNode(),
			`The option "Reconnect After Silence (Seconds)" must be 1 or more; got "${String(options.silenceTimeoutSeconds)}"`,
		);
	}
	const lastEmitted = new Map<string, string>();
	const drops = new Map<string, number>();
	const dropped = (reason: string) => {
		const count = (drops.get(reason) ?? 0) + 1;
		drops.set(reason, count);
		if (shouldLog(count))
			this.logger.warn(
				`Expand Trigger (Ticker Price): dropped a stream message: ${reason} (${count} so far)`,
			);
	};
	const wanted = (message: TickerMessage) =>
		!symbols.length || symbols.includes(message.symbol.toUpperCase());

	const connect = (
		onMessage: (message: TickerMessage) => void,
		onGiveUp: (reason: string) => void,
		attempts = maxAttempts,
	) =>
		new TickerConnection({
			WebSocket,
			url: credentials.streamUrl,
			apiKey: credentials.apiKey,
			symbols,
			maxAttempts: attempts,
			silenceMs: silenceSeconds * 1000,
			onMessage,
			onDropped: dropped,
			onGiveUp,
		});

	if (this.getMode() === 'manual') {
		// "Fetch test event": the first matching price, then the socket is closed. closeFunction also
		// covers a test run that is cancelled before a price arrives.
		let connection: TickerConnection | undefined;
		let finish: (() => void) | undefined;
		const manualTriggerFunction = async () => {
			await new Promise<void>((resolve, reject) => {
				finish = resolve;
				connection = connect(
					(message) => {
						if (!wanted(message)) return;
						void connection?.close();
						this.emit([this.helpers.returnJsonArray([message])]);
						resolve();
					},
					(reason) => reject(new NodeOperationError(this.getNode(), reason)),
					// A test run reports an unreachable stream after one retry instead of backing off for minutes.
					Math.min(maxAttempts, 1),
				);
				void connection.open();
			});
		};
		const closeFunction = async () => {
			await connection?.close();
			finish?.();
		};
		return { manualTriggerFunction, closeFunction };
	}

	const pace = new Pace(
		(messages) => this.emit([this.helpers.returnJsonArray(messages)]),
		async (ms) => await sleep(ms),
	);
	const connection = connect(
		(message) => {
			if (!wanted(message)) return;
			const symbol = message.symbol.toUpperCase();
			const price = message.price === undefined ? '' : String(message.price);
			if (!movedEnough(lastEmitted.get(symbol), price, threshold)) return;
			if (!pace.offer(symbol, message))
				return dropped(`more than the held symbols while the stream floods`);
			lastEmitted.set(symbol, price);
		},
		(reason) => this.emitError(new NodeOperationError(this.getNode(), reason)),
	);
	void connection.open();
	return {
		closeFunction: async () => {
			pace.stop();
			await connection.close();
		},
	};
}
