#!/usr/bin/env node
// Caches Shopify's Admin GraphQL schema (introspection JSON, API 2026-10) at
// .cache/shopify/admin_2026-10.json.gz for offline validation of our documents.
// The schema ships inside the npm package @shopify/dev-mcp; we `npm pack` it and extract the one
// file we need. Installing the package would pull in the Shopify CLI, so we never do.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const PACKAGE = '@shopify/dev-mcp@1.16.0';
const FILE_IN_TARBALL = 'package/dist/data/admin_2026-10.json.gz';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SCHEMA_CACHE = join(root, '.cache', 'shopify', 'admin_2026-10.json.gz');

function run(command, args) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    shell: process.platform === 'win32',
    timeout: 300_000,
  });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (exit ${result.status}):\n${result.stderr}`,
    );
  }
  return result.stdout;
}

/** Throws unless the file is a gzipped introspection result. */
function checkSchemaFile(file) {
  const json = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8'));
  const schema = json.data?.__schema ?? json.__schema;
  if (!schema?.types?.length) throw new Error(`${file} holds no GraphQL introspection schema`);
}

function fetchSchema() {
  const work = mkdtempSync(join(tmpdir(), 'admin-schema-'));
  try {
    run('npm', ['pack', PACKAGE, '--pack-destination', work, '--ignore-scripts', '--silent']);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${PACKAGE} produced no tarball`);
    run('tar', ['-xzf', join(work, tarball), '-C', work, FILE_IN_TARBALL]);
    const extracted = join(work, FILE_IN_TARBALL);
    checkSchemaFile(extracted);
    mkdirSync(dirname(SCHEMA_CACHE), { recursive: true });
    // Copy next to the target, then rename: a reader never sees half a file.
    const partial = `${SCHEMA_CACHE}.partial`;
    copyFileSync(extracted, partial);
    renameSync(partial, SCHEMA_CACHE);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (existsSync(SCHEMA_CACHE)) {
  console.log(`Admin schema already cached at ${SCHEMA_CACHE}`);
} else {
  try {
    fetchSchema();
    console.log(`Cached the Admin schema at ${SCHEMA_CACHE}`);
  } catch (error) {
    console.error(`Could not obtain the Admin GraphQL schema from ${PACKAGE}: ${error.message}`);
    process.exit(1);
  }
}
