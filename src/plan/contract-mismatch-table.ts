/** A column's name and its type as the mismatch table shows it. */
export interface ContractColumnType {
  readonly name: string;
  readonly type: string;
}

/**
 * dbt's ContractError message: the mismatches (a column in the SELECT only,
 * in the contract only, or in both with other types) sorted by column name,
 * as agate prints a table.
 */
export function contractMismatchTable(
  yaml: readonly ContractColumnType[],
  sql: readonly ContractColumnType[],
  typesMatch: (sqlColumn: ContractColumnType, yamlColumn: ContractColumnType) => boolean,
  same: (a: string, b: string) => boolean,
): string {
  const rows: [string, string, string, string][] = [];
  for (const s of sql) {
    const y = yaml.find((c) => same(c.name, s.name));
    if (!y) rows.push([s.name, s.type, '', 'missing in contract']);
    else if (!typesMatch(s, y)) rows.push([s.name, s.type, y.type, 'data type mismatch']);
  }
  for (const y of yaml) if (!sql.some((s) => same(s.name, y.name))) rows.push([y.name, '', y.type, 'missing in definition']);
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const header: [string, string, string, string] = ['column_name', 'definition_type', 'contract_type', 'mismatch_reason'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    'This model has an enforced contract that failed.',
    "Please ensure the name, data_type, and number of columns in your contract match the columns in your model's definition.",
    '',
    line(header),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...rows.map(line),
  ].join('\n');
}
