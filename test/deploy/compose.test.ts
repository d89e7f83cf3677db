import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  adminSurfaceProblems,
  ConfigError,
  loadConfig,
  variableNames,
} from '../../config/index.js';

/**
 * docker-compose.yml checked against the code it runs. There is no Docker engine here, so this
 * asserts what would break a `docker compose up`: commands the CLI does not have, variables the
 * config does not know, required settings nobody provides, a sandbox profile that cannot talk to
 * the connector.
 */

interface Service {
  image?: string;
  build?: string | { context: string };
  command?: string[];
  environment?: Record<string, string>;
  env_file?: string | string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  restart?: string;
  profiles?: string[];
  volumes?: string[];
  healthcheck?: { test?: string[]; disable?: boolean };
}

const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
};
const services = compose.services;
const deploymentDoc = readFileSync('docs/deployment.md', 'utf8');
const envExample = readFileSync('.env.example', 'utf8');
const BIN = JSON.parse(readFileSync('package.json', 'utf8')).bin.connector as string;

/** Services that run the connector's image (everything but Redis). */
const connectorImageServices = Object.entries(services).filter(([name]) => name !== 'redis');

/** Every `register…Command` the CLI modules export, as src/cli/main.ts uses them. */
async function registerFunctions(): Promise<Map<string, (program: Command) => void>> {
  const found = new Map<string, (program: Command) => void>();
  for (const file of readdirSync('src/cli').filter((f) => f.endsWith('.ts') && f !== 'main.ts')) {
    const url = pathToFileURL(resolve('src/cli', file)).href;
    const module = (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (/^register\w+Command$/.test(name) && typeof value === 'function') {
        found.set(name, value as (program: Command) => void);
      }
    }
  }
  return found;
}

/** The real command definitions, with actions replaced so parsing starts nothing. */
async function cliProgram(): Promise<Command> {
  const program = new Command().exitOverride();
  for (const register of (await registerFunctions()).values()) register(program);
  for (const command of program.commands) {
    command.exitOverride();
    command.configureOutput({ writeOut: () => {}, writeErr: () => {} });
    command.action(() => {});
  }
  return program;
}

/** The arguments after `node dist/src/cli/main.js`, checked to be exactly that prefix. */
function cliArgs(service: Service): string[] {
  const command = service.command ?? [];
  expect(command.slice(0, 2)).toEqual(['node', BIN]);
  return command.slice(2);
}

