import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The Dockerfile and .dockerignore, checked without a Docker engine: the image is laid out as
 * the Dockerfile says (package.json, node_modules, dist/) in a temporary directory, built with
 * the same tsc project as `npm run build`, and its CMD and health checks are run for real.
 */

const run = promisify(execFile);
const ROOT = process.cwd();
const BIN = JSON.parse(readFileSync('package.json', 'utf8')).bin.connector as string;

interface Instruction {
  keyword: string;
  args: string;
}

/** Instructions per stage, continuation lines joined, comments dropped. */
function dockerfileStages(text: string) {
  const lines = text
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const args = new Map<string, string>();
  const stages: { image: string; name?: string; instructions: Instruction[] }[] = [];
  for (const line of lines) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const argsText = rest.join(' ');
    if (keyword === 'ARG' && stages.length === 0) {
      const [name = '', value = ''] = argsText.split('=');
      args.set(name, value);
    } else if (keyword === 'FROM') {
      const [image = '', , name] = argsText.split(/\s+/);
      stages.push({
        image: image.replace(/\$\{(\w+)\}/g, (_, v: string) => args.get(v) ?? ''),
        name,
        instructions: [],
      });
    } else {
      stages.at(-1)?.instructions.push({ keyword, args: argsText });
    }
  }
  return stages;
}

const stages = dockerfileStages(readFileSync('Dockerfile', 'utf8'));
const runtime = stages.at(-1)!;
const find = (keyword: string) => runtime.instructions.filter((i) => i.keyword === keyword);
const execForm = (instruction: Instruction | undefined) =>
  JSON.parse(instruction?.args.replace(/^CMD\s+/, '') ?? 'null') as string[];

describe('Dockerfile', () => {
  it('builds in one stage and runs as a non-root user on a slim Node 20 or 22 in another', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.image).toMatch(/^node:(20|22)(\.\d+)*-slim$/);

    const build = stages.find((s) => s.instructions.some((i) => i.args.includes('npm run build')));
    expect(build, 'a stage runs npm run build').toBeDefined();
    expect(build!.instructions.some((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args))).toBe(
      true,
    );
    expect(build).not.toBe(runtime);

    const user = find('USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user!.split(':')[0]);
  });

  it('runs the same file as the package bin and `npm start`: dist/src/cli/main.js start', () => {
    const cmd = execForm(find('CMD').at(-1));
    expect(cmd).toEqual(['node', BIN, 'start']);
    expect(BIN).toBe('dist/src/cli/main.js');
    expect(JSON.parse(readFileSync('package.json', 'utf8')).scripts.start).toBe(
      `node ${BIN} start`,
    );
  });

  it('copies into the build only paths that exist, and package.json into the runtime', () => {
    for (const stage of stages) {
      for (const copy of stage.instructions.filter((i) => i.keyword === 'COPY')) {
        if (copy.args.includes('--from=')) continue;
        const sources = copy.args.split(/\s+/).slice(0, -1);
        for (const source of sources) expect(existsSync(source), source).toBe(true);
      }
    }
    // "type": "module" lives there: without it Node cannot load dist/ as ES modules.
    expect(find('COPY').some((c) => /\bpackage\.json\b/.test(c.args))).toBe(true);
    expect(find('COPY').some((c) => /\bdist\b/.test(c.args))).toBe(true);
    expect(find('COPY').some((c) => /\bnode_modules\b/.test(c.args))).toBe(true);
  });

  it('checks health against /readyz', () => {
    const check = find('HEALTHCHECK').at(-1)?.args ?? '';
    expect(check).toContain('/readyz');
    expect(check).not.toContain('/status');
  });
});

