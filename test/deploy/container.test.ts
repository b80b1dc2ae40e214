import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { SERVE_MALLOC_ENV } from '../../src/cli/malloc-settings.js';
import { expectKnownSettings } from '../support/deploy-settings.js';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
const V8_COMMAND = ['node', '--max-semi-space-size=16', '--no-allocation-site-pretenuring', 'node_modules/event-calendar-api/bin/calendar.js', 'serve'];

/** A Dockerfile's instructions per stage, continuation lines joined, comments left out. */
function dockerfile(text: string): { from: string; instructions: { name: string; args: string }[] }[] {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  const stages: { from: string; instructions: { name: string; args: string }[] }[] = [];
  for (const line of lines) {
    const [, name, args] = /^(\w+)\s+(.*)$/.exec(line)!;
    if (name!.toUpperCase() === 'FROM') stages.push({ from: args!, instructions: [] });
    else stages.at(-1)!.instructions.push({ name: name!.toUpperCase(), args: args!.replace(/\s+/g, ' ') });
  }
  return stages;
}

/** A RUN line's shell commands (split at &&). */
const commands = (runs: string[]) => runs.flatMap((run) => run.split('&&').map((command) => command.trim()));

describe('deploy/container/Dockerfile', () => {
  const [build, runtime, ...more] = dockerfile(read('deploy/container/Dockerfile'));
  const all = (stage: typeof build, name: string) => stage!.instructions.filter((i) => i.name === name).map((i) => i.args);
  const last = (name: string) => all(runtime, name).at(-1);
  const releaseTest = read('test/cli/release-artifact.test.ts');

  it('has two stages: a build stage and a runtime stage on the same Node', () => {
    expect(more).toEqual([]);
    expect(build!.from).toMatch(/^node:24[-\w.]* AS build$/);
    expect(runtime!.from).toBe(build!.from.replace(/ AS build$/, ''));
  });

  it('builds the release with the commands CI and the release test run: npm ci (prepare builds dist/), npm pack', () => {
    expect(commands(all(build, 'RUN'))).toEqual(['npm ci --no-audit --no-fund', 'npm pack --pack-destination /release']);
    expect(releaseTest).toContain("npm(['pack', ");
  });

  it('installs only the packed tarball at run time, as the release test does (npm install --omit=dev into a folder of its own)', () => {
    const run = commands(all(runtime, 'RUN'));
    expect(run).toEqual([
      `echo '{ "private": true }' > package.json`,
      'npm install --omit=dev --omit=optional --no-audit --no-fund /release/event-calendar-api-*.tgz',
      'rm -rf /release',
      'npm cache clean --force',
    ]);
    // The release test's install: the same package.json, `npm install` with the same --omit parts, the tarball
    // (and --prefer-offline: the test's npm cache is full, the image's empty, so it changes nothing there).
    expect(releaseTest).toContain(`writeFile(join(folder, 'package.json'), '{ "private": true }\\n')`);
    expect(releaseTest).toContain("npm(['install', '--prefer-offline', ...omit.map((part) => `--omit=${part}`), tarball], folder)");
    expect(releaseTest).toContain("install(tarball, join(dir, 'lean'), ['dev', 'optional'])");
    // Nothing but the release reaches the runtime stage.
    expect(all(runtime, 'COPY')).toEqual(['--from=build /release/ /release/']);
    expect(last('WORKDIR')).toBe('/srv/calendar');
  });

  it('runs as a non-root user, the V8 flags in an exec-form CMD, SIGTERM to stop, a HEALTHCHECK on /health with node\'s fetch', () => {
    expect(last('USER')).toBe('node');
    expect(JSON.parse(last('CMD')!)).toEqual(V8_COMMAND);
    expect(read('docs/operating.md')).toContain(`CMD ${JSON.stringify(V8_COMMAND).replace(/","/g, '", "')}`);
    expect(last('STOPSIGNAL')).toBe('SIGTERM');
    const healthcheck = last('HEALTHCHECK')!;
    const [, exec] = /CMD (\[.*\])$/.exec(healthcheck)!;
    const [node, flag, script] = JSON.parse(exec!) as string[];
    expect([node, flag]).toEqual(['node', '-e']);
    expect(script).toContain('fetch(');
    expect(script).toContain('/health');
    expect(healthcheck).not.toMatch(/curl|wget/);
  });

  it('sets only settings src/config.ts knows, and serve\'s allocator setting', () => {
    const env = Object.fromEntries(all(runtime, 'ENV').flatMap((args) => args.split(' ').map((pair) => pair.split('=', 2) as [string, string])));
    expect(env).toEqual({ PORT: '4000', METRICS_PORT: '9464', MIGRATE: 'off', ...SERVE_MALLOC_ENV });
    expectKnownSettings(env, 'Dockerfile ENV');
  });
});

