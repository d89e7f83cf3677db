import { readFileSync } from 'node:fs';

/**
 * Ctrl-C, SIGTERM, or `npm run` killed above it: what a local server waits for before it closes,
 * freeing its port. Call it before announcing the server, so a signal sent the moment the
 * announcement is read is never met by Node's default (exit 143).
 */
export async function untilStopped(): Promise<string> {
  const signal = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT received'));
    process.once('SIGTERM', () => resolve('SIGTERM received'));
  });
  return Promise.race([signal, whenStartedFromGone()]);
}

/**
 * Killing `npm run` (SIGKILL, a closed terminal) signals none of the sh, tsx and node below it:
 * without this the local servers would keep their ports. PID 1 is never waited on.
 */
export function whenStartedFromGone(intervalMs = 500): Promise<string> {
  const initial = ancestors();
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      const now = ancestors();
      if (now.join(' ') !== initial.join(' ')) {
        clearInterval(timer);
        resolve('the process that started it exited');
      }
    }, intervalMs);
    timer.unref();
  });
}

function ancestors(): number[] {
  const chain: number[] = [];
  let pid = process.ppid;
  while (pid > 1 && chain.length < 64) {
    chain.push(pid);
    const parent = parentOf(pid);
    if (parent === undefined) break;
    pid = parent;
  }
  return chain;
}

function parentOf(pid: number): number | undefined {
  try {
    // Fields after the command name, which is in parentheses and may hold spaces: state, ppid.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined; // not Linux, or gone: the chain stops here
  }
}
