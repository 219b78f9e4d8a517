import type { IDataObject, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { EXPAND_API_CREDENTIAL } from '../../../shared/credentials';
import { TickerConnection } from './connection';
import { movedEnough } from './threshold';

/** Ticker Price: every message of the credential's stream, or only moves above a threshold. */
export async function activateTickerPrice(this: ITriggerFunctions): Promise<ITriggerResponse> {
	const credentials = await this.getCredentials<{ apiKey: string; streamUrl: string }>(EXPAND_API_CREDENTIAL);
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const symbols = String(this.getNodeParameter('symbols', '') ?? '')
		.split(',')
		.map((symbol) => symbol.trim().toUpperCase())
		.filter(Boolean);
	const threshold = String(options.minChangePercent ?? '');
	const maxAttempts = Number(options.reconnectAttempts ?? 8);
	const lastEmitted = new Map<string, string>();

	const connect = (onMessage: (message: IDataObject) => void, onGiveUp: (reason: string) => void, attempts = maxAttempts) =>
		new TickerConnection({ url: credentials.streamUrl, apiKey: credentials.apiKey, symbols, maxAttempts: attempts, onMessage, onGiveUp });

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
						if (symbols.length && !symbols.includes(String(message.symbol).toUpperCase())) return;
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

	const connection = connect(
		(message) => {
			const symbol = String(message.symbol ?? '').toUpperCase();
			if (symbols.length && !symbols.includes(symbol)) return;
			const price = String(message.price ?? '');
			if (!movedEnough(lastEmitted.get(symbol), price, threshold)) return;
			lastEmitted.set(symbol, price);
			this.emit([this.helpers.returnJsonArray([message])]);
		},
		(reason) => this.emitError(new NodeOperationError(this.getNode(), reason)),
	);
	void connection.open();
	return { closeFunction: () => connection.close() };
}
