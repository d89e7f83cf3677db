import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../jobs/catalog.js';

/**
 * The README and docs name the queues in a few places; each must match the job catalog
 * (jobs/catalog.ts), so a queue added there fails this test until the docs list it.
 */
const CATALOG = JOBS.map((job) => job.queue).sort();
const FILES = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const NUMBERS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
];

function paragraphs(markdown: string): string[] {
  return markdown.split(/\n\s*\n/).map((p) => p.replace(/\s+/g, ' '));
}

/** Backticked names shaped like a queue's (`create-shipment`; not `order-<id>`). */
function queueNames(text: string): string[] {
  return [...text.matchAll(/`([a-z]+(?:-[a-z]+)+)`/g)].map((m) => m[1]!);
}

describe("the docs' lists of queues", () => {
  for (const file of FILES) {
    const text = readFileSync(file, 'utf8');

    it(`${file}: every list of "the job catalog"'s queues names exactly the catalog's`, () => {
      for (const paragraph of paragraphs(text).filter((p) =>
        /queues? of the job catalog/i.test(p),
      )) {
        const named = [...new Set(queueNames(paragraph))].sort();
        if (named.length === 0) continue;
        expect(named, paragraph.slice(0, 120)).toEqual(CATALOG);
      }
    });

    it(`${file}: every count of queues is the catalog's`, () => {
      for (const m of text.matchAll(/\b(\w+) queues\b/gi)) {
        const word = m[1]!.toLowerCase();
        const n = /^\d+$/.test(word) ? Number(word) : NUMBERS.indexOf(word);
        if (n < 0) continue;
        expect(n, `"${m[0]}" in ${file}`).toBe(CATALOG.length);
      }
    });
  }

  it('finds the lists it checks (the board and replay sections of the README)', () => {
    const readme = paragraphs(readFileSync('README.md', 'utf8'));
    const lists = readme.filter(
      (p) => /queues? of the job catalog/i.test(p) && queueNames(p).length > 0,
    );
    expect(lists.length).toBeGreaterThanOrEqual(2);
  });
});