function flagValue(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

/** Variable names the config reports missing when given nothing at all. */
function requiredVariables(): string[] {
  try {
    loadConfig({});
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return [
      ...new Set(error.problems.map((p) => /^([A-Z][A-Z0-9_]*) is required/.exec(p)?.[1])),
    ].filter((name): name is string => name !== undefined);
  }
  throw new Error('loadConfig({}) accepted an empty environment');
}

describe('docker-compose.yml', () => {
  it('has redis with persistence, the connector, an optional worker and the sandbox profile', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['connector', 'fake-store', 'redis', 'sandbox', 'worker'].sort(),
    );

    const redis = services.redis!;
    expect(redis.image).toBe('redis:7-alpine');
    const redisArgs = redis.command!.join(' ');
    expect(redisArgs).toContain('--appendonly yes');
    // Eviction would silently drop queued jobs and order records.
    expect(redisArgs).toContain('--maxmemory-policy noeviction');
    const volume = redis.volumes?.find((v) => v.endsWith(':/data'))?.split(':')[0];
    expect(volume, 'the append-only file lives on a named volume').toBeDefined();
    expect(compose.volumes).toHaveProperty(volume!);
    expect(redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);

    expect(services.worker!.profiles).toEqual(['workers']);
    expect(services.sandbox!.profiles).toEqual(['sandbox']);
    expect(services['fake-store']!.profiles).toEqual(['sandbox']);
    expect(services.connector!.profiles).toBeUndefined();
  });

  it('runs the connector from the image on port 3000 with Redis from compose and secrets from .env', () => {
    const connector = services.connector!;
    expect(connector.build).toBe('.');
    expect(connector.env_file).toBe('.env');
    expect(connector.environment?.REDIS_URL).toBe('redis://redis:6379');
    expect(connector.ports).toContain('3000:3000');
    expect(connector.environment?.PORT ?? '3000').toBe('3000');
    expect(connector.depends_on?.redis?.condition).toBe('service_healthy');
    expect(connector.restart).toBe('unless-stopped');
    expect(connector.healthcheck?.test?.join(' ')).toContain('/readyz');
    expect(cliArgs(connector)).toEqual(['start']);

    const worker = services.worker!;
    expect(cliArgs(worker)).toEqual(['start', '--no-http']);
    expect(worker.env_file).toBe('.env');
    expect(worker.environment?.REDIS_URL).toBe('redis://redis:6379');
    expect(worker.depends_on?.redis?.condition).toBe('service_healthy');
    expect(worker.restart).toBe('unless-stopped');
    // No HTTP server, so the image's /status check would mark it unhealthy for ever.
    expect(worker.healthcheck?.disable).toBe(true);
    expect(worker.ports).toBeUndefined();

    // Every service that runs the code builds the same image, so none pulls a missing one.
    for (const [name, service] of connectorImageServices) {
      expect(service.build, name).toBe('.');
      expect(service.image, name).toBe(connector.image);
    }
  });

  it('publishes only the webhook port beyond the host: /metrics, /status and the board on its loopback', () => {
    const connector = services.connector!;
    const required = {
      PARTNER_API_URL: 'https://partner.example.com/api/v1',
      PARTNER_API_TOKEN: 'tok',
      SHOPIFY_SHOP: 'demo.myshopify.com',
      SHOPIFY_ACCESS_TOKEN: 'shpat_x',
      SHOPIFY_WEBHOOK_SECRET: 'whsec',
      SENDER_NAME: 'Warehouse',
      SENDER_PHONE: '+4511111111',
      SENDER_STREET: 'Lagervej 1',
      SENDER_CITY: 'Kolding',
      SENDER_POSTAL_CODE: '6000',
      SENDER_COUNTRY_CODE: 'DK',
    };
    // What the container sees with a .env holding the required settings only.
    const config = loadConfig({ ...required, ...connector.environment });

    expect(adminSurfaceProblems(config), 'the connector starts on these settings').toEqual([]);
    const admin = config.adminListener;
    expect(admin, 'the admin surface has a listener of its own').toBeDefined();
    expect(connector.ports).toEqual([
      `${config.server.port}:${config.server.port}`,
      `127.0.0.1:${admin!.port}:${admin!.port}`,
    ]);
  });

  it('uses only commands and flags the CLI has, as src/cli/main.ts registers them', async () => {
    const main = readFileSync('src/cli/main.ts', 'utf8');
    for (const name of (await registerFunctions()).keys()) {
      // Each command is loaded from its module when it runs: `(await import('./x.js')).registerX`.
      expect(main, `main.ts registers ${name}`).toContain(`.${name},`);
    }
    for (const [name, service] of connectorImageServices) {
      const args = cliArgs(service);
      const program = await cliProgram();
      expect(
        program.commands.map((c) => c.name()),
        `${name}: ${args[0]}`,
      ).toContain(args[0]);
      // Unknown options, missing required ones and surplus arguments throw here.
      await expect(
        program.parseAsync(args, { from: 'user' }).then(() => 'parsed'),
        `${name}: ${args.join(' ')}`,
      ).resolves.toBe('parsed');
    }
  });

  it('notices a flag the CLI does not have (the check above can fail)', async () => {
    const program = await cliProgram();
    await expect(program.parseAsync(['start', '--no-htp'], { from: 'user' })).rejects.toThrow(
      CommanderError,
    );
  });

  it('sets only variables the config knows', () => {
    for (const [name, service] of connectorImageServices) {
      for (const variable of Object.keys(service.environment ?? {})) {
        expect(variableNames, `${name} sets ${variable}`).toContain(variable);
      }
    }
  });

  it('gets every required setting from compose or from a documented .env', () => {
    const required = requiredVariables();
    expect(required).toEqual(
      expect.arrayContaining(['PARTNER_API_URL', 'PARTNER_API_TOKEN', 'SHOPIFY_SHOP']),
    );
    const setByCompose = Object.keys(services.connector!.environment ?? {});
    for (const variable of required) {
      if (setByCompose.includes(variable)) continue;
      expect(envExample, `${variable} in .env.example`).toMatch(new RegExp(`^${variable}=`, 'm'));
      expect(deploymentDoc, `${variable} in docs/deployment.md`).toContain(variable);
    }
    // .env holds the secrets: never committed, never in the image's build context.
    expect(readFileSync('.gitignore', 'utf8').split('\n')).toContain('.env');
  });

  it('wires the sandbox profile to the connector with the settings docs/deployment.md gives', () => {
    const block = /```dotenv\n([\s\S]*?)```/.exec(deploymentDoc)?.[1];
    expect(block, 'a ```dotenv block with the sandbox settings').toBeDefined();
    const env = Object.fromEntries(
      block!
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    // What the connector container would see: .env, then compose's environment on top.
    const config = loadConfig({ ...env, ...services.connector!.environment });

    const store = cliArgs(services['fake-store']!);
    expect(config.shopify.shop).toBe(flagValue(store, '--shop'));
    expect(config.shopify.auth).toEqual({
      kind: 'accessToken',
      accessToken: flagValue(store, '--access-token'),
    });
    expect(config.shopify.webhookSecret).toBe(flagValue(store, '--webhook-secret'));
    expect(config.shopify.adminApiUrl).toBe(`http://fake-store:${flagValue(store, '--port')}`);
    expect(flagValue(store, '--webhook-url')).toBe(
      `http://connector:${config.server.port}/webhooks/shopify`,
    );

    const sandbox = cliArgs(services.sandbox!);
    expect(config.partner.apiUrl).toBe(`http://sandbox:${flagValue(sandbox, '--port')}/api/v1`);
    expect(config.partner.token).toBe('sbx_demo_token');
    // Reachable from the other containers, but published on the host's loopback only.
    for (const [args, service] of [
      [store, services['fake-store']!],
      [sandbox, services.sandbox!],
    ] as const) {
      expect(flagValue(args, '--host')).toBe('0.0.0.0');
      const port = flagValue(args, '--port');
      expect(service.ports).toEqual([`127.0.0.1:${port}:${port}`]);
    }
  });
});
