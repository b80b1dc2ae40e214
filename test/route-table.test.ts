import { describe, expect, it } from 'vitest';
import { routeOf } from '../src/route-table.js';

describe('route table', () => {
  it.each([
    ['/graphQL', 'graphql', '/graphQL', false],
    ['/graphql', 'graphql', '/graphql', false],
    ['/schema.graphql', 'schema', '/schema.graphql', false],
    ['/health', 'health', '/health', true],
    ['/ready', 'ready', '/ready', true],
    ['/metrics', 'metrics', '/metrics', true],
    ['/events.ics', 'feed', '/events.ics', false],
    ['/widget', 'widget', '/widget', false],
    ['/widget/widget.js', 'widget', '/widget/{asset}', false],
    ['/sandbox/3.9.0-18.3.1/graphiql.min.js', 'sandbox', '/sandbox/{asset}', false],
    ['/demo-pictures/concert/2-800x450.svg', 'demo_picture', '/demo-pictures/{picture}', false],
  ])('names %s the route %s, spans %s (probe: %s)', (path, name, template, probe) => {
    expect(routeOf(path)).toEqual({ name, template, probe });
  });

  it('has no route for any other path, so that no caller-chosen path becomes a label or a span name', () => {
    for (const path of ['/', '/graphQL/', '/GRAPHQL', '/healthz', '/events.ics/x', '/widgets', '/sandbox', '/no/such/path']) expect(routeOf(path)).toBeUndefined();
  });
});
