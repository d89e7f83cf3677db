/** Trimmed text, or undefined when the value is missing or blank (Shopify often sends ""). */
export function clean(value: string | null | undefined): string | undefined {
  return value?.trim() || undefined;
}

/** Tags compare trimmed and case-insensitively: "Document " and "document" are one tag. */
export function normaliseTag(tag: string): string {
  return tag.trim().toLowerCase();
}

/** The first of `wanted` the order carries, if any; blank entries never match. */
export function hasAnyTag(tags: readonly string[], wanted: readonly string[]): string | undefined {
  const present = new Set(tags.map(normaliseTag));
  return wanted.find((tag) => normaliseTag(tag) !== '' && present.has(normaliseTag(tag)));
}

/** Optional fields are left out rather than sent as undefined. */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
