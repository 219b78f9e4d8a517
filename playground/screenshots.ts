/* eslint-disable no-console -- prints what it saved */
/**
 * `npm run screenshots`: headless Chromium opens the real n8n editor (a prepared instance as in
 * `npm run playground`), logs in, and saves to docs/images/:
 *   treasury-workflow.png   the treasury report example on the canvas
 *   expand-node-read.png    the Expand node's form for chain/getbalance (read, node version 2), executed
 *                           against the devnet: the output pane shows the balance, formatted, and the query
 *   expand-node-write.png   the Expand node's form for fungibletoken/transfer (write, version 2: 12.5 USDC in whole units)
 *   expand-trigger.png      the Expand Trigger's form in the "USDC received" example (Token Transfer)
 *   payout-run.png          the stablecoin payout run (devnet variant) executed from the editor as a new user does:
 *                           Execute workflow, the approval link it writes opened, every row signed, sent, confirmed
 *   payout-run-results.png  that run's "Payout results" step: every row paid, with its transaction and block
 * The forms come from playground/screenshot-forms.json (not an example: the nodes at version 2 with values filled in).
 * Needs Chromium (Debian package `chromium`; installed with apt-get when missing and running as
 * root) and puppeteer-core, which it installs into .cache/screenshots. Not part of CI: run it when
 * the nodes' forms change and commit the images.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { startDevnet } from '../devnet';
import { ensureN8n } from './install';
import { instance, startN8n } from './n8n';
import { packPackages } from './pack';
import { type PayoutRunResult, runPayoutRun } from './payoutRun';
import { prepareInstance } from './playground';
import { freePorts } from './ports';
import { log, run } from './proc';
import { N8nRest, OWNER } from './rest';
import { ROOT, USER_FOLDERS } from './paths';

const CHROMIUM = '/usr/bin/chromium';
const TOOLS = path.join(ROOT, '.cache', 'screenshots');
const IMAGES = path.join(ROOT, 'docs', 'images');
const PUPPETEER_VERSION = '24.22.0';
const FORMS = path.join(ROOT, 'playground', 'screenshot-forms.json');
const PAYOUT_RUN = 'stablecoin-payout-run.devnet.json';

/**
 * The part of puppeteer-core's API used here. puppeteer-core is installed on first use into
 * .cache/screenshots, not into the repository's node_modules, so its own types are not there to
 * type-check against.
 */
interface ElementHandle {
	click(options?: { count?: number }): Promise<void>;
}
interface Page {
	goto(url: string, options?: { waitUntil?: 'networkidle2'; timeout?: number }): Promise<unknown>;
	waitForSelector(
		selector: string,
		options?: { visible?: boolean; timeout?: number },
	): Promise<ElementHandle | null>;
	waitForFunction(expression: string, options?: { timeout?: number }): Promise<unknown>;
	type(selector: string, text: string): Promise<void>;
	keyboard: { press(key: string): Promise<void> };
	setViewport(viewport: {
		width: number;
		height: number;
		deviceScaleFactor: number;
	}): Promise<void>;
	evaluate(expression: string): Promise<unknown>;
	screenshot(options: { path: `${string}.png` }): Promise<unknown>;
}
interface Browser {
	newPage(): Promise<Page>;
	close(): Promise<void>;
}
interface Puppeteer {
	launch(options: {
		executablePath: string;
		headless: boolean;
		args: string[];
		defaultViewport: { width: number; height: number; deviceScaleFactor: number };
	}): Promise<Browser>;
}

async function ensureTools(): Promise<Puppeteer> {
	if (!existsSync(CHROMIUM)) {
		if (process.getuid?.() !== 0)
			throw new Error(
				'Chromium is missing: apt-get install chromium (as root), then run this again.',
			);
		log('Installing Chromium (apt-get install chromium)...');
		await run('apt-get', ['update', '-qq'], { capture: true });
		await run('apt-get', ['install', '-y', '-qq', 'chromium'], {
			capture: true,
			env: { DEBIAN_FRONTEND: 'noninteractive' },
		});
	}
	const manifest = path.join(TOOLS, 'package.json');
	if (!existsSync(path.join(TOOLS, 'node_modules', 'puppeteer-core'))) {
		mkdirSync(TOOLS, { recursive: true });
		writeFileSync(
			manifest,
			JSON.stringify(
				{
					name: 'screenshot-tools',
					private: true,
					dependencies: { 'puppeteer-core': PUPPETEER_VERSION },
				},
				null,
				2,
			),
		);
		log(`Installing puppeteer-core ${PUPPETEER_VERSION} into .cache/screenshots...`);
		await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: TOOLS,
			capture: true,
		});
	}
	return createRequire(manifest)('puppeteer-core') as Puppeteer;
}

