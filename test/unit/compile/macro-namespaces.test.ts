import { describe, expect, it } from 'vitest';
import { MacroNamespaces, shimPackage } from '../../../src/compile/macro-namespaces.js';

const macro = (label: string) => Object.assign(() => label, { label });
const labelOf = (m: unknown) => (m as { label: string } | undefined)?.label;

function namespaces(dispatch: ConstructorParameters<typeof MacroNamespaces>[1] = []): MacroNamespaces {
  const ns = new MacroNamespaces('root', dispatch, { utils: ['tables'] });
  ns.add('dbt', 'dateadd', macro('dbt.dateadd'));
  ns.add('dbt', 'default__dateadd', macro('dbt.default__dateadd'));
  ns.add('utils', 'star', macro('utils.star'));
  ns.add('utils', 'default__tables', macro('utils.default__tables'));
  ns.add('utils', 'default__greet', macro('utils.default__greet'));
  ns.add('utils', 'sqlite__greet', macro('utils.sqlite__greet'));
  ns.add(shimPackage('sqlite'), 'sqlite__tables', macro('shim.sqlite__tables'));
  return ns;
}

describe("MacroNamespaces: dbt's macro namespace and dispatch search", () => {
  it('an unqualified name: the node\'s own package, then the root project, then dbt\'s; another package\'s only qualified', () => {
    const ns = namespaces();
    ns.add('root', 'dateadd', macro('root.dateadd'));
    ns.add('utils', 'dateadd', macro('utils.dateadd'));
    expect(labelOf(ns.resolve('dateadd'))).toBe('root.dateadd');
    expect(labelOf(ns.resolve('dateadd', 'utils'))).toBe('utils.dateadd');
    expect(labelOf(ns.resolve('default__dateadd'))).toBe('dbt.default__dateadd');
    expect(ns.resolve('star')).toBeUndefined();
    expect(labelOf(ns.resolve('star', 'utils'))).toBe('utils.star');
  });

  it('dispatch: root then the namespace, engine prefix then default__ in each; a root override wins over the package', () => {
    const ns = namespaces();
    expect(labelOf(ns.dispatch('greet', 'utils', ['sqlite', 'default']))).toBe('utils.sqlite__greet');
    ns.add('root', 'default__greet', macro('root.default__greet'));
    expect(labelOf(ns.dispatch('greet', 'utils', ['sqlite', 'default']))).toBe('root.default__greet');
  });

  it("the engine shim stands in for the namespace's own engine macro, before its default__, never before the root's", () => {
    const ns = namespaces();
    expect(labelOf(ns.dispatch('tables', 'utils', ['sqlite', 'default']))).toBe('shim.sqlite__tables');
    // Only for the names it serves in that namespace.
    ns.add('other', 'default__tables', macro('other.default__tables'));
    expect(labelOf(ns.dispatch('tables', 'other', ['sqlite', 'default']))).toBe('other.default__tables');
    expect(labelOf(ns.dispatch('tables', 'utils', ['postgres', 'default']))).toBe('utils.default__tables');
    ns.add('root', 'default__tables', macro('root.default__tables'));
    expect(labelOf(ns.dispatch('tables', 'utils', ['sqlite', 'default']))).toBe('root.default__tables');
  });

  it("the root project's dispatch: search_order replaces [root, namespace]; an unknown namespace searches unqualified", () => {
    const ns = namespaces([{ macroNamespace: 'dbt', searchOrder: ['utils', 'dbt'] }]);
    ns.add('utils', 'default__dateadd', macro('utils.default__dateadd'));
    expect(labelOf(ns.dispatch('dateadd', 'dbt', ['sqlite', 'default']))).toBe('utils.default__dateadd');
    expect(ns.searchPackages('farm_utils')).toEqual([null]);
    expect(() => ns.dispatch('cowsay', 'farm_utils', ['sqlite', 'default'])).toThrow(
      "In dispatch: No macro named 'cowsay' found within namespace: 'farm_utils'\n    Searched for: 'sqlite__cowsay', 'default__cowsay'",
    );
  });

  it('a search order naming a package that is not installed says so', () => {
    const ns = namespaces([{ macroNamespace: 'utils', searchOrder: ['missing_pkg', 'utils'] }]);
    expect(() => ns.dispatch('greet', 'utils', ['sqlite', 'default'])).toThrow("Could not find package 'missing_pkg', is it installed?");
  });

  it('one package may not define a name twice; two packages may', () => {
    const ns = namespaces();
    expect(ns.add('utils', 'star', macro('again'))).toBe(false);
    expect(ns.add('other', 'star', macro('other.star'))).toBe(true);
  });
});
