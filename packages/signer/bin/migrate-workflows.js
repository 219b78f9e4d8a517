#!/usr/bin/env node
/*
 * expand-migrate-workflows <file or folder>...
 *
 * Rewrites saved n8n workflows for the package split of release 0.2.0: Expand Signer moved from
 * n8n-nodes-expand-network into this package, so its node type changed. Reads what
 * `n8n export:workflow` writes (one workflow, a list of workflows, or with --separate a folder of
 * files), renames the node types in place and says what it changed. Everything else is kept; a
 * second run changes nothing.
 *
 *   n8n export:workflow --all --output=workflows.json
 *   npx -p n8n-nodes-expand-network-signer expand-migrate-workflows workflows.json
 *   n8n import:workflow --input=workflows.json
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');

/** Node types that moved to another package: old name to new. */
const renamedNodeTypes = {
	'n8n-nodes-expand-network.expandSigner': 'n8n-nodes-expand-network-signer.expandSigner',
};

/**
 * Renames the node types inside a parsed export (nodes anywhere in it, such as a published
 * version's copy). Returns the names of the nodes renamed.
 */
function migrateWorkflows(value, renamed = []) {
	if (Array.isArray(value)) {
		for (const entry of value) migrateWorkflows(entry, renamed);
	} else if (value !== null && typeof value === 'object') {
		if (Array.isArray(value.nodes)) {
			for (const node of value.nodes) {
				const type = node && typeof node === 'object' ? renamedNodeTypes[node.type] : undefined;
				if (type) {
					node.type = type;
					renamed.push(`${value.name ?? value.id ?? 'workflow'} → ${node.name}`);
				}
			}
		}
		for (const [key, entry] of Object.entries(value))
			if (key !== 'nodes') migrateWorkflows(entry, renamed);
	}
	return renamed;
}

function filesOf(target) {
	const stat = fs.statSync(target);
	if (!stat.isDirectory()) return [target];
	return fs
		.readdirSync(target)
		.filter((name) => name.endsWith('.json'))
		.map((name) => path.join(target, name));
}

/** Migrates one file in place; returns the nodes renamed. */
function migrateFile(file) {
	const text = fs.readFileSync(file, 'utf8');
	let parsed;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw new Error(
			`${file} is not JSON (${error.message}): give a file written by n8n export:workflow`,
		);
	}
	const renamed = migrateWorkflows(parsed);
	if (renamed.length)
		fs.writeFileSync(
			file,
			JSON.stringify(parsed, null, /^\s*[[{]\s*\n(\s+)/.exec(text)?.[1] ?? 0) +
				(text.endsWith('\n') ? '\n' : ''),
		);
	return renamed;
}

function main(targets) {
	if (targets.length === 0) {
		console.error(
			'usage: expand-migrate-workflows <file or folder>... (what n8n export:workflow wrote)',
		);
		return 2;
	}
	let total = 0;
	for (const target of targets) {
		for (const file of filesOf(target)) {
			const renamed = migrateFile(file);
			total += renamed.length;
			console.log(
				renamed.length
					? `${file}: ${renamed.length} Expand Signer node(s) moved to ${Object.values(renamedNodeTypes).join(', ')}: ${renamed.join('; ')}`
					: `${file}: nothing to change`,
			);
		}
	}
	console.log(`${total} node(s) renamed`);
	return 0;
}

if (require.main === module) {
	try {
		process.exitCode = main(process.argv.slice(2));
	} catch (error) {
		console.error(error.message);
		process.exitCode = 1;
	}
}

module.exports = { renamedNodeTypes, migrateWorkflows };
