import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';

/**
 * `parse` as dbt's: the whole project loaded and checked, target/manifest.json
 * written, the warehouse never touched (dbt-core tests/functional/.. parse
 * writes the manifest; a parse error is the command's error).
 */
describe('parse', () => {
  it('writes target/manifest.json with every node and touches no warehouse', () => {
    const p = conformanceProject({
      'seeds/people.csv': 'id,name\n1,a\n',
      'models/staging/stg_people.sql': "select * from {{ ref('people') }}\n",
      'models/schema.yml': 'models:\n  - name: stg_people\n    columns:\n      - name: id\n        data_tests: [unique]\n',
    }, 'shop');
    const r = p.dbt(['parse']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Found 1 model, 1 data test, 1 seed');
    expect(r.stdout).toContain('Wrote target/manifest.json');
    const manifest = JSON.parse(readFileSync(join(p.dir, 'target/manifest.json'), 'utf8')) as { nodes: Record<string, { fqn: string[] }>; parent_map: Record<string, string[]> };
    expect(manifest.nodes['model.shop.stg_people']!.fqn).toEqual(['shop', 'staging', 'stg_people']);
    expect(manifest.parent_map['model.shop.stg_people']).toEqual(['seed.shop.people']);
    expect(Object.keys(manifest.nodes).some((id) => id.startsWith('test.shop.unique_stg_people_id'))).toBe(true);
    expect(existsSync(join(p.dir, 'warehouse.db'))).toBe(false);
  });

  it('a parse error is the command\'s error: one message with file:line, exit 2, no manifest', () => {
    const p = conformanceProject({ 'models/bad.sql': "select * from {{ ref('nowhere') }}\n" }, 'shop');
    const r = p.dbt(['parse']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("models/bad.sql:1: model 'bad' depends on a node named 'nowhere' which was not found");
    expect(existsSync(join(p.dir, 'target/manifest.json'))).toBe(false);
  });
});