describe('.dockerignore', () => {
  const patterns = readFileSync('.dockerignore', 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));

  /** Docker's rule: the last pattern that matches decides; `!` re-includes. */
  function ignored(path: string): boolean {
    let result = false;
    for (const raw of patterns) {
      const negated = raw.startsWith('!');
      const pattern = (negated ? raw.slice(1) : raw).replace(/\/$/, '');
      const regex = new RegExp(
        `^${pattern
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*\*/g, '<globstar>')
          .replace(/\*/g, '[^/]*')
          .replace(/<globstar>/g, '.*')}(/.*)?$`,
      );
      if (regex.test(path)) result = !negated;
    }
    return result;
  }

  it('keeps secrets and local state out of the build context', () => {
    for (const path of ['.env', '.env.production', 'node_modules', 'dist', '.git', 'test']) {
      expect(ignored(path), path).toBe(true);
    }
  });

  it('lets in everything the Dockerfile copies', () => {
    for (const stage of stages) {
      for (const copy of stage.instructions.filter((i) => i.keyword === 'COPY')) {
        if (copy.args.includes('--from=')) continue;
        for (const source of copy.args.split(/\s+/).slice(0, -1)) {
          expect(ignored(source.replace(/^\.\//, '')), source).toBe(false);
          if (statSync(source).isDirectory()) {
            expect(ignored(`${source}/some/file.ts`), `${source}/…`).toBe(false);
          }
        }
      }
    }
  });
});

describe('the image layout, built with tsconfig.build.json', () => {
  let app: string;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    // As the runtime stage has it: /app/package.json, /app/node_modules, /app/dist.
    app = mkdtempSync(join(tmpdir(), 'connector-image-'));
    cpSync('package.json', join(app, 'package.json'));
    symlinkSync(resolve(ROOT, 'node_modules'), join(app, 'node_modules'), 'dir');
    const tsc = resolve(ROOT, 'node_modules/typescript/bin/tsc');
    await run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', join(app, 'dist')], {
      cwd: ROOT,
    });
  }, 120_000);

  afterAll(() => {
    if (app) rmSync(app, { recursive: true, force: true });
  });

  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    child = undefined;
  });

  it('produces the CMD file, and it starts and reports a missing configuration', async () => {
    const [node, file = '', ...args] = execForm(find('CMD').at(-1));
    expect(node).toBe('node');
    expect(existsSync(join(app, file)), file).toBe(true);
    // Without configuration `start` must say what is missing and exit with EX_CONFIG (78).
    const result = await run(process.execPath, [file, ...args], {
      cwd: app,
      env: { PATH: process.env.PATH },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(78);
    expect(result.stderr).toContain('Configuration is invalid');
    expect(result.stderr).toContain('PARTNER_API_TOKEN is required');
  }, 30_000);

  it('runs the sandbox profile commands from dist/, fixtures included', async () => {
    const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true });
    for (const [name, ready] of [
      ['sandbox', 'Partner sandbox listening'],
      ['fake-store', 'Orders: 5550001 #1001'],
    ] as const) {
      const args = [...(compose.services[name].command as string[])];
      // The same arguments, on a free loopback port instead of the container's.
      args[args.indexOf('--port') + 1] = '0';
      args[args.indexOf('--host') + 1] = '127.0.0.1';
      expect(args[1]).toBe(BIN);
      const proc = spawn(process.execPath, args.slice(1), {
        cwd: app,
        env: { PATH: process.env.PATH, LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = proc;
      let output = '';
      proc.stdout.on('data', (chunk) => {
        output += chunk;
      });
      proc.stderr.on('data', (chunk) => {
        output += chunk;
      });
      const deadline = Date.now() + 15_000;
      while (!output.includes(ready) && proc.exitCode === null && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(output, name).toContain(ready);
      proc.kill('SIGTERM');
      const [code] = await once(proc, 'exit');
      expect(code, `${name} closes cleanly on SIGTERM`).toBe(0);
    }
  }, 40_000);
});

describe('the health checks', () => {
  let server: Server;
  let answer = 200;
  let port: number;

  beforeAll(async () => {
    // As src/server/health-routes.ts answers: /readyz 503 while Redis is down; /status/partner
    // 503 here throughout, as while the provider refuses the token.
    server = createServer((request, response) => {
      response.statusCode =
        request.url === '/readyz' ? answer : request.url === '/status/partner' ? 503 : 404;
      response.end(JSON.stringify({ status: answer === 200 ? 'ready' : 'unavailable' }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((done) => server.close(done)));

  const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true });
  const checks = {
    Dockerfile: (() => {
      const args = find('HEALTHCHECK').at(-1)!.args;
      return JSON.parse(args.slice(args.indexOf('CMD') + 3).trim()) as string[];
    })(),
    'compose connector': (compose.services.connector.healthcheck.test as string[]).slice(1),
  };

  /** Runs a check's command as Docker would (exec form), with PORT as the container has it. */
  async function exitCode(command: string[], env: Record<string, string>): Promise<number> {
    expect(command[0]).toBe('node');
    return run(process.execPath, command.slice(1), {
      env: { PATH: process.env.PATH, ...env },
    }).then(
      () => 0,
      (error: { code: number }) => error.code,
    );
  }

  for (const [where, command] of Object.entries(checks)) {
    it(`${where}: healthy while /readyz answers 2xx, though /status/partner says the token is refused`, async () => {
      answer = 200;
      expect(await exitCode(command, { PORT: String(port) })).toBe(0);
      answer = 503;
      expect(await exitCode(command, { PORT: String(port) })).toBe(1);
      server.closeAllConnections();
      // Nothing listening: unhealthy, not a hang.
      expect(await exitCode(command, { PORT: '1' })).toBe(1);
    }, 20_000);
  }
});
