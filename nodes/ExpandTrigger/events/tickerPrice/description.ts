import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

export const option: INodePropertyOptions = {
	name: 'Ticker Price',
	value: 'tickerPrice',
	description: 'Live token prices from the ticker-price stream',
};

const tickerPrice = { event: [option.value] };

export const description: INodeProperties[] = [
	{
		displayName: 'Symbols',
		name: 'symbols',
		type: 'string',
		default: '',
		placeholder: 'WETH, LINK',
		description:
			'Token symbols to watch, comma-separated; empty for every token of the stream (see Chain → Get Ticker Price)',
		displayOptions: { show: tickerPrice },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: tickerPrice },
		options: [
			{
				displayName: 'Minimum Change (%)',
				name: 'minChangePercent',
				type: 'string',
				default: '',
				placeholder: '0.5',
				description:
					'Emit a price only when it moved at least this many percent since the last one emitted for its symbol',
			},
			{
				displayName: 'Reconnect After Silence (Seconds)',
				name: 'silenceTimeoutSeconds',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 60,
				description:
					'A connection that sent no message for this long is closed and opened again at once',
			},
			{
				displayName: 'Reconnect Attempts',
				name: 'reconnectAttempts',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 8,
				description:
					'How often to retry a lost connection, waiting 0.5 s, 1 s, 2 s … up to 30 s between tries, before reporting an error',
			},
		],
	},
];
