import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from 'graphql';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SCHEMA_FILE = `${root}.cache/shopify/admin_2026-10.json.gz`;
const FETCH_SCRIPT = `${root}scripts/fetch-admin-schema.mjs`;

/**
 * Shopify's real Admin GraphQL schema (2026-10), fetched into .cache on first use. No schema
 * means failure, never a skip. Slow to build: call it once per file, in beforeAll.
 */
export function loadRealSchema(): GraphQLSchema {
  return buildClientSchema(loadRealIntrospection());
}

/**
 * The introspection result itself: it carries what buildClientSchema drops, such as each
 * field's `requiredAccess` (the scopes that give access to it).
 */
export function loadRealIntrospection(): IntrospectionQuery {
  if (!existsSync(SCHEMA_FILE)) {
    try {
      execFileSync(process.execPath, [FETCH_SCRIPT], { stdio: 'pipe', timeout: 240_000 });
    } catch (error) {
      const detail = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
      throw new Error(
        `The real Admin GraphQL schema is needed to validate our documents and could not be obtained.\nRun \`node scripts/fetch-admin-schema.mjs\` (needs npm registry access) and see why:\n${detail}`,
      );
    }
  }
  const json = JSON.parse(gunzipSync(readFileSync(SCHEMA_FILE)).toString('utf8'));
  // The file holds a full introspection response ({data: {__schema}}); accept a bare one too.
  return (json.data ?? json) as IntrospectionQuery;
}
