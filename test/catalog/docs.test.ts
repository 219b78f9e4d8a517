import { readFileSync } from 'fs';
import { join } from 'path';

import { renderOperationsDoc } from '../../scripts/operationsDoc';

test('docs/operations.md is what the catalog generates (run `npm run docs` after changing the catalog)', () => {
	const committed = readFileSync(join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
	expect(committed).toBe(renderOperationsDoc());
});
