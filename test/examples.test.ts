/** The workflow files users import (examples/) and the real-n8n test imports (test/n8n/workflows/). */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import type { INodeType } from 'n8n-workflow';

import { PACKAGE_DIRS } from '../playground/paths';

const root = join(__dirname, '..');
const workflowFiles = ['examples', 'test/n8n/workflows'].flatMap((dir) =>
	readdirSync(join(root, dir))
		.filter((name) => name.endsWith('.json'))
		.map((name) => join(dir, name)),
);
const ids = workflowFiles.map(
	(file) => (JSON.parse(readFileSync(join(root, file), 'utf8')) as { id: string }).id,
);

// n8n saves a workflow's static data (where the polling triggers keep their cursor) only when its ID
// has 1 to 21 characters (isWorkflowIdValid in n8n's utils): with a longer ID, imported as it is by
// `n8n import:workflow`, the trigger would start afresh after every restart. Letters and digits, as n8n's own IDs.
test.each(workflowFiles.map((file, index) => [file, ids[index]]))(
	'%s has an ID n8n keeps static data for (%s)',
	(_file, id) => {
		expect(id).toMatch(/^[A-Za-z0-9]{1,21}$/);
	},
);

test('workflow IDs are unique', () => {
	expect(new Set(ids).size).toBe(ids.length);
});

const examples = readdirSync(join(root, 'examples')).filter((name) => name.endsWith('.json'));
type Workflow = {
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
};
const workflow = (name: string) =>
	JSON.parse(readFileSync(join(root, 'examples', name), 'utf8')) as Workflow;

// Production payout runs ask Slack before sending and write each outcome back to the sheet they read.
const asksSlackAndWritesBackToTheSheet = (name: string) => {
	const production = workflow(name).nodes;
	expect(
		production.find(
			(node) => node.type === 'n8n-nodes-base.slack' && node.parameters.operation === 'sendAndWait',
		),
	).toBeDefined();
	expect(
		production
			.filter((node) => node.type === 'n8n-nodes-base.googleSheets')
			.map((node) => node.parameters.operation),
	).toEqual(['read', 'update']);
};

test('every example has a devnet variant, and every devnet variant an example', () => {
	const production = examples
		.filter((name) => !name.endsWith('.devnet.json'))
		.map((name) => name.replace(/\.json$/, ''));
	const devnet = examples
		.filter((name) => name.endsWith('.devnet.json'))
		.map((name) => name.replace(/\.devnet\.json$/, ''));
	expect(devnet.sort()).toEqual(production.sort());
});

test('the real-n8n test (test/n8n/run.ts) imports every devnet variant', () => {
	const runner = readFileSync(join(root, 'test', 'n8n', 'run.ts'), 'utf8');
	for (const name of examples.filter((file) => file.endsWith('.devnet.json')))
		expect({ name, imported: runner.includes(`'${name}'`) }).toEqual({ name, imported: true });
});

// A renamed node leaves expressions and connections pointing at nothing; n8n only says so when the run reaches them.
test.each(examples)('%s: connections and $("…") references name nodes of the workflow', (name) => {
	const { nodes, connections } = workflow(name);
	const names = new Set(nodes.map((node) => node.name));
	expect(names.size).toBe(nodes.length);
	for (const [from, { main }] of Object.entries(connections)) {
		expect(names.has(from) ? from : `missing: ${from}`).toBe(from);
		for (const target of main.flat())
			expect(names.has(target.node) ? target.node : `missing: ${target.node}`).toBe(target.node);
	}
	const referenced = [
		...JSON.stringify(nodes.map((node) => node.parameters)).matchAll(
			/\$\(\\?['"]([^'"\\]+)\\?['"]\)/g,
		),
	].map((match) => match[1]);
	for (const target of referenced)
		expect(names.has(target) ? target : `missing: ${target}`).toBe(target);
});

test('the payout runs sign with a Payout ID per row and send with Wait for Confirmation; production asks Slack and writes back to the sheet', () => {
	for (const name of ['stablecoin-payout-run.json', 'stablecoin-payout-run.devnet.json']) {
		const { nodes } = workflow(name);
		const sign = nodes.find(
			(node) =>
				node.type.endsWith('.expandSigner') && node.parameters.operation === 'signTransaction',
		);
		expect(sign?.parameters.payoutId).toBe('={{ $json.payoutId }}');
		expect(
			nodes.find((node) => node.parameters.operation === 'sendtransaction')?.parameters
				.waitForConfirmation,
		).toBe(true);
	}
	asksSlackAndWritesBackToTheSheet('stablecoin-payout-run.json');
});

