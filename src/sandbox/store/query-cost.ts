import {
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type VariableDefinitionNode,
  valueFromASTUntyped,
} from 'graphql';

/** Shopify refuses, before running it, any single query whose requested cost is above this. */
export const MAX_QUERY_COST = 1000;

/** A mutation costs this much, whatever its payload (Shopify's calculated query cost rules). */
const MUTATION_COST = 10;

/**
 * `metafieldsSet` adds, to its 10, a weight per distinct owner it writes to (Shopify's
 * "Dynamic complexity cost for metafieldsSet", 2026-09-15); other owner types weigh 0.
 */
const METAFIELD_OWNER_WEIGHTS: Record<string, number> = {
  Order: 10,
  Product: 4,
  Collection: 1,
  Customer: 1,
  Shop: 1,
};

/** What one mutation field costs before its payload: 10, and `metafieldsSet`'s owners. */
function mutationCost(field: FieldNode, variables: Record<string, unknown>): number {
  if (field.name.value !== 'metafieldsSet') return MUTATION_COST;
  const argument = field.arguments?.find((a) => a.name.value === 'metafields');
  const metafields = argument ? valueFromASTUntyped(argument.value, variables) : [];
  const owners = new Set<string>();
  for (const metafield of Array.isArray(metafields) ? metafields : []) {
    const ownerId = (metafield as { ownerId?: unknown } | null)?.ownerId;
    if (typeof ownerId === 'string') owners.add(ownerId);
  }
  let cost = MUTATION_COST;
  for (const owner of owners) {
    cost += METAFIELD_OWNER_WEIGHTS[/^gid:\/\/shopify\/(\w+)\//.exec(owner)?.[1] ?? ''] ?? 0;
  }
  return cost;
}

export interface QueryCostOptions {
  /** Which operation of the document; needed only when it holds more than one. */
  operationName?: string | null;
  /** The values sent with the document: a variable `first`/`last` is sized by its value. */
  variables?: Record<string, unknown>;
}

/** The document cannot be costed: a connection without a size, an unknown field, … */
export class QueryCostError extends Error {}

/**
 * The cost Shopify's Admin API requests for a document before running it (its
 * `requestedQueryCost`), by Shopify's published rules:
 * - a scalar or enum field costs 0, an object (or interface, union) field 1;
 * - a connection (a `…Connection` type) costs 2 plus `first` (or `last`) times the cost of one
 *   node, the node itself being an object (1) plus what is selected on it; its pageInfo and
 *   cursors are part of the 2;
 * - nested connections multiply;
 * - a mutation field costs 10, plus whatever its payload selects (an upper bound: Shopify
 *   usually reports 10 for a small payload);
 * - fragments on different types of an interface or union count the dearest one.
 * Lists that are not connections count once per item when sized by a `first` argument
 * (Fulfillment.trackingInfo), else once. Works on any schema: the real one in tests, the fake
 * store's slice when it answers.
 */
export function requestedQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  options: QueryCostOptions = {},
): number {
  const operation = pickOperation(document, options.operationName);
  const rootType =
    operation.operation === 'mutation'
      ? schema.getMutationType()
      : operation.operation === 'subscription'
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  if (!rootType) throw new QueryCostError(`The schema has no ${operation.operation} type`);

  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition);
    }
  }
  const walker = new CostWalker(
    schema,
    fragments,
    operation.variableDefinitions ?? [],
    options.variables ?? {},
  );
  if (operation.operation !== 'mutation') {
    return walker.selectionSetCost(operation.selectionSet, rootType);
  }
  // Each mutation field is charged as a mutation, not as the object it returns.
  let cost = 0;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.name.value.startsWith('__')) continue;
    const field = walker.fieldDefinition(rootType, selection);
    const payload = getNamedType(field.type);
    cost +=
      mutationCost(selection, options.variables ?? {}) +
      (selection.selectionSet && isCompositeType(payload)
        ? walker.selectionSetCost(selection.selectionSet, payload)
        : 0);
  }
  return cost;
}

