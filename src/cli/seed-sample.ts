import type { RunResult } from '../api/run.js';
import type { Session } from '../api/session.js';
import { openProjectWarehouse } from '../engine/open-warehouse.js';
import { line } from './terminal.js';
import { showTable } from './show-table.js';

/** How many rows `seed --show` prints of each seed (dbt prints the first rows of the loaded table). */
const SAMPLE_ROWS = 10;

/**
 * dbt's `seed --show`: after the load, each loaded seed's rows as a table
 * (every column; a last row of `...` when there are more than ten), under
 * `Random sample of table: <schema>.<name>` (dbt's wording) and a rule as
 * long, then an empty line, read through a read-only connection. dbt shows
 * ten rows in a random order; these are the table's first ten, so the same
 * load prints the same sample.
 */
export function printSeedSamples(session: Session, result: Pick<RunResult, 'results'>): void {
  const seeds = result.results.filter((r) => r.resourceType === 'seed' && r.status === 'success');
  if (seeds.length === 0) return;
  const db = openProjectWarehouse(session.project, { readonly: true });
  try {
    for (const r of seeds) {
      const node = session.manifest.seeds.get(r.name);
      if (!node) continue;
      // One row past the sample says whether agate would mark the table as cut.
      const statement = db.prepare<unknown[]>(`select * from ${r.relationName} limit ${SAMPLE_ROWS + 1}`);
      const rows = statement.rows();
      const header = `Random sample of table: ${node.schema}.${node.alias}`;
      line();
      line(header);
      line('-'.repeat(header.length));
      process.stdout.write(`${showTable(statement.columnNames(), rows.slice(0, SAMPLE_ROWS), { maxColumns: Infinity, truncated: rows.length > SAMPLE_ROWS, csvTypes: true })}\n`);
      line();
    }
  } finally {
    db.close();
  }
}
