import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureProject } from '../../../src/parse/capture-project.js';
import { JinjaEnvironment } from '../../../src/compile/jinja-environment.js';
import type { Manifest } from '../../../src/compile/manifest.js';
import { loadWithParseCache, parseCachePath } from '../../../src/parse/parse-cache.js';
import { loadProject } from '../../../src/project/load-project.js';
import { writeProject } from '../../support/example-project.js';

const FILES = {
  'project.yml': 'name: shop\nvars:\n  region: eu\nmodels:\n  marts:\n    +materialized: table\n',
  'macros/helpers.sql': "{% macro region() %}'{{ var('region') }}'{% endmacro %}",
  'models/staging/stg_orders.sql': "select 1 as id, {{ region() }} as region from {{ ref('raw') }}",
  'models/marts/daily.sql': "{{ config(materialized='incremental', unique_key='id', tags=['x']) }}\nselect * from {{ ref('stg_orders') }}\n{% if is_incremental() %}join {{ ref('other') }} using (id){% endif %}",
  'models/marts/other.sql': "select 1 as id, '{{ env_var('SHOP_SUFFIX', 'none') }}' as suffix",
  'models/schema.yml': 'version: 2\nmodels:\n  - name: other\n    config:\n      tags: [y]\n',
  'seeds/raw.csv': 'id\n1\n',
};

/** Model files captured by pass 1 during `load`, rendered or statically (static-capture.ts); a cached model is not captured at all. */
function renderedBy(load: () => Manifest): { manifest: Manifest; rendered: string[] } {
  const spy = vi.spyOn(JinjaEnvironment.prototype, 'render');
  const statically = vi.spyOn(JinjaEnvironment.prototype, 'captureStatically');
  try {
    const manifest = load();
    return { manifest, rendered: [...new Set([...spy.mock.calls, ...statically.mock.calls].map((call) => call[0] as string))].sort() };
  } finally {
    spy.mockRestore();
    statically.mockRestore();
  }
}

const captured = (m: Manifest) => [...m.models.values()].map((n) => ({ name: n.name, refs: n.refs, sources: n.sources, config: n.config, dependsOn: n.dependsOn }));

let dir: string;
const load = (vars: Record<string, unknown> = {}) => renderedBy(() => loadWithParseCache(dir, { vars }).manifest);
const ALL = ['models/marts/daily.sql', 'models/marts/other.sql', 'models/staging/stg_orders.sql'];

afterEach(() => {
  delete process.env.SHOP_SUFFIX;
  rmSync(dir, { recursive: true, force: true });
});

