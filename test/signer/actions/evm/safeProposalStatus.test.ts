/**
 * Get Safe Proposal against a scripted Safe Transaction Service on 127.0.0.1: what it reads and shows,
 * the Bearer key, a 429's Retry-After obeyed, an answer that fails its checks refused naming the field,
 * an execution the service claims for fields that are not the proposal's never believed, and Wait for
 * Execution (at the timeout an error or a flagged output, also while the service claims an execution
 * the chain does not confirm). Executions the chain confirms: safeJournal.test.ts and
 * safePropose.test.ts, on the devnet.
 */
import type { IDataObject } from 'n8n-workflow';

import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import {
	type ScriptedAnswer,
	type ScriptedRequest,
	startScriptedApi,
} from '../../../helpers/scriptedApi';
import { devnetSignerKey } from '../../../helpers/devnetCredentials';

const SAFE = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const OWNER_A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const HASH = '0x' + '1f'.repeat(32);
const EXECUTION = '0x' + 'e7'.repeat(32);
const KEY = 'safe-key-7788';

let api: Awaited<ReturnType<typeof startScriptedApi>>;
let script: (request: ScriptedRequest, index: number) => ScriptedAnswer;
beforeEach(async () => {
	api = await startScriptedApi((request, index) => script(request, index));
});
afterEach(async () => await api.close());

function proposal(overrides: IDataObject = {}): IDataObject {
	return {
		safe: SAFE,
		to: '0x' + 'c1'.repeat(20),
		value: '1000',
		data: null,
		operation: 0,
		gasToken: '0x0000000000000000000000000000000000000000',
		safeTxGas: 0,
		baseGas: 0,
		gasPrice: '0',
		refundReceiver: '0x0000000000000000000000000000000000000000',
		nonce: 4,
		executionDate: null,
		submissionDate: '2026-11-26T06:00:00Z',
		blockNumber: null,
		transactionHash: null,
		safeTxHash: HASH,
		proposer: OWNER_A,
		isExecuted: false,
		isSuccessful: null,
		confirmationsRequired: 2,
		confirmations: [
			{ owner: OWNER_A, signature: '0x' + '11'.repeat(65), submissionDate: '2026-11-26T06:00:00Z' },
		],
		...overrides,
	};
}

const executed = proposal({
	isExecuted: true,
	isSuccessful: true,
	transactionHash: EXECUTION,
	blockNumber: 812,
	executionDate: '2026-11-26T06:05:00Z',
});

async function get(parameters: IDataObject = {}, items: IDataObject[] = [{}]) {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{
				name: 'Get',
				type: SIGNER,
				parameters: {
					operation: 'getSafeProposal',
					safeTxHash: HASH,
					chainId: '31337',
					...parameters,
				},
				continueOnFail: true,
			},
		],
		{
			expandSignerApi: devnetSignerKey({ passphrase: '' }),
			expandSafeApi: { serviceUrl: `${api.url}/`, apiKey: KEY, maxRequestsPerSecond: 5 },
		},
	);
	expect(result.error).toBeUndefined();
	return result.output('Get').map((item) => item.json);
}