interface ComposeService {
  image?: string;
  ports?: string[];
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  stop_grace_period?: string;
  read_only?: boolean;
  volumes?: string[];
}

describe('deploy/container/compose.yaml', () => {
  const compose = parse(read('deploy/container/compose.yaml'), { merge: true }) as { services: Record<string, ComposeService> };
  const services = compose.services;
  const calendar = Object.entries(services).filter(([, service]) => service.image === 'event-calendar-api:local');
  // Compose's own interpolation (${NAME:?message}) is resolved before a container sees a value: a placeholder stands in.
  const resolved = (env: Record<string, string> = {}) => Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value.replace(/\$\{(\w+)(?::\?[^}]*)?\}/g, 'placeholder')]));

  it('runs two API nodes, PostgreSQL, Redis, the shipped Varnish edge and a one-shot migration', () => {
    expect(calendar.map(([name]) => name).sort()).toEqual(['api-1', 'api-2', 'migrate']);
    expect(services['postgres']?.image).toMatch(/^postgres:/);
    expect(services['redis']?.image).toMatch(/^redis:/);
    const edges = Object.values(services).filter((service) => service.volumes?.some((volume) => volume.startsWith('../varnish/default.vcl:')));
    expect(edges).toHaveLength(2);
    expect(services['migrate']!.command).toEqual(['node', 'node_modules/event-calendar-api/bin/calendar.js', 'migrate']);
  });

  it('starts the nodes after the migration completed, with MIGRATE=off, METRICS_PORT and a stop grace period longer than the drain', () => {
    for (const name of ['api-1', 'api-2']) {
      const node = services[name]!;
      expect(node.depends_on).toMatchObject({ migrate: { condition: 'service_completed_successfully' } });
      expect(node.environment).toMatchObject({ MIGRATE: 'off', METRICS_PORT: '9464' });
      expect(Number(/^(\d+)s$/.exec(node.stop_grace_period ?? '')?.[1])).toBeGreaterThan(5);
      expect(node.read_only).toBe(true);
    }
    expect(services['migrate']!.environment).toMatchObject({ DATABASE_SERVING_ROLE: 'calendar_serve' });
  });

  it("points each edge's copy of the shipped VCL at both nodes and lets the nodes' network purge it", () => {
    const network = (compose as { networks?: { default?: { ipam?: { config?: { subnet?: string }[] } } } }).networks?.default?.ipam?.config?.[0]?.subnet;
    expect(network).toMatch(/^\d+\.\d+\.\d+\.\d+\/\d+$/);
    const [address, bits] = network!.split('/');
    for (const edge of Object.values(services).filter((service) => service.volumes?.some((volume) => volume.startsWith('../varnish/default.vcl:')))) {
      // The edge's own command, run here on the shipped file (the paths of its container swapped for a temporary folder's).
      const [shell, flag, script] = edge.command!;
      expect([shell, flag]).toEqual(['sh', '-c']);
      const dir = mkdtempSync(join(tmpdir(), 'compose-edge-'));
      try {
        const made = script!.split(' && exec ')[0]!.replaceAll('/etc/varnish/shipped.vcl', fileURLToPath(new URL('../../deploy/varnish/default.vcl', import.meta.url))).replaceAll('/var/lib/varnish/', `${dir}/`);
        execFileSync('sh', ['-c', made]);
        const vcl = readFileSync(join(dir, 'default.vcl'), 'utf8');
        expect(/backend node_1 \{[^}]*\.host = "api-1";[^}]*\.port = "4000";/.exec(vcl)).not.toBeNull();
        expect(/backend node_2 \{[^}]*\.host = "api-2";[^}]*\.port = "4000";/.exec(vcl)).not.toBeNull();
        const purgers = /acl purgers \{([^}]*)\}/.exec(vcl)![1]!;
        expect(purgers).toContain(`"${address}"/${bits};`);
        expect(purgers).toContain('"127.0.0.1";');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    // The nodes purge the edges by their compose names, from that network.
    expect(services['api-1']!.environment?.['CDN_PURGE_URLS']).toBe('http://edge-1:6081/,http://edge-2:6081/');
  });

  it('sets only settings src/config.ts knows on the calendar\'s services', () => {
    for (const [name, service] of calendar) expectKnownSettings(resolved(service.environment), `compose service ${name}`);
  });
});
