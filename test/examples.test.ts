/** The workflow files users import (examples/) and the real-n8n test imports (test/n8n/workflows/). */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

const root = join(__dirname, '..');
const workflowFiles = ['examples', 'test/n8n/workflows'].flatMap((dir) =>
	readdirSync(join(root, dir))
		.filter((name) => name.endsWith('.json'))
		.map((name) => join(dir, name)),
);
const ids = workflowFiles.map((file) => (JSON.parse(readFileSync(join(root, file), 'utf8')) as { id: string }).id);

// n8n saves a workflow's static data (where the polling triggers keep their cursor) only when its ID
// has 1 to 21 characters (isWorkflowIdValid in n8n's utils): with a longer ID, imported as it is by
// `n8n import:workflow`, the trigger would start afresh after every restart. Letters and digits, as n8n's own IDs.
test.each(workflowFiles.map((file, index) => [file, ids[index]]))('%s has an ID n8n keeps static data for (%s)', (_file, id) => {
	expect(id).toMatch(/^[A-Za-z0-9]{1,21}$/);
});

test('workflow IDs are unique', () => {
	expect(new Set(ids).size).toBe(ids.length);
});
