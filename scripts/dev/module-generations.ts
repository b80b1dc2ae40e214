import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Module generations for `npm run dev`: the service's compiled modules (dist/) are imported once, and
 * those a change reaches are imported again as new module instances (`dist/x.js?generation=N`) while
 * every module the change does not reach stays the one instance the running service holds (the
 * database, the read model, the HTTP server). A resolve hook (node:module `registerHooks`, in this
 * thread) learns who imports whom as the modules load, and adds to each module's URL the generation
 * of its last change.
 */
export class ModuleGenerations {
  /** A module's path → the modules that import it (paths, without a generation). */
  private readonly importers = new Map<string, Set<string>>();
  /** A module's path → the generation it is imported at now (absent: its first instance). */
  private readonly generationOf = new Map<string, number>();
  private generation = 0;

  /** `within`: the folder whose modules are tracked (dist/); nothing else is touched. */
  constructor(private readonly within: string) {
    registerHooks({
      resolve: (specifier, context, nextResolve) => {
        const resolved = nextResolve(specifier, context);
        if (!resolved.url.startsWith('file:')) return resolved;
        const path = pathOf(resolved.url);
        if (!path.startsWith(this.within)) return resolved;
        if (context.parentURL?.startsWith('file:')) {
          const importer = pathOf(context.parentURL);
          let set = this.importers.get(path);
          if (!set) this.importers.set(path, (set = new Set()));
          set.add(importer);
        }
        const generation = this.generationOf.get(path);
        return generation === undefined ? resolved : { ...resolved, url: `${resolved.url.split('?')[0]}?generation=${generation}` };
      },
    });
  }

  /** Whether `path` was imported (by anything this hook saw). */
  loaded(path: string): boolean {
    return this.importers.has(path);
  }

  /**
   * The modules to import again when `changed` changed: they and every module that imports them,
   * transitively, up to `boundary` (the module the caller imports again itself). `reachesPast` is the
   * first of them that something outside the tracked folder imports (the host: a module the running
   * service was started from, whose instance would go on using the old code): then only a restart
   * applies the change.
   */
  reach(changed: readonly string[], boundary: string): { modules: Set<string>; reachesPast: string | undefined } {
    const modules = new Set<string>();
    const pending = changed.filter((path) => this.loaded(path) || path === boundary);
    let reachesPast: string | undefined;
    for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
      if (modules.has(path)) continue;
      modules.add(path);
      if (path === boundary) continue;
      for (const importer of this.importers.get(path) ?? []) {
        if (importer.startsWith(this.within)) pending.push(importer);
        else reachesPast ??= path;
      }
    }
    return { modules, reachesPast };
  }

  /** Starts a new generation for `modules`; returns the URL to import `entry` at. */
  advance(modules: Iterable<string>, entry: string): string {
    this.generation += 1;
    for (const path of modules) this.generationOf.set(path, this.generation);
    this.generationOf.set(entry, this.generation);
    return `file://${entry}?generation=${this.generation}`;
  }
}

function pathOf(url: string): string {
  return fileURLToPath(url.split('?')[0] ?? url);
}