test('the USDT payout run on Tron signs Transfer TRC-20 with a Payout ID per row (a refused row does not stop the others), sends what is not on the chain, and takes each outcome from the chain through Check Payouts; production asks Slack and writes back to the sheet', () => {
	for (const name of ['tron-usdt-payout-run.json', 'tron-usdt-payout-run.devnet.json']) {
		const { nodes, connections } = workflow(name);
		const signers = nodes.filter((node) => node.type.endsWith('.expandSigner'));
		expect(signers.map((node) => [node.parameters.chainFamily, node.parameters.operation])).toEqual(
			[
				['tron', 'getAddress'],
				['tron', 'transferTrc20'],
				['tron', 'listPayouts'],
				['tron', 'checkPayouts'],
			],
		);
		const sign = signers[1] as (typeof signers)[number] & { onError?: string };
		expect(sign.parameters.payoutId).toBe('={{ $json.payoutId }}');
		expect(sign.onError).toBe('continueRegularOutput');
		expect(connections['Sign payouts'].main[0].map((target) => target.node)).toEqual([
			'Not sent yet',
			'Wait for blocks',
			'Payout results',
		]);
		expect(connections['Not sent yet'].main.flat().map((target) => target.node)).toEqual(['Send']);
	}
	asksSlackAndWritesBackToTheSheet('tron-usdt-payout-run.json');
});

// TON and Stellar runs send one at a time: each sent payout is checked on the chain until it landed, then the next.
const signsThenSendsOneAtATime = (
	name: string,
	chainFamily: string,
	transferOperation: string,
	signsRowFields: (parameters: Record<string, unknown>) => void,
) => {
	for (const file of [`${name}.json`, `${name}.devnet.json`]) {
		const { nodes, connections } = workflow(file);
		const signers = nodes.filter((node) => node.type.endsWith('.expandSigner'));
		expect(signers.map((node) => [node.parameters.chainFamily, node.parameters.operation])).toEqual(
			[
				[chainFamily, 'getAddress'],
				[chainFamily, transferOperation],
				[chainFamily, 'listPayouts'],
				[chainFamily, 'checkPayouts'],
				[chainFamily, 'listPayouts'],
				[chainFamily, 'checkPayouts'],
			],
		);
		const sign = signers[1] as (typeof signers)[number] & { onError?: string };
		expect(sign.parameters.payoutId).toBe('={{ $json.payoutId }}');
		signsRowFields(sign.parameters);
		expect(sign.onError).toBe('continueRegularOutput');
		const next = (from: string, output = 0) =>
			(connections[from].main[output] ?? []).map((target) => target.node);
		expect(next('Sign payouts')).toEqual(['Not sent yet', "This run's payouts", 'Payout results']);
		// The loop: one payout sent, then checked until it landed, then the next.
		expect(next('Not sent yet')).toEqual(['One at a time']);
		expect(
			(nodes.find((node) => node.name === 'One at a time')?.parameters as { batchSize: number })
				.batchSize,
		).toBe(1);
		expect(next('One at a time', 1)).toEqual(['Next payout']);
		expect(next('Next payout')).toEqual(['Send']);
		expect(next('Send')).toEqual(['Wait for landing']);
		expect(next('Where it stands')).toEqual(['Landed?']);
		expect([next('Landed?', 0), next('Landed?', 1)]).toEqual([
			['One at a time'],
			['Wait for landing'],
		]);
	}
	asksSlackAndWritesBackToTheSheet(`${name}.json`);
};

test("the USDT payout run on TON signs Transfer Jetton with the row's comment and a Payout ID per row (a refused row does not stop the others), sends what is not on the chain one message at a time, each checked on the chain before the next, and takes each outcome from Check Payouts; production asks Slack and writes back to the sheet", () => {
	signsThenSendsOneAtATime('ton-usdt-payout-run', 'ton', 'transferJetton', (parameters) =>
		expect(parameters.comment).toBe('={{ $json.comment }}'),
	);
});

test("the USDC payout run on Stellar signs Transfer Asset with the row's memo type and memo and a Payout ID per row (a refused row does not stop the others), sends what is not on the chain one transaction at a time in sequence order, each checked on the chain before the next, and takes each outcome from Check Payouts; production asks Slack and writes back to the sheet", () => {
	signsThenSendsOneAtATime('stellar-usdc-payout-run', 'stellar', 'transferAsset', (parameters) =>
		expect([parameters.memoType, parameters.memo]).toEqual([
			'={{ $json.memoType }}',
			'={{ $json.memo }}',
		]),
	);
});

