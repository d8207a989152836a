/** A `{% docs name %}...{% enddocs %}` block of a markdown file under the docs paths. */
export interface DocsBlock {
  readonly name: string;
  /** Project-relative path of the .md file (dbt's original_file_path). */
  readonly path: string;
  /** The path below the docs path it was found in (dbt's `path`). */
  readonly relativePath: string;
  /** The line of the `{% docs %}` tag. */
  readonly line: number;
  /** The text between the tags, trimmed (dbt's block_contents). */
  readonly contents: string;
}
