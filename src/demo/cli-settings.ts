import { rmSync, writeFileSync } from 'node:fs';

/** Where `npm run demo -- --keep-running` writes the settings that point the CLI at it. */
export const DEMO_SETTINGS_FILE = '.connector-demo.env';

/** Not for the CLI: the demo's HTTP side and board login, and its log level. */
const LEFT_OUT = new Set(['PORT', 'HOST', 'ADMIN_USER', 'ADMIN_PASSWORD', 'LOG_LEVEL']);

/** The settings that point `connector <command>` at the running demo: Redis, prefix, both APIs. */
export function demoCliSettings(env: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !LEFT_OUT.has(name)));
}

/** Writes them as a .env file (readable by its owner only); removed again when the demo stops. */
export function writeDemoSettings(settings: Record<string, string>, path = DEMO_SETTINGS_FILE) {
  const lines = Object.entries(settings).map(([name, value]) => `${name}=${value}`);
  writeFileSync(
    path,
    `# The running demo's settings (npm run demo -- --keep-running); removed when it stops.\n# npm run connector -- --env-file ${path} <command>\n${lines.join('\n')}\n`,
    { mode: 0o600 },
  );
  return () => rmSync(path, { force: true });
}
