type Child = Node | string | null | undefined | false;

/**
 * Creates an element with attributes and children. Text goes in as text nodes, never as HTML, so
 * titles and names from the API cannot inject markup.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | boolean | null | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value == null || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child != null && child !== false) element.append(child);
  return element;
}
