import { Kind, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/**
 * Names of the fields selected directly under a field, through inline fragments and fragment
 * spreads: lets a resolver do only the work the query asks for (facets are whole-set aggregates).
 */
export function selectedFieldNames(
  selectionSets: readonly (SelectionSetNode | undefined)[],
  fragments: Record<string, FragmentDefinitionNode>,
): Set<string> {
  const names = new Set<string>();
  const visit = (set: SelectionSetNode | undefined) => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) names.add(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else visit(fragments[selection.name.value]?.selectionSet);
    }
  };
  selectionSets.forEach(visit);
  return names;
}
