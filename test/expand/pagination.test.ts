/** Paged lists: Return All follows the cursor across pages, Limit stops early. */
import { runExpand } from '../helpers/n8n';
import { envelope, useRecordingServer } from '../helpers/recordingServer';

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const approval = (n: number) => ({
	tokenAddress: `0x${String(n).padStart(40, '0')}`,
	allowance: String(n),
});

const cursorPages: Record<string, { nextPageToken: string; approvals: object[] }> = {
	'': { nextPageToken: 'p2', approvals: [approval(1), approval(2)] },
	p2: { nextPageToken: 'p3', approvals: [approval(3), approval(4)] },
	p3: { nextPageToken: '', approvals: [approval(5)] },
};

const serverHolder = useRecordingServer();

function run(operation: string, parameters: object) {
	return runExpand(
		{ resource: 'chain', operation, address: WALLET, ...parameters },
		{
			credentials: {
				apiKey: 'k',
				baseUrl: serverHolder.current.baseUrl,
				historicalUrl: serverHolder.current.historicalUrl,
			},
		},
	);
}

test('getapprovaldata with Return All follows nextPageToken across three pages', async () => {
	serverHolder.current.respondWith((request) =>
		envelope(cursorPages[request.query.pageToken ?? '']),
	);
	const result = await run('getapprovaldata', { returnAll: true });
	expect(result.error).toBeUndefined();
	expect(serverHolder.current.requests.map((request) => request.query.pageToken)).toEqual([
		undefined,
		'p2',
		'p3',
	]);
	expect(serverHolder.current.requests.every((request) => request.host === 'historical')).toBe(
		true,
	);
	expect(result.output('Expand').map((item) => item.json)).toEqual([1, 2, 3, 4, 5].map(approval));
	expect(
		result.output('Expand').every((item) => (item.pairedItem as { item: number }).item === 0),
	).toBe(true);
});

test('getapprovaldata with a limit fetches only the pages it needs', async () => {
	serverHolder.current.respondWith((request) =>
		envelope(cursorPages[request.query.pageToken ?? '']),
	);
	const result = await run('getapprovaldata', { returnAll: false, limit: 3 });
	expect(serverHolder.current.requests).toHaveLength(2);
	expect(result.output('Expand').map((item) => item.json)).toEqual([1, 2, 3].map(approval));
});

test('a cursor that repeats ends the paging instead of looping', async () => {
	serverHolder.current.respondWith(() =>
		envelope({ nextPageToken: 'same', approvals: [approval(1)] }),
	);
	const result = await run('getapprovaldata', { returnAll: true });
	expect(serverHolder.current.requests.map((request) => request.query.pageToken)).toEqual([
		undefined,
		'same',
	]);
	expect(result.output('Expand')).toHaveLength(2);
});

test('getusertransactions with Return All walks page numbers up to totalPages', async () => {
	serverHolder.current.respondWith((request) => {
		const page = Number(request.query.pageToken ?? '1');
		return envelope({
			totalPages: 3,
			currentPage: page,
			transactions: [{ hash: `0x${page}a` }, { hash: `0x${page}b` }],
		});
	});
	const result = await run('getusertransactions', { returnAll: true });
	expect(serverHolder.current.requests.map((request) => request.query.pageToken)).toEqual([
		undefined,
		'2',
		'3',
	]);
	expect(result.output('Expand').map((item) => item.json.hash)).toEqual([
		'0x1a',
		'0x1b',
		'0x2a',
		'0x2b',
		'0x3a',
		'0x3b',
	]);
});