describe('the parse cache', () => {
  it('renders every model once, then reuses every capture while nothing changed, with the same result', () => {
    dir = writeProject(FILES);
    const first = load();
    expect(first.rendered).toEqual(ALL);
    expect(existsSync(parseCachePath(loadProject(dir)))).toBe(true);
    const second = load();
    expect(second.rendered).toEqual([]);
    expect(captured(second.manifest)).toEqual(captured(first.manifest));
    expect(captured(second.manifest)).toEqual(captured(captureProject(loadProject(dir))));
    expect(second.manifest.models.get('daily')?.refs).toEqual(['stg_orders', 'other']);
  });

  it('keeps the macro names, so a load it serves compiles no macro (the environment is built on first use)', () => {
    dir = writeProject(FILES);
    load();
    // Every JinjaEnvironment compiles the project's macros in its constructor.
    const compiled = vi.spyOn(JinjaEnvironment.prototype as unknown as { loadMacros(): void }, 'loadMacros');
    try {
      const { manifest } = loadWithParseCache(dir);
      expect(compiled).not.toHaveBeenCalled();
      expect(manifest.macroNames).toEqual(['region']);
      expect(manifest.jinja.macroNames).toEqual(['region']);
      expect(compiled).toHaveBeenCalledTimes(1);
    } finally {
      compiled.mockRestore();
    }
  });

  it('renders again only the model whose file changed', () => {
    dir = writeProject(FILES);
    load();
    writeFileSync(join(dir, 'models/staging/stg_orders.sql'), "select 2 as id from {{ ref('raw') }}");
    expect(load().rendered).toEqual(['models/staging/stg_orders.sql']);
    expect(load().rendered).toEqual([]);
  });

  it.each([
    ['a macro', () => writeFileSync(join(dir, 'macros/helpers.sql'), "{% macro region() %}'us'{% endmacro %}")],
    ['the project file', () => writeFileSync(join(dir, 'project.yml'), FILES['project.yml'].replace('eu', 'us'))],
    ['a property yml', () => writeFileSync(join(dir, 'models/schema.yml'), FILES['models/schema.yml'].replace('[y]', '[z]'))],
    ['an env var a template reads', () => (process.env.SHOP_SUFFIX = 'b')],
  ])('renders everything again when %s changes', (_, change) => {
    dir = writeProject(FILES);
    load();
    change();
    expect(load().rendered).toEqual(ALL);
  });

  it('under other --vars renders again only the models whose render read a var that changed (through a macro too)', () => {
    dir = writeProject(FILES);
    load();
    // stg_orders reads var('region') through the region() macro; daily and other read no var.
    expect(load({ region: 'us' }).rendered).toEqual(['models/staging/stg_orders.sql']);
    expect(load({ region: 'us' }).rendered).toEqual([]);
    expect(load({ region: 'us', unrelated: 1 }).rendered).toEqual([]);
    expect(load().rendered).toEqual(['models/staging/stg_orders.sql']);
    expect(load({ region: 'eu' }).rendered).toEqual([]); // the project's value, given on the command line: the same value
  });

  it('a config() that reads var() follows the var, and keys its stored capture on the values read (set or not)', () => {
    dir = writeProject({ ...FILES, 'models/m.sql': "{{ config(materialized=var('mat', 'table'), alias=var('m_alias', none)) }}select 1 as x" });
    const materialized = (manifest: Manifest) => manifest.models.get('m')?.config.materialized;
    const first = load({ mat: 'view' });
    expect(materialized(first.manifest)).toBe('view');
    const second = load({ mat: 'table' });
    expect(second.rendered).toEqual(['models/m.sql']);
    expect(materialized(second.manifest)).toBe('table');
    const third = load({ mat: 'table' });
    expect(third.rendered).toEqual([]);
    expect(materialized(third.manifest)).toBe('table');
    expect(load({ mat: 'view' }).rendered).toEqual(['models/m.sql']);
    // A var read but not set is part of the key: setting it renders the model again.
    const aliased = load({ mat: 'view', m_alias: 'mm' });
    expect(aliased.rendered).toEqual(['models/m.sql']);
    expect(aliased.manifest.models.get('m')?.alias).toBe('mm');
    expect(load({ mat: 'view', m_alias: 'mm' }).manifest.models.get('m')?.alias).toBe('mm');
    const stored = JSON.parse(readFileSync(parseCachePath(loadProject(dir)), 'utf8')) as { models: Record<string, { vars?: Record<string, string> }> };
    expect(stored.models.m?.vars).toEqual({ mat: '"view"', m_alias: '"mm"' });
    expect(stored.models.stg_orders?.vars).toEqual({ region: '"eu"' });
    expect(stored.models.daily?.vars).toBeUndefined();
  });

  it('a var read only under is_incremental() keys the capture too (incremental models are captured both ways)', () => {
    dir = writeProject({
      ...FILES,
      'models/inc.sql': "{{ config(materialized='incremental') }}select 1 as x{% if is_incremental() %} from {{ ref(var('upstream', 'daily')) }}{% endif %}",
    });
    expect(load().manifest.models.get('inc')?.refs).toEqual(['daily']);
    const changed = load({ upstream: 'other' });
    expect(changed.rendered).toEqual(['models/inc.sql']);
    expect(changed.manifest.models.get('inc')?.refs).toEqual(['other']);
  });

  it('never stores a model that reaches for modules.*, and ignores a broken cache file', () => {
    dir = writeProject({ ...FILES, 'models/clock.sql': "{{ config(alias='clock_' ~ modules.datetime.date(2026, 1, 2).year) }}select 1 as x" });
    load();
    expect(load().rendered).toEqual(['models/clock.sql']);
    writeFileSync(parseCachePath(loadProject(dir)), '{not json');
    expect(load().rendered).toHaveLength(4);
  });
});
