import { describe, expect, it } from 'vitest';
import { run } from '../../../src/api/run.js';
import { tableRows } from '../../support/warehouse-rows.js';
import { writeProject } from '../../support/example-project.js';

/** dbt 1.10's custom configs under meta: config.meta_get / meta_require read them, config.get does not (it warns). */
describe('config.get, config.meta_get, config.meta_require', () => {
  const files = {
    'project.yml': 'name: shop\ndatabase: warehouse.db\n',
    'models/schema.yml': 'models:\n  - name: m\n    config:\n      materialized: table\n      meta:\n        owner_team: finance\n',
  };

  it('meta_get reads meta (else its default), config.get returns its default for a key only under meta and says so once', async () => {
    const dir = writeProject({
      ...files,
      'models/m.sql': "select '{{ config.meta_get('owner_team', 'none') }}' as a, '{{ config.meta_get('missing', default='dflt') }}' as b, "
        + "'{{ config.get('owner_team', 'fallback') }}' as c, '{{ config.get('materialized') }}' as d, '{{ config.meta_require('owner_team') }}' as e\n",
    });
    const logs: string[] = [];
    const result = await run({ projectDir: dir, writeArtifacts: false, onEvent: (e) => { if (e.type === 'log') logs.push(e.message); } });
    expect(result.exitCode).toBe(0);
    expect(tableRows(dir, 'm')).toEqual([{ a: 'finance', b: 'dflt', c: 'fallback', d: 'table', e: 'finance' }]);
    expect(logs.filter((l) => l.includes("config.get('owner_team')"))).toHaveLength(1);
    expect(logs.join('\n')).toContain("use config.meta_get('owner_team')");
  });

  it('meta_require fails the model when the key is not under meta', async () => {
    const dir = writeProject({ ...files, 'models/m.sql': "select '{{ config.meta_require('cost_center') }}' as a\n" });
    const result = await run({ projectDir: dir, writeArtifacts: false });
    expect(result.exitCode).toBe(1);
    expect(result.results[0]!.message).toContain("model 'm' requires meta config 'cost_center'");
  });
});
