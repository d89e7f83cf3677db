import { readFileSync } from 'node:fs';

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
