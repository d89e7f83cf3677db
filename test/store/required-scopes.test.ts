import {
  type GraphQLSchema,
  getNamedType,
  type IntrospectionQuery,
  parse,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORDER_TOPICS } from '../../src/server/webhook-route.js';
import { missingScopes, REQUIRED_SCOPES } from '../../src/store/setup/scopes.js';
import { storeDocuments } from './documents.js';
import { loadRealIntrospection, loadRealSchema } from './real-schema.js';

/**
 * The real schema says, per field and type, which scopes give access (`requiredAccess`, e.g.
 * "`read_orders` access scope or `read_marketplace_orders` access scope"). Every field and type
 * our documents touch must be covered by at least one scope in REQUIRED_SCOPES.
 */

let schema: GraphQLSchema;
let introspection: IntrospectionQuery;

beforeAll(() => {
  schema = loadRealSchema();
  introspection = loadRealIntrospection();
}, 300_000);

type RawType = { name: string; requiredAccess?: string | null; fields?: RawField[] | null };
type RawField = { name: string; requiredAccess?: string | null };

/** Scope names a requiredAccess text offers as alternatives; empty when it names none. */
function scopesIn(text: string): string[] {
  return [...text.matchAll(/`([a-z_]+)` access scope/g)].map((m) => m[1] as string);
}

const covered = (alternatives: string[]) =>
  alternatives.some((scope) => missingScopes(REQUIRED_SCOPES, [scope]).length === 0);

describe('REQUIRED_SCOPES against the real 2026-10 schema', () => {
  it.each(storeDocuments.map((d) => [d.name, d.document] as const))(
    '%s needs only scopes in the list',
    (_name, document) => {
      const raw = new Map(
        (introspection.__schema.types as unknown as RawType[]).map((t) => [t.name, t]),
      );
      const uncovered: string[] = [];
      const typeInfo = new TypeInfo(schema);
      const check = (where: string, text: string | null | undefined) => {
        const alternatives = text ? scopesIn(text) : [];
        if (alternatives.length > 0 && !covered(alternatives)) {
          uncovered.push(`${where}: ${alternatives.join(' | ')}`);
        }
      };
      visit(
        parse(document),
        visitWithTypeInfo(typeInfo, {
          Field() {
            const parent = typeInfo.getParentType();
            const field = typeInfo.getFieldDef();
            if (!parent || !field) return;
            const rawParent = raw.get(parent.name);
            const rawField = rawParent?.fields?.find((f) => f.name === field.name);
            check(`${parent.name}.${field.name}`, rawField?.requiredAccess);
            const type = getNamedType(field.type);
            check(type.name, raw.get(type.name)?.requiredAccess);
          },
        }),
      );
      expect(uncovered).toEqual([]);
    },
  );

  it('covers the webhook topics the connector takes', () => {
    const topics = introspection.__schema.types.find((t) => t.name === 'WebhookSubscriptionTopic');
    const values = topics && 'enumValues' in topics ? topics.enumValues : [];
    for (const topic of ORDER_TOPICS) {
      const name = topic.replace('/', '_').toUpperCase();
      const description = (values.find((v) => v.name === name)?.description ?? '').replace(
        /\s+/g,
        ' ',
      );
      const alternatives = /Requires at least one of the following scopes: ([a-z_, ]+)\./.exec(
        description,
      )?.[1];
      expect(alternatives, name).toBeDefined();
      expect(covered(alternatives?.split(', ') ?? []), name).toBe(true);
    }
  });

  it('catches a field whose scope is missing from the list', () => {
    const offered = scopesIn(
      '`read_orders` access scope, `read_marketplace_orders` access scope or `read_quick_sale` access scope.',
    );
    expect(offered).toEqual(['read_orders', 'read_marketplace_orders', 'read_quick_sale']);
    expect(covered(offered)).toBe(true);
    expect(covered(['read_customers'])).toBe(false);
  });
});

describe('missingScopes', () => {
  it('counts a write scope for its read scope, not the other way round', () => {
    expect(missingScopes(['write_orders'], ['read_orders', 'write_orders'])).toEqual([]);
    expect(missingScopes(['read_orders'], ['read_orders', 'write_orders'])).toEqual([
      'write_orders',
    ]);
  });

  it('lists every required scope an app without scopes lacks', () => {
    expect(missingScopes([])).toEqual([...REQUIRED_SCOPES]);
  });
});
