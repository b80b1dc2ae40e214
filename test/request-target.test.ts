import { describe, expect, it } from 'vitest';
import { RequestTarget } from '../src/request-target.js';
import { routeOf } from '../src/route-table.js';

/** What the server read before RequestTarget: a parsed URL. */
function asUrlReadsIt(sent: string) {
  const url = URL.parse(sent, 'http://localhost');
  // Not a URL: the server answered 500 (a thrown parse); now no route, so a 404.
  if (!url) return { route: undefined };
  return { path: url.pathname, search: url.search, params: [...url.searchParams], route: routeOf(url.pathname) };
}

function asTargetReadsIt(sent: string) {
  const target = new RequestTarget(sent);
  if (!URL.parse(sent, 'http://localhost')) return { route: target.route };
  return { path: target.path, search: target.search, params: [...target.searchParams], route: target.route };
}

/** A small seeded generator (mulberry32), so a failure names a target that fails again. */
function randomOf(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('request target', () => {
  it.each([
    '/graphQL?query=%7B%20categories%20%7B%20id%20%7D%20%7D',
    '/graphQL?query={ categories { id } }',
    '/graphql?query=query+Page%28%24filter%3A+Filter%29&variables=%7B%22filter%22%3A%7B%7D%7D',
    '/graphQL?',
    '/graphQL?#x',
    '/graphQL#frag',
    '/health',
    '/',
    '*',
    '//graphQL',
    '/graphQL/../graphQL?query=x',
    '/./graphQL',
    '/%67raphQL',
    '/graphQL%2F',
    '/graphQL\\x',
    '/sandbox/3.9.0-18.3.1/graphiql.min.js',
    '/widget/widget.js',
    '/demo-pictures/concert/2-800x450.svg',
    '/events.ics?categories=CONCERT&key=abc',
    "/graphQL?query='quoted'&x=<y>",
    '/graphQL?q=å%C3%A5',
    'http://elsewhere.example/graphQL?query=x',
    '/graphQL?query=a"b',
    '//a:b/graphQL',
  ])('reads %s as URL parsing does', (sent) => {
    expect(asTargetReadsIt(sent)).toEqual(asUrlReadsIt(sent));
  });

  it('reads generated targets as URL parsing does', () => {
    const random = randomOf(43);
    const alphabet = ['/', '/', 'a', 'Q', '0', '-', '_', '.', '..', '%', '%2e', '%2F', '?', '&', '=', '+', '#', ' ', '"', "'", '<', '>', '{', '}', '~', '!', '$', '(', ';', ':', '@', '\\', 'å', '\t'];
    for (let n = 0; n < 5000; n++) {
      let sent = '/';
      const length = Math.floor(random() * 24);
      for (let i = 0; i < length; i++) sent += alphabet[Math.floor(random() * alphabet.length)];
      expect(asTargetReadsIt(sent), sent).toEqual(asUrlReadsIt(sent));
    }
  });

  it('keeps the path as sent, without its query string, for the access log', () => {
    expect(new RequestTarget('/graphQL?query=%7B%20categories%20%7B%20id%20%7D%20%7D').sentPath).toBe('/graphQL');
    expect(new RequestTarget('/graphQL/../health').sentPath).toBe('/graphQL/../health');
    expect(new RequestTarget(undefined).sentPath).toBe('/');
  });
});
