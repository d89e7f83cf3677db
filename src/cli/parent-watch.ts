import { readFileSync } from 'node:fs';

/** Prints `lines` once the signals are caught, so no early one meets Node's default (exit 143). */
export async function serveUntilStopped(
  what: string,
  server: { close(): Promise<void> },
  lines: string[],
): Promise<void> {
  const signal = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT received'));
    process.once('SIGTERM', () => resolve('SIGTERM received'));
  });
  const stopping = Promise.race([signal, whenStartedFromGone()]);
  for (const line of lines) console.log(line);
  console.log(`${await stopping}, closing the ${what}.`);
  await server.close();
}

/** A killed `npm run` signals none of the processes below it, which would keep their ports. */
export function whenStartedFromGone(): Promise<string> {
  const initial = ancestors();
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (ancestors() !== initial) {
        clearInterval(timer);
        resolve('the process that started it exited');
      }
    }, 500);
    timer.unref();
  });
}

/** The chain of parent pids, as text; it stops where /proc has no answer (not Linux, or gone). */
function ancestors(): string {
  const chain: number[] = [];
  for (let pid = process.ppid; pid > 1 && chain.length < 64; ) {
    chain.push(pid);
    try {
      // After the command name, which is in parentheses and may hold spaces: state, ppid.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      break;
    }
  }
  return chain.join(' ');
}
