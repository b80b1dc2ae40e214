/** PromQL's words that are not metric names: keywords, set and grouping operators, modifiers. */
const KEYWORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset', 'bool', 'atan2', 'inf', 'nan']);

/**
 * The metric names a PromQL expression selects: identifiers followed by `{` or used bare, after label
 * matchers, range and subquery brackets, strings and grouping clauses are taken out; a name followed by `(`
 * is a function or an aggregation, and left out with the keywords. Grafana's variables (`$job`,
 * `$__rate_interval`) only ever stand in matchers or ranges here, which are taken out first.
 */
export function promqlMetricNames(expr: string): Set<string> {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, ' {} ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\boffset\s+-?[\w$]+/g, ' ')
    .replace(/@\s*[\w.()]+/g, ' ');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/(?<![\w.$:])[a-zA-Z_:][a-zA-Z0-9_:]*(?![\w:])(\s*\()?/g)) {
    const [whole, call] = match;
    const name = whole.replace(/\s*\($/, '');
    if (call || KEYWORDS.has(name.toLowerCase())) continue;
    names.add(name);
  }
  return names;
}

/**
 * The metric families a scrape exports, as PromQL may name them: every `# TYPE` line's name, and for a
 * histogram (or summary) its `_bucket`, `_sum` and `_count` series.
 */
export function exportedMetricNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name!);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}