class CostWalker {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Map<string, FragmentDefinitionNode>,
    private readonly variableDefinitions: readonly VariableDefinitionNode[],
    private readonly variables: Record<string, unknown>,
  ) {}

  /** Fields on the type itself add up; type-specific fragments count the dearest type. */
  selectionSetCost(selectionSet: SelectionSetNode, parent: GraphQLCompositeType): number {
    let common = 0;
    const byType = new Map<string, number>();
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        common += this.fieldCost(selection, parent);
        continue;
      }
      const fragment =
        selection.kind === Kind.FRAGMENT_SPREAD
          ? this.fragments.get(selection.name.value)
          : selection;
      if (!fragment) throw new QueryCostError('Unknown fragment spread');
      const typeName = fragment.typeCondition?.name.value ?? parent.name;
      const type = this.schema.getType(typeName);
      if (!type || !isCompositeType(type)) throw new QueryCostError(`Unknown type ${typeName}`);
      const cost = this.selectionSetCost(fragment.selectionSet, type);
      if (typeName === parent.name) common += cost;
      else byType.set(typeName, (byType.get(typeName) ?? 0) + cost);
    }
    return common + Math.max(0, ...byType.values());
  }

  fieldDefinition(parent: GraphQLCompositeType, node: FieldNode): GraphQLField<unknown, unknown> {
    const field =
      isObjectType(parent) || isInterfaceType(parent)
        ? parent.getFields()[node.name.value]
        : undefined;
    if (!field) throw new QueryCostError(`${parent.name} has no field ${node.name.value}`);
    return field;
  }

  private fieldCost(node: FieldNode, parent: GraphQLCompositeType): number {
    if (node.name.value.startsWith('__')) return 0;
    const field = this.fieldDefinition(parent, node);
    const type = getNamedType(field.type);
    // Scalars and enums (and lists of them) are free.
    if (!isCompositeType(type) || !node.selectionSet) return 0;
    const where = `${parent.name}.${node.name.value}`;

    if (isConnection(type)) {
      const size = this.size(node.arguments ?? [], where);
      if (size === undefined)
        throw new QueryCostError(`${where} is a connection without first/last`);
      return 2 + size * this.nodeCost(node.selectionSet, type);
    }
    const one = 1 + this.selectionSetCost(node.selectionSet, type);
    if (!isListType(getNullableType(field.type))) return one;
    return (this.size(node.arguments ?? [], where) ?? 1) * one;
  }

  /** What one node of a connection costs: the node (1) and its selection, by nodes or edges. */
  private nodeCost(selectionSet: SelectionSetNode, connection: GraphQLCompositeType): number {
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind !== Kind.FIELD) {
        throw new QueryCostError(`Fragments directly on ${connection.name} are not supported`);
      }
      const name = selection.name.value;
      if (name === 'pageInfo' || name.startsWith('__')) continue;
      const field = this.fieldDefinition(connection, selection);
      const type = getNamedType(field.type);
      if (!selection.selectionSet || !isCompositeType(type)) continue;
      if (name === 'nodes') {
        cost += 1 + this.selectionSetCost(selection.selectionSet, type);
      } else if (name === 'edges') {
        // The edge is free; its node is the object charged.
        for (const edgeField of selection.selectionSet.selections) {
          if (edgeField.kind !== Kind.FIELD || edgeField.name.value !== 'node') continue;
          const nodeType = getNamedType(this.fieldDefinition(type, edgeField).type);
          if (edgeField.selectionSet && isCompositeType(nodeType)) {
            cost += 1 + this.selectionSetCost(edgeField.selectionSet, nodeType);
          }
        }
      } else {
        cost += this.fieldCost(selection, connection);
      }
    }
    return cost;
  }

  /** The larger of a literal or variable `first` and `last`, or undefined when neither is set. */
  private size(args: readonly ArgumentNode[], where: string): number | undefined {
    const sizes = args
      .filter((arg) => arg.name.value === 'first' || arg.name.value === 'last')
      .map((arg) => {
        const value = arg.value;
        if (value.kind === Kind.INT) return Number(value.value);
        if (value.kind === Kind.VARIABLE) return this.variableSize(value.name.value, where);
        if (value.kind === Kind.NULL) return undefined;
        throw new QueryCostError(`${where}: ${arg.name.value} is not an Int`);
      })
      .filter((n): n is number => n !== undefined);
    return sizes.length > 0 ? Math.max(...sizes) : undefined;
  }

  private variableSize(name: string, where: string): number | undefined {
    const sent = this.variables[name];
    if (typeof sent === 'number') return sent;
    if (sent === null) return undefined;
    const definition = this.variableDefinitions.find((d) => d.variable.name.value === name);
    const fallback = definition?.defaultValue;
    if (fallback?.kind === Kind.INT) return Number(fallback.value);
    throw new QueryCostError(`${where} is sized by $${name}, which has no value`);
  }
}

function isConnection(type: GraphQLCompositeType): boolean {
  return isObjectType(type) && type.name.endsWith('Connection');
}

function pickOperation(
  document: DocumentNode,
  name: string | null | undefined,
): OperationDefinitionNode {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = name
    ? operations.find((o) => o.name?.value === name)
    : operations.length === 1
      ? operations[0]
      : undefined;
  if (!operation) throw new QueryCostError(`No single operation ${name ?? ''} in the document`);
  return operation;
}

