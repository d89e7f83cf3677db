import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** A line right after a table, with no blank line between, renders as one more row of it. */
const FILES = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('tables in the README and docs', () => {
  for (const file of FILES) {
    it(`${file}: every table ends at a blank line`, () => {
      const lines = readFileSync(file, 'utf8').split('\n');
      const glued = lines.flatMap((line, i) =>
        i > 0 && /^\s*\|/.test(lines[i - 1]!) && line.trim() !== '' && !/^\s*\|/.test(line)
          ? [`${file}:${i + 1}: ${line.trim()}`]
          : [],
      );
      expect(glued).toEqual([]);
    });
  }
});
