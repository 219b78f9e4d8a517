import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { brokenFields } from '../../scripts/compat/compareForms';
import { type FormSnapshot, formSnapshot } from '../../scripts/compat/formSnapshot';
import { packageNodes } from '../../scripts/compat/packageNodes';
import { renamedNodeTypes } from './migration';

const ROOT = path.join(__dirname, '..', '..');

/** The forms of every node the repository's packages declare, as they are now. */
function currentForms(): FormSnapshot {
	const nodes = packageNodes(ROOT, (file) => readFileSync(file, 'utf8')).map(
		({ packageName, source }) => {
			const exports = require(source) as Record<string, new () => INodeType>;
			const NodeClass = Object.values(exports).find((value) => typeof value === 'function')!;
			const description = new NodeClass().description as INodeTypeDescription;
			return { type: `${packageName}.${description.name}`, description };
		},
	);
	return formSnapshot(nodes);
}

const releases = readdirSync(__dirname, { withFileTypes: true })
	.filter((entry) => entry.isDirectory() && /^\d+\.\d+\.\d+$/.test(entry.name))
	.map((entry) => entry.name);

const frozen = (release: string) =>
	JSON.parse(readFileSync(path.join(__dirname, release, 'forms.json'), 'utf8')) as FormSnapshot;

describe('frozen forms: every field a released node version saved a value in', () => {
	const current = currentForms();

	test('there is a frozen release', () => {
		expect(releases).toContain('0.1.0');
	});

	test.each(releases)(
		'%s: is still there, of the same type, default and option values',
		(release) => {
			expect(brokenFields(frozen(release), current, renamedNodeTypes)).toEqual([]);
		},
	);

	test('a field moved out of Additional Fields, a changed default or a dropped option value is reported', () => {
		const release = frozen('0.1.0');
		const transfer = 'resource=fungibletoken,operation=transfer';
		const moved = structuredClone(current);
		const form = moved['n8n-nodes-expand-network.expand@1'].forms[transfer];
		moved['n8n-nodes-expand-network.expand@1'].forms[transfer] = form
			.filter((field) => field.path !== 'additionalFields.from')
			.map((field) =>
				field.path === 'options.parallelRequests' ? { ...field, default: 5 } : field,
			)
			.map((field) =>
				field.path === 'additionalFields.gasPriority'
					? { ...field, values: ['high', 'low'] }
					: field,
			);
		expect(brokenFields(release, moved, renamedNodeTypes)).toEqual([
			`n8n-nodes-expand-network.expand@1 ${transfer}: additionalFields.from (string, default "") is gone or moved`,
			`n8n-nodes-expand-network.expand@1 ${transfer}: additionalFields.gasPriority (options, default "low") no longer accepts "medium"`,
			`n8n-nodes-expand-network.expand@1 ${transfer}: options.parallelRequests (number, default 10) is now options.parallelRequests (number, default 5)`,
		]);
	});

	test('a saved operation finds its form under a selector added since, at its default', () => {
		const signer = current['n8n-nodes-expand-network-signer.expandSigner@1'];
		expect(signer.selectorDefaults.chainFamily).toBe('evm');
		const saved: FormSnapshot = {
			'n8n-nodes-expand-network.expandSigner@1': {
				selectorDefaults: {},
				forms: { 'operation=signTransaction': [] },
			},
		};
		expect(brokenFields(saved, current, renamedNodeTypes)).toEqual([]);
		expect(brokenFields(saved, current, {})).toEqual([
			'n8n-nodes-expand-network.expandSigner@1: the node version is gone',
		]);
	});
});
