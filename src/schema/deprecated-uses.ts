import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

/**
 * Which deprecated parts of the schema one request uses, as schema coordinates: a field selected
 * (`Venue.location`), an argument given (`Query.events(sortBy:)`), an input field set
 * (`Filter.sortBy`) and an enum value sent (`WhenPreset.TONIGHT`), in the document's text or through
 * its variables. "Uses" means what a removal would break: a document that names a deprecated input
 * field, even as `null`, no longer validates once it is gone; variables that set it no longer coerce.
 *
 * Decided once per parsed document and operation name (the parser cache hands back the same
 * document for the same text): a TypeInfo walk finds what the text itself uses, and which declared
 * variables have a type through which a deprecated input field or enum value can be reached. Per
 * request only those variables' values are looked at (`variables.filter` holds `sortBy`?).
 */
export class DeprecatedUses {
  // One pipeline has one schema: the plans of its documents are built against it.
  private readonly plans = new WeakMap<DocumentNode, Map<string, OperationPlan>>();
  private readonly valueChecks = new WeakMap<GraphQLNamedType, ValueCheck | null>();
  /** The names a document's text must contain to use a deprecated coordinate literally. */
  private readonly deprecatedNames = new WeakMap<GraphQLSchema, readonly string[]>();

  /** The deprecated coordinates an executed operation used, sorted; the same empty array when none. */
  usesOf(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: unknown): readonly string[] {
    const plan = this.planOf(schema, document, operationName ?? '');
    if (plan.variables.length === 0 || !isRecord(variables)) return plan.literal;
    let found: Set<string> | undefined;
    for (const { name, check } of plan.variables) {
      const value = variables[name];
      if (value != null) found = collect(check, value, found);
    }
    if (!found) return plan.literal;
    for (const coordinate of plan.literal) found.add(coordinate);
    return [...found].sort();
  }

  private planOf(schema: GraphQLSchema, document: DocumentNode, operationName: string): OperationPlan {
    let byName = this.plans.get(document);
    if (!byName) this.plans.set(document, (byName = new Map<string, OperationPlan>()));
    let plan = byName.get(operationName);
    if (!plan) byName.set(operationName, (plan = this.buildPlan(schema, document, operationName)));
    return plan;
  }

  private buildPlan(schema: GraphQLSchema, document: DocumentNode, operationName: string): OperationPlan {
    const operation = document.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (operationName === '' || d.name?.value === operationName),
    );
    if (!operation) return NO_PLAN;
    // A literal use names the field, argument, input field or enum value in the text: a document that
    // names none of them (most) is not walked at all.
    const literal = this.mayNameDeprecated(schema, document) ? literalUses(schema, document, operation) : new Set<string>();
    const variables: VariableCheck[] = [];
    for (const definition of operation.variableDefinitions ?? []) {
      const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
      const check = type && this.checkOf(type);
      if (check) variables.push({ name: definition.variable.name.value, check });
    }
    return { literal: literal.size === 0 ? NO_USES : [...literal].sort(), variables };
  }

  private mayNameDeprecated(schema: GraphQLSchema, document: DocumentNode): boolean {
    let names = this.deprecatedNames.get(schema);
    if (!names) this.deprecatedNames.set(schema, (names = [...new Set(deprecatedCoordinates(schema).map(nameOf))]));
    const text = document.loc?.source.body;
    return text === undefined ? names.length > 0 : names.some((name) => text.includes(name));
  }

  /** What to look at in a value of this type; undefined when nothing deprecated can be reached through it. */
  private checkOf(type: GraphQLInputType): ValueCheck | undefined {
    if (isNonNullType(type)) return this.checkOf(type.ofType);
    if (isListType(type)) {
      const item = this.checkOf(type.ofType);
      return item && { kind: 'list', item };
    }
    const known = this.valueChecks.get(type);
    if (known !== undefined) return known ?? undefined;
    if (isEnumType(type)) {
      const values = new Map(type.getValues().flatMap((v) => (v.deprecationReason != null ? [[v.name, `${type.name}.${v.name}`] as const] : [])));
      const check: ValueCheck | null = values.size > 0 ? { kind: 'enum', values } : null;
      this.valueChecks.set(type, check);
      return check ?? undefined;
    }
    if (!isInputObjectType(type)) {
      this.valueChecks.set(type, null);
      return undefined;
    }
    // Kept before its fields are looked at: an input type that contains itself ends there.
    const check: ObjectCheck = { kind: 'object', deprecated: [], nested: [] };
    this.valueChecks.set(type, check);
    for (const field of Object.values(type.getFields())) {
      if (field.deprecationReason != null) check.deprecated.push([field.name, `${type.name}.${field.name}`]);
      const nested = this.checkOf(field.type);
      if (nested) check.nested.push([field.name, nested]);
    }
    if (check.deprecated.length > 0 || check.nested.length > 0) return check;
    this.valueChecks.set(type, null);
    return undefined;
  }
}

interface OperationPlan {
  /** What the document's own text uses (the operation and the fragments it spreads). */
  literal: readonly string[];
  /** Declared variables whose values can set something deprecated. */
  variables: readonly VariableCheck[];
}

interface VariableCheck {
  name: string;
  check: ValueCheck;
}

