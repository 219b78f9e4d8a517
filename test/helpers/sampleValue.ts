import type { ParameterSpec } from '../../nodes/shared/catalog/types';

/** A value that satisfies the parameter's pattern and options, and what the API should receive. */
export function sample(parameter: ParameterSpec): { form: unknown; query: string; body: unknown } {
	if (parameter.options) {
		const value = parameter.options[parameter.options.length - 1];
		return { form: value, query: value, body: value };
	}
	switch (parameter.type) {
		case 'boolean':
			return { form: true, query: 'true', body: true };
		case 'array':
			return { form: '0xaaa, 0xbbb', query: '0xaaa,0xbbb', body: ['0xaaa', '0xbbb'] };
		case 'json':
			return { form: '[{"k":1}]', query: '[{"k":1}]', body: [{ k: 1 }] };
		default: {
			const candidates = ['12', '1', '0x' + 'ab'.repeat(32), 'AB12', '2026-01-02', '0.5'];
			const value = candidates.find(
				(candidate) => !parameter.pattern || new RegExp(parameter.pattern).test(candidate),
			);
			if (value === undefined)
				throw new Error(`no sample value for ${parameter.name} (${parameter.pattern})`);
			return { form: value, query: value, body: value };
		}
	}
}
