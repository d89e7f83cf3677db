import { readFileSync } from 'node:fs';

/** Call it before announcing the server, so no early signal meets Node's default (exit 143). */
export async function untilStopped(): Promise<string> {
  const signal = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT received'));
    process.once('SIGTERM', () => resolve('SIGTERM received'));
  });
  return Promise.race([signal, whenStartedFromGone()]);
}

/** A killed `npm run` signals none of the processes below it, which would keep their ports. */
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
    // After the command name, which is in parentheses and may hold spaces: state, ppid.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined; // not Linux, or gone: the chain stops here
  }
}
