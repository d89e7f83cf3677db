/**
 * Import boundaries, checked by `npm run lint` with dependency-cruiser: each side of the connector
 * (the partner client, the Shopify client, the pure domain rules, the jobs, the sandboxes) can be
 * read, tested and changed without the others, and the process that runs one side of
 * `connector start` loads only that side. Each rule's comment says what it keeps apart.
 * Paths are relative to the directory depcruise runs in: the repository root, or a fixture tree
 * laid out like it (test/lint/boundaries.test.ts runs these same rules on one).
 */

/** The only files in src/ that may wire jobs in: the service and the one builder of shared parts. */
const COMPOSITION_ROOT = '^src/(service\\.ts$|compose/)';

/** What only one side of `connector start` needs: the clients and workers, the HTTP server. */
const SIDES =
  '^src/(compose/(worker-side|http-side|clients|workers)|server/app|store/(client|index|shopify)|partner/client)\\.ts$';

/** Node built-ins that reach outside the process. */
const NODE_IO = '^(node:)?(fs|net|http|https|http2|tls|dgram|dns|child_process)(/|$)';

/** Packages that talk to Redis, HTTP or Shopify. node_modules may be a symlink, hence no ^. */
const IO_PACKAGES = '(^|/)node_modules/(ioredis|bullmq|got|fastify|@fastify/[^/]+|@shopify/[^/]+)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'partner-not-to-store',
      comment: 'The Partner API client knows nothing of Shopify.',
      severity: 'error',
      from: { path: '^src/partner/' },
      to: { path: '^src/store/' },
    },
    {
      name: 'store-not-to-partner',
      comment: 'The Shopify side knows nothing of the partner.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/partner/' },
    },
    {
      name: 'domain-no-io',
      comment: 'src/domain/ is pure rules: no file, network, Redis, HTTP or Shopify I/O.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: [NODE_IO, IO_PACKAGES] },
    },
    {
      name: 'domain-not-to-clients',
      comment: 'src/domain/ takes plain data; it imports neither client.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/(partner|store)/' },
    },
    {
      name: 'jobs-only-in-composition-root',
      comment:
        'src/ reaches jobs/ only through the composition root (src/service.ts, src/compose/).',
      severity: 'error',
      from: { path: '^src/', pathNot: COMPOSITION_ROOT },
      to: { path: '^jobs/' },
    },
    {
      name: 'sandbox-no-runtime-client-code',
      comment:
        'The sandboxes stand in for the outside world: they share no run-time code with the clients ' +
        '(type-only imports are fine).',
      severity: 'error',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/(partner|store)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-sandbox',
      comment:
        'Production code never depends on the sandboxes; only tests, src/cli and src/demo may.',
      severity: 'error',
      from: { path: '^(src/partner|src/store|src/domain|jobs|config)/' },
      to: { path: '^src/sandbox/' },
    },
    {
      name: 'sides-where-they-run',
      comment:
        "connector start's composition root and threads import the workers' side (Shopify and " +
        'partner clients, job processors) and the HTTP side (Fastify, Bull Board) dynamically, ' +
        'each only where it runs, so that each thread loads what it needs (bench/RESULTS.md, ' +
        '"Redis footprint"). Type-only imports are fine.',
      severity: 'error',
      from: { path: '^src/(service|workers-thread|workers-thread-entry|cli/(main|start))\\.ts$' },
      to: {
        path: SIDES,
        dependencyTypesNot: ['dynamic-import', 'type-only'],
      },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles between modules.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import the checker cannot resolve would slip past every rule above.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Also see `import type`: the rules above apply to types too, except where they say otherwise.
    tsPreCompilationDeps: true,
    // package.json "exports" and the conditions Node uses, so packages resolve as at run time.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
