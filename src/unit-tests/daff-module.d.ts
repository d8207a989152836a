/** The part of daff (the table diff library dbt uses for unit tests) that mini-dbt calls. */
declare module 'daff' {
  type Cell = string | number | null;
  export class TableView {
    constructor(rows: Cell[][]);
  }
  export class CompareFlags {
    ordered: boolean;
  }
  interface Alignment {
    readonly __alignment: true;
  }
  export function compareTables(a: TableView, b: TableView, flags?: CompareFlags): { align(): Alignment };
  export class TableDiff {
    constructor(alignment: Alignment, flags: CompareFlags);
    hilite(output: TableView): boolean;
    hasDifference(): boolean;
  }
  export class TerminalDiffRender {
    render(table: TableView): string;
  }
  const daff: {
    TableView: typeof TableView;
    CompareFlags: typeof CompareFlags;
    compareTables: typeof compareTables;
    TableDiff: typeof TableDiff;
    TerminalDiffRender: typeof TerminalDiffRender;
  };
  export default daff;
}