async function main(): Promise<void> {
	const puppeteer = await ensureTools();
	await ensureN8n();
	const tarballs = await packPackages({ build: !process.argv.includes('--no-build') });
	const n8n = instance(path.join(USER_FOLDERS, 'screenshots'), await freePorts(5682, 2));
	const devnet = await startDevnet();
	let running: Awaited<ReturnType<typeof startN8n>> | undefined;
	const profile = mkdtempSync(path.join(tmpdir(), 'expand-chromium-'));
	let browser: Browser | undefined;
	try {
		await prepareInstance(n8n, tarballs, devnet, {
			workflows: ['treasury-report.json', 'usdc-received-slack.json', PAYOUT_RUN, FORMS],
		});
		running = await startN8n(n8n);
		await new N8nRest(running.url).setupOwnerAndLogin();

		browser = await launchBrowser(puppeteer, profile);
		const page = await browser.newPage();
		await signIn(page, running.url);
		mkdirSync(IMAGES, { recursive: true });

		await shootTreasuryWorkflow(page, running.url);
		await shootNodeForms(page, running.url);
		await shootPayoutRun(page, running.url, n8n.outputDir);
	} finally {
		await browser?.close();
		rmSync(profile, { recursive: true, force: true });
		await running?.stop();
		await devnet.stop();
	}
}

function launchBrowser(puppeteer: Puppeteer, profile: string): Promise<Browser> {
	return puppeteer.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--no-first-run',
			`--user-data-dir=${profile}`,
		],
		defaultViewport: { width: 1440, height: 860, deviceScaleFactor: 1 },
	});
}

