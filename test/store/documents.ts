import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { STORE_DOCUMENTS } from '../../src/store/documents.js';

/** Every document the store client sends, as listed in src/store/documents.ts. */
export const storeDocuments = Object.entries(STORE_DOCUMENTS).flatMap(([capability, module]) =>
  Object.entries(module).map(([name, document]) => ({ capability, name, document })),
);

const STORE_SOURCE = fileURLToPath(new URL('../../src/store/', import.meta.url));

/** The documents.ts files under src/store, found on disk rather than taken from the list. */
export function documentFilesOnDisk(): string[] {
  return readdirSync(STORE_SOURCE, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('documents.ts') && file !== 'documents.ts')
    .map((file) => `${STORE_SOURCE}${file}`)
    .sort();
}
