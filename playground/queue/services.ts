/**
 * PostgreSQL and Redis for n8n's queue mode, from the operating system's packages (Debian/Ubuntu:
 * `postgresql`, `redis-server`), run as real servers on 127.0.0.1 with their data under
 * `.cache/queue/`. Installed once (apt-get as root); a machine that has them skips apt entirely.
 */
import {
	chmodSync,
	chownSync,
	existsSync,
	mkdirSync,
	readdirSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import * as path from 'node:path';

import { ROOT } from '../paths';
import { log, run, startProcess, type StartedProcess } from '../proc';

/** Data of the queue-mode servers (git-ignored); EXPAND_QUEUE_HOME moves it. */
export const QUEUE_CACHE = process.env.EXPAND_QUEUE_HOME ?? path.join(ROOT, '.cache', 'queue');

export interface ServicePorts {
	postgres: number;
	redis: number;
}

const POSTGRES_USER = 'postgres';

/** The newest PostgreSQL server binaries the Debian packages installed (`/usr/lib/postgresql/<major>/bin`). */
export function postgresBin(): string | undefined {
	const base = '/usr/lib/postgresql';
	if (!existsSync(base)) return undefined;
	const majors = readdirSync(base)
		.filter((name) => existsSync(path.join(base, name, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? path.join(base, majors[0], 'bin') : undefined;
}

function redisBin(): string | undefined {
	return ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((file) => existsSync(file));
}

/** Installs PostgreSQL and Redis with apt-get when either is missing (fresh machine only). */
export async function ensureServicePackages(): Promise<{
	postgresBin: string;
	redisServer: string;
}> {
	if (!postgresBin() || !redisBin()) {
		if (process.getuid?.() !== 0)
			throw new Error(
				'PostgreSQL or Redis is missing: run as root once, or `apt-get install -y postgresql redis-server`',
			);
		const started = Date.now();
		log('Installing PostgreSQL and Redis from the Debian packages (first run only)...');
		const env = { DEBIAN_FRONTEND: 'noninteractive' };
		await run('apt-get', ['update', '-q'], { capture: true, env });
		// policy-rc.d-free container: the packages' own services are not used (the cluster below is ours).
		await run(
			'apt-get',
			['install', '-y', '-q', '--no-install-recommends', 'postgresql', 'redis-server'],
			{ capture: true, env, timeoutMs: 600_000 },
		);
		log(`PostgreSQL and Redis installed in ${Math.round((Date.now() - started) / 1000)} s`);
	}
	const pg = postgresBin();
	const redis = redisBin();
	if (!pg || !redis) throw new Error('apt-get did not install PostgreSQL and Redis');
	return { postgresBin: pg, redisServer: redis };
}

/** Runs a command as the postgres user when we are root (PostgreSQL refuses to run as root). */
function asPostgres(command: string, args: string[]): [string, string[]] {
	return process.getuid?.() === 0
		? ['runuser', ['-u', POSTGRES_USER, '--', command, ...args]]
		: [command, args];
}

export interface RunningServices {
	ports: ServicePorts;
	postgres: StartedProcess;
	redis: StartedProcess;
	/** Runs SQL in a database through psql; returns its unaligned, tab-separated rows. */
	sql(database: string, query: string): Promise<string[][]>;
	/** Drops and creates an empty database owned by the postgres user. */
	freshDatabase(name: string): Promise<void>;
	stop(): Promise<void>;
}

async function waitUntil(
	what: string,
	probe: () => Promise<boolean>,
	exited: () => number | undefined,
	timeoutMs = 30_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (exited() !== undefined) throw new Error(`${what} exited with ${exited()}`);
		if (await probe().catch(() => false)) return;
		if (Date.now() > deadline)
			throw new Error(`${what} did not start within ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/**
 * Starts PostgreSQL (a cluster under `.cache/queue/<name>/postgres`, created on first use, trust
 * authentication, listening on 127.0.0.1 only) and Redis (no persistence) on the given ports.
 */
export async function startServices(
	ports: ServicePorts,
	options: { name: string; onOutput?: (name: string, chunk: Buffer) => void },
): Promise<RunningServices> {
	const bins = await ensureServicePackages();
	const dirs = makeServiceDirs(options.name);
	const postgresIds = await postgresUserIds();
	await ensurePostgresCluster(bins.postgresBin, dirs.pgData, postgresIds);
	if (postgresIds) grantPostgresFolders(dirs, postgresIds);
	// A stale pid file of a killed server would stop the next start.
	const pidFile = path.join(dirs.pgData, 'postmaster.pid');
	if (existsSync(pidFile)) rmSync(pidFile);

	const output = (name: string) => (chunk: Buffer) => options.onOutput?.(name, chunk);
	const postgres = startPostgres(bins.postgresBin, dirs, ports.postgres, output('postgres'));
	const redis = startRedis(bins.redisServer, dirs.redisDir, ports.redis, output('redis'));

	const psql = (database: string, query: string) => runPsql(ports.postgres, database, query);
	const stop = () => stopServices(postgres, redis);
	try {
		await waitForServices(ports, psql, postgres, redis);
	} catch (error) {
		await stop();
		throw error;
	}
	return {
		ports,
		postgres,
		redis,
		async sql(database, query) {
			const { stdout } = await psql(database, query);
			return stdout
				.split('\n')
				.filter((line) => line !== '')
				.map((line) => line.split('\t'));
		},
		async freshDatabase(name) {
			await psql('postgres', `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
			await psql('postgres', `CREATE DATABASE "${name}"`);
		},
		stop,
	};
}

interface ServiceDirs {
	home: string;
	pgData: string;
	pgSocket: string;
	redisDir: string;
}

/** The services' folders under QUEUE_CACHE/<name>; all but PostgreSQL's data folder are created here. */
function makeServiceDirs(name: string): ServiceDirs {
	const home = path.join(QUEUE_CACHE, name);
	const pgData = path.join(home, 'postgres');
	const pgSocket = path.join(home, 'postgres-socket');
	const redisDir = path.join(home, 'redis');
	mkdirSync(home, { recursive: true });
	for (const dir of [redisDir, pgSocket]) mkdirSync(dir, { recursive: true });
	return { home, pgData, pgSocket, redisDir };
}

/** The postgres user's uid and gid when we are root; undefined otherwise. */
async function postgresUserIds(): Promise<number[] | undefined> {
	const asRoot = process.getuid?.() === 0;
	return asRoot
		? await run('id', ['-u', POSTGRES_USER], { capture: true }).then(async ({ stdout }) => [
				Number(stdout),
				Number((await run('id', ['-g', POSTGRES_USER], { capture: true })).stdout),
			])
		: undefined;
}

/** Creates the PostgreSQL cluster in `pgData` unless one is there. */
async function ensurePostgresCluster(
	postgresBin: string,
	pgData: string,
	postgresIds: number[] | undefined,
): Promise<void> {
	if (existsSync(path.join(pgData, 'PG_VERSION'))) return;
	rmSync(pgData, { recursive: true, force: true });
	mkdirSync(pgData, { recursive: true });
	if (postgresIds) chownSync(pgData, postgresIds[0], postgresIds[1]);
	chmodSync(pgData, 0o700);
	log(`Creating a PostgreSQL cluster in ${pgData}...`);
	await run(
		...asPostgres(path.join(postgresBin, 'initdb'), [
			'-D',
			pgData,
			'--username',
			POSTGRES_USER,
			'--auth',
			'trust',
			'--encoding',
			'UTF8',
			'--no-sync',
		]),
		{ capture: true },
	);
}

function grantPostgresFolders(dirs: ServiceDirs, postgresIds: number[]): void {
	chownSync(dirs.pgSocket, postgresIds[0], postgresIds[1]);
	// The postgres user reaches its folders through these (their parents are the checkout's).
	for (const dir of [QUEUE_CACHE, dirs.home]) chmodSync(dir, 0o755);
}

function startPostgres(
	postgresBin: string,
	dirs: ServiceDirs,
	port: number,
	onOutput: (chunk: Buffer) => void,
): StartedProcess {
	return startProcess(
		...asPostgres(path.join(postgresBin, 'postgres'), [
			'-D',
			dirs.pgData,
			'-c',
			`port=${port}`,
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			`unix_socket_directories=${dirs.pgSocket}`,
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
			'-c',
			'max_connections=100',
		]),
		{ onOutput },
	);
}

function startRedis(
	redisServer: string,
	redisDir: string,
	port: number,
	onOutput: (chunk: Buffer) => void,
): StartedProcess {
	const redisConfig = path.join(redisDir, 'redis.conf');
	writeFileSync(redisConfig, '# settings are on the command line (playground/queue/services.ts)\n');
	return startProcess(
		redisServer,
		[
			redisConfig,
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--dir',
			redisDir,
			'--save',
			'',
			'--appendonly',
			'no',
			'--daemonize',
			'no',
			'--protected-mode',
			'yes',
			'--loglevel',
			'warning',
		],
		{ onOutput },
	);
}

function runPsql(port: number, database: string, query: string) {
	return run(
		'psql',
		[
			'-h',
			'127.0.0.1',
			'-p',
			String(port),
			'-U',
			POSTGRES_USER,
			'-d',
			database,
			'-X',
			'-q',
			'-A',
			'-t',
			'-F',
			'\t',
			'-v',
			'ON_ERROR_STOP=1',
			'-c',
			query,
		],
		{ capture: true },
	);
}

async function stopServices(postgres: StartedProcess, redis: StartedProcess): Promise<void> {
	// SIGTERM is PostgreSQL's "smart" shutdown, which waits for clients; SIGINT ("fast") does not.
	if (postgres.exitCode() === undefined && postgres.process.pid) {
		try {
			process.kill(-postgres.process.pid, 'SIGINT');
		} catch {
			// gone
		}
	}
	await Promise.all([postgres.stop(15_000), redis.stop(5_000)]);
}

async function waitForServices(
	ports: ServicePorts,
	psql: (database: string, query: string) => ReturnType<typeof runPsql>,
	postgres: StartedProcess,
	redis: StartedProcess,
): Promise<void> {
	await waitUntil(
		'PostgreSQL',
		async () => (await psql('postgres', 'SELECT 1')).stdout.trim() === '1',
		() => postgres.exitCode(),
	);
	await waitUntil(
		'Redis',
		async () =>
			(
				await run('redis-cli', ['-h', '127.0.0.1', '-p', String(ports.redis), 'ping'], {
					capture: true,
				})
			).stdout.trim() === 'PONG',
		() => redis.exitCode(),
	);
}