test("the RWA example on Stellar builds each step with the Expand node's RWA operations (the issuer's authorisation in a Code node), signs each From Input Item with the step's account and a payout ID, sends it and confirms it before the next, then checks every payout on the chain", () => {
	for (const name of [
		'stellar-rwa-issue-transfer.json',
		'stellar-rwa-issue-transfer.devnet.json',
	]) {
		const { nodes } = workflow(name);
		expect(
			nodes
				.filter((node) => node.type.endsWith('.expand') && node.parameters.resource === 'rwa')
				.map((node) => node.parameters.operation),
		).toEqual(['settrustline', 'issue', 'transfer']);
		const signs = nodes.filter(
			(node) =>
				node.type.endsWith('.expandSigner') && node.parameters.operation === 'signTransaction',
		);
		expect(
			signs.map((node) => [node.name, node.parameters.source, node.parameters.accountIndex]),
		).toEqual([
			['Sign trustlines', 'input', "={{ $('Trustlines to build').item.json.accountIndex }}"],
			['Sign authorization', 'input', "={{ $('Accounts').first().json.issuerAccount }}"],
			['Sign issue', 'input', "={{ $('Accounts').first().json.issuerAccount }}"],
			['Sign transfer', 'input', "={{ $('Accounts').first().json.holderAccount }}"],
		]);
		expect(signs.every((node) => String(node.parameters.payoutId).startsWith('={{'))).toBe(true);
		expect(
			nodes
				.filter(
					(node) => node.type.endsWith('.expand') && node.parameters.operation === 'gettransaction',
				)
				.map((node) => (node as typeof node & { retryOnFail?: boolean }).retryOnFail),
		).toEqual([true, true, true, true]);
	}
});

test('the payout runs via Safe propose from the Safe with a Payout ID per row; their executed workflows write back from the Safe Transaction Executed trigger; production uses the sheet and Slack', () => {
	for (const suffix of ['.json', '.devnet.json']) {
		const run = workflow(`safe-payout-run${suffix}`).nodes;
		expect(
			run
				.filter((node) => node.type.endsWith('.expandSigner'))
				.map((node) => [node.parameters.operation, node.parameters.payoutId]),
		).toEqual([['proposeToSafe', '={{ $json.payoutId }}']]);
		expect(run.find((node) => node.name === 'Build transfers')?.parameters.from).toBe(
			'={{ $json.from }}',
		);
		const executed = workflow(`safe-payout-executed${suffix}`).nodes;
		const trigger = executed.find((node) => node.type.endsWith('.expandTrigger'));
		expect(trigger?.parameters.event).toBe('safeTransactionExecuted');
		// The trigger watches the Safe the run proposes to.
		expect(
			JSON.stringify(run.find((node) => node.name === 'Run settings')?.parameters.jsCode),
		).toContain(String(trigger?.parameters.safeAddress));
	}
	const production = [
		...workflow('safe-payout-run.json').nodes,
		...workflow('safe-payout-executed.json').nodes,
	];
	expect(
		production
			.filter((node) => node.type === 'n8n-nodes-base.googleSheets')
			.map((node) => [
				node.parameters.operation,
				(node.parameters.columns as { matchingColumns?: string[] } | undefined)?.matchingColumns,
			]),
	).toEqual([
		['read', undefined],
		['update', ['rowId']],
		['update', ['safeTxHash']],
	]);
	expect(production.some((node) => node.type === 'n8n-nodes-base.slack')).toBe(true);
});