/** Logs in as the owner on the sign-in page of the n8n at `url`. */
async function signIn(page: Page, url: string): Promise<void> {
	await page.goto(`${url}/signin`, { waitUntil: 'networkidle2', timeout: 90_000 });
	await page.waitForSelector('input[type="email"]', { timeout: 60_000 });
	await page.type('input[type="email"]', OWNER.email);
	await page.type('input[type="password"]', OWNER.password);
	await page.keyboard.press('Enter');
	await page.waitForFunction("!location.pathname.startsWith('/signin')", { timeout: 30_000 });
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function dismissPopups(page: Page): Promise<void> {
	await page.keyboard.press('Escape');
	await settle(300);
}

/** The canvas: the treasury report with its Sheets and Slack ends. */
async function shootTreasuryWorkflow(page: Page, url: string): Promise<void> {
	await page.goto(`${url}/workflow/expandTreasuryReport`, {
		waitUntil: 'networkidle2',
		timeout: 60_000,
	});
	await page.waitForSelector('[data-test-id="canvas-node"]', { timeout: 60_000 });
	await dismissPopups(page);
	await page.keyboard.press('1'); // zoom to fit
	await settle(1500);
	await page.screenshot({ path: path.join(IMAGES, 'treasury-workflow.png') as `${string}.png` });
	log('saved docs/images/treasury-workflow.png');
}

/** The Expand node's read and write forms and the Expand Trigger's, in a viewport tall enough for a whole form. */
async function shootNodeForms(page: Page, url: string): Promise<void> {
	await page.setViewport({ width: 1440, height: 1400, deviceScaleFactor: 1 });
	await shootNodeForm(
		page,
		url,
		'expandScreenshotForms',
		'Get Balance',
		'expand-node-read.png',
		'balanceFormatted',
	);
	await shootNodeForm(page, url, 'expandScreenshotForms', 'Transfer', 'expand-node-write.png');
	await shootNodeForm(page, url, 'expandUsdcReceived', 'USDC received', 'expand-trigger.png');
}

// The output pane's JSON view (the rightmost "JSON" switch), where nested fields such as query show whole.
const showOutputJson = `[...document.querySelectorAll('*')]
			.filter((element) => element.textContent.trim() === 'JSON' && element.children.length === 0)
			.sort((a, b) => b.getBoundingClientRect().left - a.getBoundingClientRect().left)[0]?.click()`;

/**
 * A node's form: open it on the canvas (double-click) and capture the node details view;
 * `executed` runs the step first and waits for that text in its output.
 */
async function shootNodeForm(
	page: Page,
	url: string,
	workflowId: string,
	nodeName: string,
	file: string,
	executed?: string,
): Promise<void> {
	await page.goto(`${url}/workflow/${workflowId}`, {
		waitUntil: 'networkidle2',
		timeout: 60_000,
	});
	await page.waitForSelector('[data-test-id="canvas-node"]', { timeout: 60_000 });
	await dismissPopups(page);
	const node = await page.waitForSelector(
		`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`,
		{ timeout: 30_000 },
	);
	await node!.click({ count: 2 });
	await page.waitForSelector('[data-test-id="ndv"]', { visible: true, timeout: 30_000 });
	if (executed) {
		const execute = await page.waitForSelector(
			'[data-test-id="ndv"] [data-test-id="node-execute-button"]',
			{ visible: true, timeout: 30_000 },
		);
		await execute!.click();
		await page.waitForFunction(`document.body.innerText.includes(${JSON.stringify(executed)})`, {
			timeout: 60_000,
		});
		await page.evaluate(showOutputJson);
	}
	await settle(1500);
	await page.screenshot({ path: path.join(IMAGES, file) as `${string}.png` });
	log(`saved docs/images/${file}`);
}

/**
 * The payout run as the README tells a new user to run it: Execute workflow in the editor, then the
 * approval link from payout-approval.json; the image shows the finished run on the canvas, then its
 * "Payout results" step.
 */
async function shootPayoutRun(page: Page, url: string, outputDir: string): Promise<void> {
	// Wide and low: the run is one long row of nodes, and zoom to fit then draws them large enough to read.
	await page.setViewport({ width: 2200, height: 760, deviceScaleFactor: 1 });
	await page.goto(`${url}/workflow/expandPayoutRunDevnet`, {
		waitUntil: 'networkidle2',
		timeout: 60_000,
	});
	await page.waitForSelector('[data-test-id="canvas-node"]', { timeout: 60_000 });
	await dismissPopups(page);
	const result = await executePayoutRun(page, outputDir);
	await page.waitForFunction(`!document.querySelector('[data-test-id="stop-execution-button"]')`, {
		timeout: 60_000,
	});
	await page.keyboard.press('1');
	await settle(1500);
	await page.screenshot({ path: path.join(IMAGES, 'payout-run.png') as `${string}.png` });
	log('saved docs/images/payout-run.png');
	await shootPayoutResults(page, result);
}

/** Runs the payout run from the editor's Execute workflow button, approves it, and checks every row was paid. */
async function executePayoutRun(page: Page, outputDir: string): Promise<PayoutRunResult> {
	const executeWorkflow = await page.waitForSelector('[data-test-id="execute-workflow-button"]', {
		visible: true,
		timeout: 30_000,
	});
	const { result } = await runPayoutRun(
		(name) => path.join(outputDir, name),
		() => executeWorkflow!.click(),
		'approve',
	);
	const unpaid = result.rows.filter((row) => row.status !== 'paid');
	if (!result.approved || unpaid.length > 0)
		throw new Error(
			`The payout run executed in the editor did not pay every row: ${JSON.stringify(result)}`,
		);
	log(
		`payout run from the editor: ${result.rows.map((row) => `row ${row.rowId} ${row.status} ${row.transactionHash}`).join('; ')}`,
	);
	return result;
}

/** What the run writes back, in the output of its "Payout results" step. */
async function shootPayoutResults(page: Page, result: PayoutRunResult): Promise<void> {
	await page.setViewport({ width: 1440, height: 860, deviceScaleFactor: 1 });
	const results = await page.waitForSelector(
		'[data-test-id="canvas-node"][data-node-name="Payout results"]',
		{ timeout: 30_000 },
	);
	await results!.click({ count: 2 });
	await page.waitForSelector('[data-test-id="ndv"]', { visible: true, timeout: 30_000 });
	await page.waitForFunction(
		`document.body.innerText.includes(${JSON.stringify(result.rows[0].transactionHash.slice(0, 12))})`,
		{ timeout: 30_000 },
	);
	await settle(1500);
	await page.screenshot({ path: path.join(IMAGES, 'payout-run-results.png') as `${string}.png` });
	log('saved docs/images/payout-run-results.png');
}

main()
	.then(() => process.exit(0))
	.catch((error) => {
		console.error(error);
		process.exit(1);
	});