interface ObjectCheck {
  kind: 'object';
  /** Deprecated fields: the name a value sets, and its coordinate. */
  deprecated: [string, string][];
  /** Fields through which something deprecated can be reached. */
  nested: [string, ValueCheck][];
}

type ValueCheck = ObjectCheck | { kind: 'list'; item: ValueCheck } | { kind: 'enum'; values: ReadonlyMap<string, string> };

const NO_USES: readonly string[] = Object.freeze([]);
const NO_PLAN: OperationPlan = { literal: NO_USES, variables: [] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Adds the deprecated coordinates a variable's value sets (JSON as sent: enum values are strings). */
function collect(check: ValueCheck, value: unknown, found: Set<string> | undefined): Set<string> | undefined {
  if (value == null) return found;
  switch (check.kind) {
    case 'list':
      // Input coercion takes a single value where a list is expected.
      if (!Array.isArray(value)) return collect(check.item, value, found);
      for (const item of value) found = collect(check.item, item, found);
      return found;
    case 'enum': {
      const coordinate = typeof value === 'string' ? check.values.get(value) : undefined;
      return coordinate === undefined ? found : (found ?? new Set()).add(coordinate);
    }
    case 'object':
      if (!isRecord(value)) return found;
      // A field set to null still names it: coercion refuses a field the type no longer has.
      for (const [name, coordinate] of check.deprecated) if (Object.hasOwn(value, name)) (found ??= new Set()).add(coordinate);
      for (const [name, nested] of check.nested) found = collect(nested, value[name], found);
      return found;
  }
}

/** The deprecated coordinates an operation's text uses, through the fragments it spreads (transitively). */
function literalUses(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): Set<string> {
  const usesOf = new Map<ASTNode, Set<string>>();
  const spreadsOf = new Map<ASTNode, Set<string>>();
  const fragments = new Map<string, ASTNode>();
  let current: ASTNode | undefined;
  const add = (coordinate: string) => usesOf.get(current!)!.add(coordinate);
  const typeInfo = new TypeInfo(schema);
  const enterDefinition = (node: ASTNode) => {
    current = node;
    usesOf.set(node, new Set());
    spreadsOf.set(node, new Set());
  };
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      OperationDefinition: enterDefinition,
      FragmentDefinition(node) {
        enterDefinition(node);
        fragments.set(node.name.value, node);
      },
      FragmentSpread(node) {
        spreadsOf.get(current!)!.add(node.name.value);
      },
      Field() {
        const field = typeInfo.getFieldDef();
        const parent = typeInfo.getParentType();
        if (field?.deprecationReason != null && parent) add(`${parent.name}.${field.name}`);
      },
      Argument() {
        const argument = typeInfo.getArgument();
        if (argument?.deprecationReason == null) return;
        const directive = typeInfo.getDirective();
        if (directive) return add(`@${directive.name}(${argument.name}:)`);
        const field = typeInfo.getFieldDef();
        const parent = typeInfo.getParentType();
        if (field && parent && (isObjectType(parent) || isInterfaceType(parent))) add(`${parent.name}.${field.name}(${argument.name}:)`);
      },
      ObjectField(node) {
        // TypeInfo has entered the field: its parent input type is the object's.
        const parent = getNamedType(typeInfo.getParentInputType());
        const field = isInputObjectType(parent) ? parent.getFields()[node.name.value] : undefined;
        if (parent && field?.deprecationReason != null) add(`${parent.name}.${field.name}`);
      },
      EnumValue() {
        const value = typeInfo.getEnumValue();
        const type = getNamedType(typeInfo.getInputType());
        if (value?.deprecationReason != null && type) add(`${type.name}.${value.name}`);
      },
    }),
  );
  const uses = new Set<string>();
  const seen = new Set<ASTNode>();
  const pending: ASTNode[] = [operation];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    for (const coordinate of usesOf.get(node) ?? []) uses.add(coordinate);
    for (const name of spreadsOf.get(node) ?? []) {
      const fragment = fragments.get(name);
      if (fragment) pending.push(fragment);
    }
  }
  return uses;
}

/** The name a coordinate's text uses: `Filter.sortBy` → `sortBy`, `Query.events(sortBy:)` → `sortBy`. */
function nameOf(coordinate: string): string {
  const argument = /\(([^:()]+):\)$/.exec(coordinate);
  return argument ? argument[1]! : coordinate.slice(coordinate.lastIndexOf('.') + 1);
}

/** Every deprecated coordinate of a schema (fields, arguments, input fields, enum values), sorted; introspection types aside. */
export function deprecatedCoordinates(schema: GraphQLSchema): string[] {
  const found: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (field.deprecationReason != null) found.push(`${type.name}.${field.name}`);
        for (const arg of field.args) if (arg.deprecationReason != null) found.push(`${type.name}.${field.name}(${arg.name}:)`);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) if (field.deprecationReason != null) found.push(`${type.name}.${field.name}`);
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) if (value.deprecationReason != null) found.push(`${type.name}.${value.name}`);
    }
  }
  for (const directive of schema.getDirectives()) {
    for (const arg of directive.args) if (arg.deprecationReason != null) found.push(`@${directive.name}(${arg.name}:)`);
  }
  return found.sort();
}
