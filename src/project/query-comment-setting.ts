import { ProjectError } from '../errors/project-error.js';

/**
 * dbt's `query-comment` (dbt_project.yml): the comment put on every statement mini-dbt sends
 * to the warehouse for the project. `comment` is a template (rendered per node, with `node` and
 * `connection_name`), `DEFAULT_QUERY_COMMENT` when the project says nothing, and undefined when
 * the project turned it off (`query-comment: null` or `''`, as dbt's _query_comment_from_cfg).
 * `append` puts it after the statement instead of before (dbt's default on Snowflake only);
 * `jobLabel` is BigQuery's and read by no engine here.
 */
export interface QueryCommentSetting {
  readonly comment: string | undefined;
  readonly append: boolean;
  readonly jobLabel: boolean;
}

/**
 * dbt's DEFAULT_QUERY_COMMENT (dbt-adapters' contracts/connection.py): a JSON object with app,
 * dbt_version, profile_name, target_name and, for a node, its node_id (else connection_name).
 * render-query-comment.ts writes the same JSON without rendering this text when it is the comment.
 */
export const DEFAULT_QUERY_COMMENT = `
{%- set comment_dict = {} -%}
{%- do comment_dict.update(
    app='dbt',
    dbt_version=dbt_version,
    profile_name=target.get('profile_name'),
    target_name=target.get('target_name'),
) -%}
{%- if node is not none -%}
  {%- do comment_dict.update(
    node_id=node.unique_id,
  ) -%}
{% else %}
  {# in the node context, the connection name is the node_id #}
  {%- do comment_dict.update(connection_name=connection_name) -%}
{%- endif -%}
{{ return(tojson(comment_dict)) }}
`;

const DICT_KEYS = ['comment', 'append', 'job-label'];

/**
 * The project file's `query-comment` value (already checked to be absent, null, a string or a
 * mapping) as a setting. A mapping's keys are dbt's: comment (default: dbt's JSON comment),
 * append (false), job-label (false); anything else is E199.
 */
export function queryCommentSetting(value: unknown, file: string, line: number | undefined): QueryCommentSetting {
  const off = { comment: undefined, append: false, jobLabel: false };
  if (value === undefined) return { ...off, comment: DEFAULT_QUERY_COMMENT };
  if (value === null || value === '') return off;
  if (typeof value === 'string') return { ...off, comment: value };
  const entry = value as Record<string, unknown>;
  const bad = (why: string): ProjectError => new ProjectError(`invalid query-comment in ${file.split(/[\\/]/).pop()}: ${why}`, {
    location: { file, ...(line !== undefined ? { line } : {}) },
    hint: "query-comment is a string, or a mapping with comment (a string), append (true or false) and job-label (true or false), as in dbt",
  });
  const unknown = Object.keys(entry).filter((k) => !DICT_KEYS.includes(k));
  if (unknown.length > 0) throw bad(`unexpected key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')}; expected comment, append, job-label`);
  const comment = entry.comment;
  if (comment !== undefined && comment !== null && typeof comment !== 'string') throw bad(`comment must be a string, got ${JSON.stringify(comment)}`);
  for (const key of ['append', 'job-label']) {
    if (entry[key] !== undefined && entry[key] !== null && typeof entry[key] !== 'boolean') throw bad(`${key} must be true or false, got ${JSON.stringify(entry[key])}`);
  }
  return {
    comment: comment === undefined ? DEFAULT_QUERY_COMMENT : comment === null || comment === '' ? undefined : comment,
    append: entry.append === true,
    jobLabel: entry['job-label'] === true,
  };
}