/**
 * The cost Shopify charges in the end (its `actualQueryCost`), from what the answer holds: an
 * object returned costs 1, a connection 2 plus its nodes as returned, a null or a scalar 0, each
 * mutation what it costs before its payload. So a connection asked for 25 and answering 3 is
 * charged for 3.
 */
export function actualQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  data: unknown,
  options: QueryCostOptions = {},
): number {
  const operation = pickOperation(document, options.operationName);
  if (operation.operation === 'mutation') {
    const answered = data && typeof data === 'object' ? data : {};
    let cost = 0;
    for (const selection of operation.selectionSet.selections) {
      if (selection.kind !== Kind.FIELD) continue;
      const key = selection.alias?.value ?? selection.name.value;
      if (key in answered) cost += mutationCost(selection, options.variables ?? {});
    }
    return cost;
  }
  const rootType = schema.getQueryType();
  if (!rootType) throw new QueryCostError('The schema has no query type');
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition);
    }
  }
  return answeredCost(schema, fragments, operation.selectionSet, rootType, data);
}

function answeredCost(
  schema: GraphQLSchema,
  fragments: Map<string, FragmentDefinitionNode>,
  selectionSet: SelectionSetNode,
  parent: GraphQLCompositeType,
  value: unknown,
): number {
  if (!value || typeof value !== 'object') return 0;
  const answer = value as Record<string, unknown>;
  let cost = 0;
  const counted = new Set<string>();
  const visit = (set: SelectionSetNode, type: GraphQLCompositeType) => {
    for (const selection of set.selections) {
      if (selection.kind !== Kind.FIELD) {
        const fragment =
          selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
        const typeName = fragment?.typeCondition?.name.value;
        const fragmentType = typeName ? schema.getType(typeName) : type;
        if (fragment && fragmentType && isCompositeType(fragmentType)) {
          visit(fragment.selectionSet, fragmentType);
        }
        continue;
      }
      const key = selection.alias?.value ?? selection.name.value;
      if (counted.has(key) || !selection.selectionSet || answer[key] == null) continue;
      const field =
        isObjectType(type) || isInterfaceType(type)
          ? type.getFields()[selection.name.value]
          : undefined;
      const fieldType = field ? getNamedType(field.type) : undefined;
      if (!fieldType || !isCompositeType(fieldType)) continue;
      counted.add(key);
      cost += fieldCost(selection.selectionSet, fieldType, answer[key]);
    }
  };
  const fieldCost = (set: SelectionSetNode, type: GraphQLCompositeType, v: unknown): number => {
    const one = (item: unknown) =>
      item == null ? 0 : 1 + answeredCost(schema, fragments, set, type, item);
    if (Array.isArray(v)) return v.reduce((sum: number, item) => sum + one(item), 0);
    if (!isConnection(type)) return one(v);
    // A connection: 2, and each node returned with what was selected on it.
    let total = 2;
    const connection = v as Record<string, unknown>;
    for (const selection of set.selections) {
      if (selection.kind !== Kind.FIELD || !selection.selectionSet) continue;
      const key = selection.alias?.value ?? selection.name.value;
      const items = connection[key];
      if (!Array.isArray(items) || !isObjectType(type)) continue;
      const itemType = getNamedType(type.getFields()[selection.name.value]?.type);
      if (!itemType || !isCompositeType(itemType) || !isObjectType(itemType)) continue;
      if (selection.name.value === 'nodes') {
        total += items.reduce(
          (sum: number, item) =>
            sum +
            (item == null
              ? 0
              : 1 + answeredCost(schema, fragments, selection.selectionSet!, itemType, item)),
          0,
        );
      } else if (selection.name.value === 'edges') {
        const nodeField = itemType.getFields().node;
        const nodeType = nodeField ? getNamedType(nodeField.type) : undefined;
        for (const edgeSelection of selection.selectionSet.selections) {
          if (edgeSelection.kind !== Kind.FIELD || edgeSelection.name.value !== 'node') continue;
          if (!edgeSelection.selectionSet || !nodeType || !isCompositeType(nodeType)) continue;
          for (const edge of items as Record<string, unknown>[]) {
            const node = edge?.[edgeSelection.alias?.value ?? 'node'];
            if (node != null) {
              total +=
                1 + answeredCost(schema, fragments, edgeSelection.selectionSet, nodeType, node);
            }
          }
        }
      }
    }
    return total;
  };
  visit(selectionSet, parent);
  return cost;
}
