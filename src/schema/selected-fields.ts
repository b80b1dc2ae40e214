import { Kind, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/** Calls `visit` for each field selected directly under a field, through inline fragments and spreads. */
function forEachSelectedField(
  selectionSets: readonly (SelectionSetNode | undefined)[],
  fragments: Record<string, FragmentDefinitionNode>,
  visit: (field: FieldNode) => void,
): void {
  for (const set of selectionSets) visitFields(set, fragments, visit);
}

function visitFields(set: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>, visit: (field: FieldNode) => void): void {
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD) visit(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) visitFields(selection.selectionSet, fragments, visit);
    else visitFields(fragments[selection.name.value]?.selectionSet, fragments, visit);
  }
}

/**
 * Names of the fields selected directly under a field: lets a resolver do only the work the query
 * asks for (facets are whole-set aggregates).
 */
export function selectedFieldNames(
  selectionSets: readonly (SelectionSetNode | undefined)[],
  fragments: Record<string, FragmentDefinitionNode>,
): Set<string> {
  const names = new Set<string>();
  forEachSelectedField(selectionSets, fragments, (field) => names.add(field.name.value));
  return names;
}

/** The selection sets of the fields named `name` selected directly under a field. */
export function selectionSetsOf(
  name: string,
  selectionSets: readonly (SelectionSetNode | undefined)[],
  fragments: Record<string, FragmentDefinitionNode>,
): SelectionSetNode[] {
  const found: SelectionSetNode[] = [];
  forEachSelectedField(selectionSets, fragments, (field) => {
    if (field.name.value === name && field.selectionSet) found.push(field.selectionSet);
  });
  return found;
}
