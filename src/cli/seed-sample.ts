import type { RunResult } from '../api/run.js';
import type { Session } from '../api/session.js';
import { openProjectWarehouse } from '../engine/open-warehouse.js';
import { line } from './terminal.js';
import { showTable } from './show-table.js';

/** How many rows `seed --show` prints of each seed (dbt prints the first rows of the loaded table). */
const SAMPLE_ROWS = 10;

/**
 * dbt's `seed --show`: after the load, each loaded seed's first rows as a
 * table, under `Random sample of table: <schema>.<name>` (dbt's wording),
 * read through a read-only connection.
 */
export function printSeedSamples(session: Session, result: Pick<RunResult, 'results'>): void {
  const seeds = result.results.filter((r) => r.resourceType === 'seed' && r.status === 'success');
  if (seeds.length === 0) return;
  const db = openProjectWarehouse(session.project, { readonly: true });
  try {
    for (const r of seeds) {
      const node = session.manifest.seeds.get(r.name);
      if (!node) continue;
      const statement = db.prepare<unknown[]>(`select * from ${r.relationName} limit ${SAMPLE_ROWS}`);
      line();
      line(`Random sample of table: ${node.schema}.${node.alias}`);
      line('-----------------------' + '-'.repeat(`${node.schema}.${node.alias}`.length));
      process.stdout.write(`${showTable(statement.columnNames(), statement.rows())}\n`);
    }
  } finally {
    db.close();
  }
}