test('the payout runs via Fireblocks create from the vault with a Payout ID per row, a refused row not stopping the others; their completed workflows write back from Expand Signer Trigger (Fireblocks) on the same credential; the runs via Turnkey sign with a Turnkey key and send', () => {
	type Credentialed = Workflow['nodes'][number] & {
		credentials?: Record<string, { id: string }>;
		onError?: string;
	};
	for (const suffix of ['.json', '.devnet.json']) {
		const run = workflow(`fireblocks-payout-run${suffix}`).nodes as Credentialed[];
		const signers = run.filter((node) => node.type.endsWith('.expandSigner'));
		expect(
			signers.map((node) => [node.parameters.chainFamily, node.parameters.operation, node.onError]),
		).toEqual([
			['fireblocks', 'getVaultAddress', undefined],
			['fireblocks', 'createTransaction', 'continueRegularOutput'],
		]);
		expect(signers[1].parameters.payoutId).toBe('={{ $json.payoutId }}');
		expect(String(run.find((node) => node.name === 'Check rows')?.parameters.jsCode)).toContain(
			"$('Vault address').first().json.address",
		);
		const done = workflow(`fireblocks-payout-completed${suffix}`).nodes as Credentialed[];
		const trigger = done.find((node) => node.type.endsWith('.expandSignerTrigger'));
		expect(trigger?.parameters.custodian).toBe('fireblocks');
		expect(trigger?.credentials?.expandFireblocksApi.id).toBe(
			signers[1].credentials?.expandFireblocksApi.id,
		);
		const turnkey = workflow(`turnkey-payout-run${suffix}`).nodes as Credentialed[];
		const sign = turnkey.find((node) => node.name === 'Sign payouts');
		expect([sign?.parameters.operation, sign?.parameters.payoutId, sign?.onError]).toEqual([
			'signTransaction',
			'={{ $json.payoutId }}',
			'continueRegularOutput',
		]);
		expect(turnkey.find((node) => node.name === 'Send')?.parameters.operation).toBe(
			'sendtransaction',
		);
	}
	const production = workflow('fireblocks-payout-completed.json').nodes;
	expect(
		production
			.filter((node) => node.type === 'n8n-nodes-base.googleSheets')
			.map(
				(node) =>
					(node.parameters.columns as { matchingColumns?: string[] } | undefined)?.matchingColumns,
			),
	).toEqual([['payoutId']]);
});

// Issue 32: an API answering a row with no transaction, several or another row's must not be paired by position.
test("the payout runs pair each transaction with its row through pairedItem: One transfer per row follows Build transfers, the same code in all four, and no Code node reads another node's items by position", () => {
	const files = ['stablecoin-payout-run', 'safe-payout-run'].flatMap((name) => [
		`${name}.json`,
		`${name}.devnet.json`,
	]);
	const guards = files.map((name) => {
		const { nodes, connections } = workflow(name);
		expect(connections['Build transfers'].main.flat().map((target) => target.node)).toEqual([
			'One transfer per row',
		]);
		for (const node of nodes.filter((entry) => entry.type === 'n8n-nodes-base.code'))
			expect({ name, node: node.name, code: node.parameters.jsCode }).not.toEqual(
				expect.objectContaining({ code: expect.stringMatching(/\[index\]/) }),
			);
		return nodes.find((node) => node.name === 'One transfer per row')?.parameters.jsCode;
	});
	expect(guards[0]).toContain("$('Check rows').itemMatching(index)");
	expect(new Set(guards).size).toBe(1);
});

// "Execute workflow" runs a workflow from its Manual Trigger only when that is its one start: beside a
// webhook or event trigger, the editor's button waits for that trigger's event instead.
test.each(
	examples.filter((name) =>
		workflow(name).nodes.some((node) => node.type === 'n8n-nodes-base.manualTrigger'),
	),
)('%s: the Manual Trigger is the only start, so Execute workflow runs it at once', (name) => {
	const { nodes, connections } = workflow(name);
	const targets = new Set(
		Object.values(connections).flatMap(({ main }) => main.flat().map((target) => target.node)),
	);
	const starts = nodes.filter(
		(node) => node.type !== 'n8n-nodes-base.stickyNote' && !targets.has(node.name),
	);
	expect(starts.map((node) => node.type)).toEqual(['n8n-nodes-base.manualTrigger']);
});

// Node types are package name + node name: a workflow naming a type no package declares imports, but
// n8n cannot run or publish it ("Unrecognized node type").
test('every Expand node type the workflows name is one a package of this repository declares', () => {
	const declared = PACKAGE_DIRS.flatMap((dir) => {
		const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
			name: string;
			n8n: { nodes: string[] };
		};
		return manifest.n8n.nodes.flatMap((file) => {
			const module = require(
				join(dir, file.replace(/^dist\//, '').replace(/\.js$/, '.ts')),
			) as Record<string, new () => INodeType>;
			return Object.values(module).map((Node) => `${manifest.name}.${new Node().description.name}`);
		});
	});
	expect(declared.length).toBe(4);
	const named = workflowFiles.flatMap((file) =>
		(JSON.parse(readFileSync(join(root, file), 'utf8')) as Workflow).nodes
			.map((node) => node.type)
			.filter((type) => type.startsWith('n8n-nodes-expand-network')),
	);
	for (const type of new Set(named))
		expect({ type, declared: declared.includes(type) }).toEqual({ type, declared: true });
});
