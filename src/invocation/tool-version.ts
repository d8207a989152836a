/** mini-dbt's version, as `--version`, the log's first line and the artifacts give it (package.json's; a test keeps them equal). */
export const MINI_DBT_VERSION = '0.1.0';

/** The dbt version mini-dbt behaves as (`dbt_version` in templates, require-dbt-version checks). */
export const DBT_VERSION = '1.10.18';
