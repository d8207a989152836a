/** dbt's name of its own macro package (the global project). */
export const GLOBAL_PROJECT = 'dbt';

/** mini-dbt's engine shims of package macros (`sqlite__get_tables_by_pattern_sql` for dbt_utils...): `mini_dbt_<engine>`. */
export const shimPackage = (engineName: string): string => `mini_dbt_${engineName}`;

import type { DispatchOrder } from '../project/project.js';

type Macro = (...args: unknown[]) => unknown;

/**
 * The macros of every package, as dbt's MacroNamespace resolves them: an
 * unqualified name is looked up in the package of the node being rendered,
 * then the root project, then dbt's global project; any package's macro is
 * reachable qualified (`dbt_utils.star`, `dbt.dateadd`). A macro of another
 * (non-root) package is not visible unqualified, as in dbt.
 */
export class MacroNamespaces {
  private readonly packages = new Map<string, Map<string, Macro>>();

  constructor(
    readonly rootPackage: string,
    private readonly dispatchOrders: readonly DispatchOrder[] = [],
    /** For each namespace, the macro names the engine shim serves (`dbt_utils: [union_relations, ...]`). */
    private readonly shimmed: Readonly<Record<string, readonly string[]>> = {},
  ) {
    this.declare(rootPackage);
    this.declare(GLOBAL_PROJECT);
  }

  /** A package known to the project (dispatch searches it), with or without macros. */
  declare(pkg: string): void {
    if (!this.packages.has(pkg)) this.packages.set(pkg, new Map());
  }

  /** Register `name` of `pkg`; returns false when the package already defines it. */
  add(pkg: string, name: string, macro: Macro): boolean {
    let macros = this.packages.get(pkg);
    if (!macros) this.packages.set(pkg, (macros = new Map()));
    if (macros.has(name)) return false;
    macros.set(name, macro);
    return true;
  }

  /** Every package with macros (the root project and dbt's included). */
  packageNames(): string[] {
    return [...this.packages.keys()];
  }

  /** Every macro name of every package. */
  allNames(): Set<string> {
    return new Set([...this.packages.values()].flatMap((m) => [...m.keys()]));
  }

  names(pkg: string): string[] {
    return [...(this.packages.get(pkg)?.keys() ?? [])];
  }

  /** A package's macros by name (the namespace object `dbt_utils` in templates). */
  namespace(pkg: string): Record<string, Macro> {
    const out = Object.create(null) as Record<string, Macro>;
    for (const [name, macro] of this.packages.get(pkg) ?? []) out[name] = macro;
    return out;
  }

  has(pkg: string): boolean {
    return this.packages.has(pkg);
  }

  /** An unqualified name as a node of `localPackage` sees it: its own package, the root project, dbt's. */
  resolve(name: string, localPackage: string = this.rootPackage): Macro | undefined {
    return this.packages.get(localPackage)?.get(name) ?? this.packages.get(this.rootPackage)?.get(name) ?? this.packages.get(GLOBAL_PROJECT)?.get(name);
  }

  /** dbt's get_from_package: null is the unqualified lookup. */
  fromPackage(pkg: string | null, name: string, localPackage?: string): Macro | undefined {
    if (pkg === null) return this.resolve(name, localPackage);
    const macros = this.packages.get(pkg);
    if (!macros) throw new Error(`Could not find package '${pkg}', is it installed?`);
    return macros.get(name);
  }

  /**
   * The packages adapter.dispatch searches for `namespace`: the root project's
   * `dispatch:` search order for it, else the root project then the
   * namespace when it is a known package, else the unqualified lookup.
   */
  searchPackages(namespace: string | undefined): (string | null)[] {
    if (namespace === undefined) return [null];
    const configured = this.dispatchOrders.find((d) => d.macroNamespace === namespace);
    if (configured) return [...configured.searchOrder];
    if (this.packages.has(namespace)) return [this.rootPackage, namespace];
    return [null];
  }

  /**
   * adapter.dispatch: for each package searched, `<engine>__name` then
   * `default__name`; the error lists every name tried, in dbt's words.
   * mini-dbt's engine shim stands in for the package that owns the
   * namespace: when that package has no `<engine>__name` of its own, the
   * shim's is tried before its `default__name` (as if the package shipped
   * it), so a project's own override, searched first, still wins.
   */
  dispatch(name: string, namespace: string | undefined, prefixes: readonly string[], localPackage?: string): Macro {
    const attempts: string[] = [];
    const shim = prefixes[0] === undefined ? undefined : this.packages.get(shimPackage(prefixes[0]));
    for (const pkg of this.searchPackages(namespace)) {
      for (const prefix of prefixes) {
        const candidate = `${prefix}__${name}`;
        const found = this.fromPackage(pkg, candidate, localPackage);
        attempts.push(pkg === null ? candidate : `${pkg}.${candidate}`);
        if (found) return found;
        const served = pkg !== null && pkg === namespace && prefix === prefixes[0] && (this.shimmed[pkg] ?? []).includes(name);
        const shimmed = served ? shim?.get(candidate) : undefined;
        if (shimmed) return shimmed;
      }
    }
    throw new Error(
      `In dispatch: No macro named '${name}' found within namespace: '${namespace ?? 'None'}'\n    Searched for: ${attempts.map((a) => `'${a}'`).join(', ')}`,
    );
  }
}
