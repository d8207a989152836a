import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/engine/open-warehouse.js';
import { loadSession, run } from '../../src/index.js';
import { writeProject } from '../support/example-project.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('run on a connection its caller opened (run({ warehouse }), as backfill does)', () => {
  it('builds on it, records the ledger on it, and leaves it open for the caller, after a success and after a failure', async () => {
    dir = writeProject({
      'project.yml': 'name: p\ndatabase: w.db\n',
      'models/good.sql': "{{ config(materialized='table') }}select 1 as id union all select 2",
      'models/bad.sql': "{{ config(materialized='table') }}select * from no_such_table",
    });
    const session = loadSession({ projectDir: dir });
    const db = openWarehouse(join(dir, 'w.db'));
    try {
      const ok = await run({ session, warehouse: db, select: ['good'] });
      expect(ok.exitCode).toBe(0);
      // The caller's connection is still open: it reads what the run published and the run's ledger row.
      expect(db.all('select id from good order by id')).toEqual([{ id: 1 }, { id: 2 }]);
      expect(db.get('select status from _mini_dbt_runs where invocation_id = ?', ok.invocationId)).toEqual({ status: 'success' });

      const failed = await run({ session, warehouse: db, select: ['bad'] });
      expect(failed.exitCode).toBe(1);
      expect(db.get('select status from _mini_dbt_runs where invocation_id = ?', failed.invocationId)).toEqual({ status: 'error' });
      expect(db.value("select count(*) from sqlite_master where name = 'bad'")).toBe(0);
    } finally {
      db.close();
    }
  });
});
