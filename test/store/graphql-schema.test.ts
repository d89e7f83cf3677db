import {
  type GraphQLNamedType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  parse,
  validate,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeAdminSchema } from '../../src/sandbox/store/schema.js';
import { combinedWriteDocument } from '../../src/store/order-marks/combined-write.js';
import { documentFilesOnDisk, storeDocuments } from './documents.js';
import { loadRealSchema } from './real-schema.js';

let realSchema: GraphQLSchema;

beforeAll(() => {
  realSchema = loadRealSchema();
}, 300_000);

const documents = storeDocuments.map(({ name, document }) => [name, document] as const);

describe('Admin GraphQL documents (src/store/documents.ts) against the real 2026-10 schema', () => {
  it('holds documents of every capability to check', () => {
    expect(documents.length).toBeGreaterThanOrEqual(11);
    const capabilities = new Set(storeDocuments.map((d) => d.capability));
    expect([...capabilities].sort()).toEqual(['fulfillments', 'orderMarks', 'orders', 'setup']);
  });

  it('lists every document of every documents.ts under src/store', async () => {
    const listed = new Set(storeDocuments.map((d) => d.document));
    const files = documentFilesOnDisk();
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      const module: Record<string, unknown> = await import(file);
      for (const [name, document] of Object.entries(module)) {
        expect(listed.has(document as string), `${name} of ${file}`).toBe(true);
      }
    }
  });

  it('validates every combination of the combined order-marks write', () => {
    const flags = [false, true];
    for (const setMetafields of flags)
      for (const deleteMetafields of flags)
        for (const addTags of flags)
          for (const removeTags of flags) {
            const parts = { setMetafields, deleteMetafields, addTags, removeTags };
            if (!Object.values(parts).some(Boolean)) continue;
            const document = parse(combinedWriteDocument(parts));
            expect(
              validate(realSchema, document).map((e) => e.message),
              JSON.stringify(parts),
            ).toEqual([]);
            expect(validate(fakeAdminSchema, document).map((e) => e.message)).toEqual([]);
          }
  });

  it.each(documents)('%s is valid', (_name, document) => {
    const errors = validate(realSchema, parse(document)).map((e) => e.message);
    expect(errors).toEqual([]);
  });

  it('reports errors for a document the real API would reject', () => {
    const invalid = /* GraphQL */ `
      query Broken($id: ID!) {
        order(id: $id) {
          totalWeight
          shippingAddress { countryCode postalCode }
        }
        ordersCount(query: 7) { count }
      }
    `;
    const errors = validate(realSchema, parse(invalid)).map((e) => e.message);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Cannot query field "postalCode" on type "MailingAddress"'),
        expect.stringContaining('String cannot represent a non string value: 7'),
      ]),
    );
  });
});

describe('the fake store schema', () => {
  it.each(documents)('answers %s (the document is valid against it too)', (_name, document) => {
    expect(validate(fakeAdminSchema, parse(document)).map((e) => e.message)).toEqual([]);
  });

  it('is a faithful slice of the real schema: same types, fields, arguments and enum values', () => {
    const problems: string[] = [];
    for (const fakeType of Object.values(fakeAdminSchema.getTypeMap())) {
      if (fakeType.name.startsWith('__') || isBuiltInScalar(fakeType)) continue;
      const realType = realSchema.getType(fakeType.name);
      if (!realType) {
        problems.push(`${fakeType.name}: no such type`);
        continue;
      }
      problems.push(...compareTypes(fakeType, realType));
    }
    expect(problems).toEqual([]);
  });
});

function isBuiltInScalar(type: GraphQLNamedType): boolean {
  return isScalarType(type) && ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name);
}

function compareTypes(fake: GraphQLNamedType, real: GraphQLNamedType): string[] {
  const problems: string[] = [];
  const name = fake.name;
  if (fake.constructor !== real.constructor) return [`${name}: kind differs`];

  if (isEnumType(fake) && isEnumType(real)) {
    const realValues = new Set(real.getValues().map((v) => v.name));
    for (const value of fake.getValues()) {
      if (!realValues.has(value.name)) problems.push(`${name}.${value.name}: no such enum value`);
    }
  }
  if (
    (isObjectType(fake) || isInterfaceType(fake)) &&
    (isObjectType(real) || isInterfaceType(real))
  ) {
    const realInterfaces = new Set(real.getInterfaces().map((i) => i.name));
    for (const i of fake.getInterfaces()) {
      if (!realInterfaces.has(i.name)) problems.push(`${name}: does not implement ${i.name}`);
    }
    const realFields = real.getFields();
    for (const field of Object.values(fake.getFields())) {
      const realField = realFields[field.name];
      if (!realField) {
        problems.push(`${name}.${field.name}: no such field`);
        continue;
      }
      if (String(field.type) !== String(realField.type)) {
        problems.push(`${name}.${field.name}: ${field.type} here, ${realField.type} in Shopify`);
      }
      for (const arg of field.args) {
        const realArg = realField.args.find((a) => a.name === arg.name);
        if (!realArg) problems.push(`${name}.${field.name}(${arg.name}): no such argument`);
        else if (String(arg.type) !== String(realArg.type)) {
          problems.push(`${name}.${field.name}(${arg.name}): ${arg.type} vs ${realArg.type}`);
        }
      }
    }
  }
  if (isInputObjectType(fake) && isInputObjectType(real)) {
    const realFields = real.getFields();
    for (const field of Object.values(fake.getFields())) {
      const realField = realFields[field.name];
      if (!realField) problems.push(`${name}.${field.name}: no such input field`);
      else if (String(field.type) !== String(realField.type)) {
        problems.push(`${name}.${field.name}: ${field.type} here, ${realField.type} in Shopify`);
      }
    }
    // A required real input field the fake lacks would let the fake accept what Shopify refuses.
    for (const realField of Object.values(realFields)) {
      if (String(realField.type).endsWith('!') && !fake.getFields()[realField.name]) {
        problems.push(`${name}.${realField.name}: required in Shopify, missing here`);
      }
    }
  }
  return problems;
}
