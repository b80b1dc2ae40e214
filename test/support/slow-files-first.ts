import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (15 s or more, `npm run test:timings` on 2026-12-07), slowest first. They
 * start first, so that a run never ends on one worker waiting for a long file while the other is done.
 * Vitest orders files by the durations of the last run on this machine when it has them; a fresh
 * checkout (CI) has none, and Vitest then orders by file size, which would start the one-minute CDN
 * test and the release test last.
 */
const SLOWEST_FIRST = [
  'test/cli/release-artifact.test.ts',
  'test/http/varnish-purge.test.ts',
  'test/cli/export.test.ts',
  'test/client/package.test.ts',
  'test/cli/help-and-usage.test.ts',
  'test/client/widget-demo.browser.test.ts',
  'test/db/read-replicas.test.ts',
  'test/http/tracing.test.ts',
  'test/cli/cli.test.ts',
  'test/http/hostile-input-generated.test.ts',
  'test/cli/serve-v8-flags.test.ts',
  'test/http/database-faults.test.ts',
  'test/cli/workers.test.ts',
  'test/client/widget-search.browser.test.ts',
  'test/http/fair-shares.test.ts',
  'test/read-model/equivalence.test.ts',
  'test/cli/serve.test.ts',
  'test/cli/data-dir-lock.test.ts',
  'test/schema/schema-check.test.ts',
  'test/http/cdn-purge.test.ts',
];

/** Vitest's order (projects in turn; within one, by the last run's durations or by size), the files above first. */
export default class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = SLOWEST_FIRST.indexOf(relative(spec.project.config.root, spec.moduleId));
      return at === -1 ? SLOWEST_FIRST.length : at;
    };
    // Within a project only: the projects keep Vitest's order.
    const position = new Map(sorted.map((spec, index) => [spec, index]));
    return sorted.sort((a, b) => {
      if (a.project !== b.project) return position.get(a)! - position.get(b)!;
      return rank(a) - rank(b) || position.get(a)! - position.get(b)!;
    });
  }
}
