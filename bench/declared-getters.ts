/**
 * What the Event fields declared in src/fields cost a page of nodes: an EventNode's stored fields are
 * getters made from their declarations (`shownGetters`), and graphql-jit reads each as a property, one
 * named load per field of its compiled query. Timed against getters written out by hand (the class
 * event-node.ts had before the declarations: one `get field() { return this.node.event.column; }` each)
 * and against getters made from one closure (the first version: one inline cache for two dozen
 * names), in turns, in one process, pinned to one core. Each figure: milliseconds to read every shown
 * field of 1 000 nodes, median of BENCH_ROUNDS rounds after warm-up.
 *
 *   taskset -c 1 npx tsx bench/declared-getters.ts
 */
import { EVENT_FIELDS } from '../src/fields/calendar-fields.js';
import { shownGetters } from '../src/fields/field-declaration.js';

type Source = { readonly node: { readonly event: object } };
type NodeClass = new (node: { event: object }) => object;

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 30);
const shown = Object.values(EVENT_FIELDS).flatMap((field) => (field.kind === 'stored' && field.api !== null ? [[field.api, field.column] as const] : []));

// eslint-disable-next-line @typescript-eslint/no-implied-eval
const byHandSource = new Function(
  `return class ByHand { constructor(node) { this.node = node; } ${shown.map(([api, column]) => `get ${api}() { return this.node.event.${column}; }`).join('\n')} }`,
) as () => NodeClass;
const ByHand = byHandSource();

abstract class OneClosure {
  constructor(readonly node: { event: object }) {}
}
for (const [api, column] of shown) {
  Object.defineProperty(OneClosure.prototype, api, {
    get(this: Source) {
      return (this.node.event as Record<string, unknown>)[column];
    },
  });
}
class OneClosureNode extends OneClosure {}

class Declared extends shownGetters(EVENT_FIELDS, (self: Source) => self.node.event) {
  constructor(readonly node: { event: object }) {
    super();
  }
}

const rows = Array.from({ length: 1000 }, (_, i) => Object.fromEntries(shown.map(([, column], k) => [column, `${i}-${k}`])));
// What graphql-jit compiles for a query selecting every shown field.
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const readAll = new Function('node', `return [${shown.map(([api]) => `node.${api}`).join(', ')}];`) as (node: object) => unknown[];

function page(Node: NodeClass): number {
  let read = 0;
  for (const event of rows) read += readAll(new Node({ event })).length;
  return read;
}

const variants: [string, NodeClass][] = [
  ['written by hand', ByHand],
  ['declared (shownGetters)', Declared],
  ['one closure', OneClosureNode],
];
const times = new Map<string, number[]>(variants.map(([name]) => [name, []]));
const warmUp = 10;
for (let round = 0; round < warmUp + rounds; round++) {
  const order = round % 2 === 0 ? variants : [...variants].reverse();
  for (const [name, Node] of order) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < 50; i++) page(Node);
    if (round >= warmUp) times.get(name)!.push(Number(process.hrtime.bigint() - start) / 1e6 / 50);
  }
}
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`${shown.length} shown fields, 1 000 nodes, ms per page (median of ${rounds} rounds):`);
for (const [name] of variants) console.log(`  ${name.padEnd(24)} ${median(times.get(name)!).toFixed(3)}`);
