/**
 * The Expand node's properties are generated from the catalog at load time, so ESLint never sees
 * them in the source. This writes them out as a literal and runs the same n8n lint rules on it
 * (as if it were a file under nodes/), failing on any message. Part of `npm run lint`.
 */
import { ESLint } from 'eslint';
import { join } from 'path';

import { buildProperties } from '../nodes/Expand/descriptions';

async function main(): Promise<void> {
	const root = join(__dirname, '..');
	const properties = buildProperties();
	const code = `import type { INodeProperties } from 'n8n-workflow';\n\nexport const properties: INodeProperties[] = ${JSON.stringify(properties, null, '\t')};\n`;
	const eslint = new ESLint({ cwd: root });
	const [result] = await eslint.lintText(code, {
		filePath: join(root, 'nodes', 'Expand', 'GeneratedProperties.ts'),
	});
	const lines = code.split('\n');
	for (const message of result.messages) {
		console.error(
			`${message.ruleId ?? 'eslint'}: ${message.message}\n    ${lines[message.line - 1]?.trim()}`,
		);
	}
	console.log(
		`generated Expand properties: ${properties.length} properties, ${result.messages.length} lint messages`,
	);
	if (result.messages.length) process.exit(1);
}

void main();