test("reads the proposal by its safeTxHash with the Bearer key; the service's word that it was executed is shown apart, not believed", async () => {
	script = () => ({ body: executed });
	const [shown] = await get();
	expect(
		api.requests.map((request) => [request.method, request.path, request.authorization]),
	).toEqual([['GET', `/api/v1/multisig-transactions/${HASH}/`, `Bearer ${KEY}`]]);
	// The fields the service lists do not hash to HASH for this Safe on chain 31337: no execution of
	// it can be confirmed, whatever the chain holds, so the chain is not even asked.
	expect(shown).toEqual({
		safeTxHash: HASH,
		safe: SAFE,
		nonce: '4',
		confirmations: 1,
		confirmedBy: [OWNER_A],
		threshold: 2,
		executed: false,
		successful: null,
		executionTransactionHash: null,
		executionBlock: null,
		executionDate: null,
		serviceClaims: {
			executed: true,
			successful: true,
			executionTransactionHash: EXECUTION,
			executionBlock: 812,
			executionDate: '2026-11-26T06:05:00Z',
			notBelievedBecause: expect.stringMatching(
				new RegExp(
					`^the Safe API's fields of the proposal \\(to 0x[cC]1.*, value 1000, nonce 4, …\\) hash to 0x[0-9a-f]{64} for Safe ${SAFE} on chain 31337, not to ${HASH}$`,
				),
			),
		},
		to: null,
		value: null,
		data: null,
		chainStatus: 'unverified',
		statusMessage: expect.stringMatching(
			new RegExp(
				`^The Safe API's fields of the proposal hash to 0x[0-9a-f]{64} for Safe ${SAFE} on chain 31337, not to ${HASH}: nothing it says of this proposal can be checked on the chain$`,
			),
		),
	});
});

test("a 429 is retried after the service's Retry-After; a proposal the service does not know is the item's error", async () => {
	script = (request, index) =>
		index === 0
			? { status: 429, body: { detail: 'Request was throttled.' }, headers: { 'retry-after': '1' } }
			: request.path.includes(HASH)
				? { body: proposal() }
				: { status: 404, body: { detail: 'No MultisigTransaction matches the given query.' } };
	const other = '0x' + '2e'.repeat(32);
	const shown = await get({ safeTxHash: '={{ $json.hash }}' }, [{ hash: HASH }, { hash: other }]);
	expect(api.requests[1].at - api.requests[0].at).toBeGreaterThanOrEqual(990);
	expect(shown[0]).toMatchObject({
		safeTxHash: HASH,
		executed: false,
		executionTransactionHash: null,
	});
	expect(shown[1].error).toBe(
		`The Safe API does not know the proposal ${other} (HTTP 404 at ${api.url}) (item 1)`,
	);
});

test('an answer that fails its checks is refused naming the field and the value; a bad hash is refused before any request', async () => {
	script = () => ({ body: proposal({ isExecuted: true, transactionHash: '0xnot-a-hash' }) });
	const shown = await get({ safeTxHash: '={{ $json.hash }}' }, [
		{ hash: HASH },
		{ hash: '0x1234' },
	]);
	expect(shown[0].error).toBe(
		'The Safe API answered with an invalid transactionHash: "0xnot-a-hash" (item 0)',
	);
	expect(shown[1].error).toBe(
		'The parameter "Safe Transaction Hash" must be a 0x hash of 32 bytes; got "0x1234" (item 1)',
	);
	expect(api.requests).toHaveLength(1);
});

test('Wait for Execution keeps waiting while the service says executed and the chain does not confirm it', async () => {
	script = (_, index) => ({ body: index < 1 ? proposal() : executed });
	const [failed] = await get({ waitForExecution: true, timeoutSeconds: 7 });
	expect(api.requests.length).toBeGreaterThanOrEqual(2);
	expect(failed.error).toMatch(
		new RegExp(
			`^The Safe proposal ${HASH} was not executed within 7 s \\(1 of 2 confirmations\\); the Safe API says it was, but the chain does not confirm it: the Safe API's fields of the proposal .* not to ${HASH} \\(item 0\\)$`,
		),
	);
});

test('at the timeout: the item fails naming the proposal and its confirmations, or goes on flagged timedOut', async () => {
	script = () => ({ body: proposal() });
	const [failed] = await get({ waitForExecution: true, timeoutSeconds: 2 });
	expect(failed.error).toBe(
		`The Safe proposal ${HASH} was not executed within 2 s (1 of 2 confirmations) (item 0)`,
	);
	const [flagged] = await get({ waitForExecution: true, timeoutSeconds: 1, onTimeout: 'output' });
	expect(flagged).toMatchObject({
		executed: false,
		timedOut: true,
		confirmations: 1,
		threshold: 2,
	});
});
