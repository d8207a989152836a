import { describe, expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { forEachEngine } from '../support/engine-under-test.js';

/**
 * Disabled sources, after dbt-core's tests/functional/sources/test_source_configs.py
 * (enabled: false on a table, on a source, in the project file's sources: tree): a
 * disabled source table is no node (ls does not list it), and a model that reads one
 * is refused before anything runs.
 */
forEachEngine((engine) => {
  const onEngine = (files: Readonly<Record<string, string>>, name = 'conformance') => conformanceProject(files, name, { engine });

  describe('sources with enabled: false', () => {
    it('a table, a whole source and a project-file entry disabled; reading one is an error naming it', () => {
      const sources = `sources:
  - name: raw
    schema: "{{ target.schema }}"
    tables:
      - name: orders
      - name: refunds
        config:
          enabled: false
  - name: old
    schema: "{{ target.schema }}"
    config:
      enabled: false
    tables:
      - name: legacy
  - name: crm
    schema: "{{ target.schema }}"
    tables:
      - name: customers
`;
      const p = onEngine({
        'dbt_project.yml': "name: conformance\nversion: '1.0'\nprofile: default\nsources:\n  conformance:\n    crm:\n      +enabled: false\n",
        'models/sources.yml': sources,
        'models/reads_orders.sql': "select * from {{ source('raw', 'orders') }}\n",
      });
      const ls = p.dbt(['ls', '--resource-type', 'source']);
      expect(ls.code, ls.stderr).toBe(0);
      expect(ls.stdout.trim().split('\n')).toEqual(['source:conformance.raw.orders']);
      p.write('models/reads_refunds.sql', "select * from {{ source('raw', 'refunds') }}\n");
      const out = p.dbt(['ls']);
      expect(out.code).toBe(2);
      expect(out.stderr).toContain("models/reads_refunds.sql:1: model 'reads_refunds' depends on a source named 'raw.refunds' which is disabled");
    });
  });
});
