import { DBT_VERSION } from '../invocation/tool-version.js';
import { ProjectError, isProjectError } from '../errors/project-error.js';
import type { RunContext } from '../invocation/run-context.js';
import type { QueryComment } from '../engine/query-comment-connection.js';
import { DEFAULT_QUERY_COMMENT } from '../project/query-comment-setting.js';
import { tojson } from './jinja/filters/json-filters.js';
import type { Manifest } from './manifest.js';
import { operationRenderState } from './operation-render-state.js';

/** What the comment's template may read of the node a statement is for (dbt passes the node itself). */
export interface QueryCommentNode {
  readonly uniqueId: string;
  readonly name: string;
  readonly resourceType: string;
  readonly alias?: string;
  readonly schema?: string;
  readonly fqn?: readonly string[];
  readonly file?: { readonly path: string };
  readonly config?: object;
  /** The typed config, where the node has one (its tags are read from it). */
  readonly settings?: object;
  readonly package?: string;
}

/**
 * The project's query comment for the statements of `node` (none: the run's own statements, dbt's
 * connection named `connectionName`, 'master' for hooks and the run's setup), rendered as dbt's
 * MacroQueryStringSetter does: the comment is the body of
 * `{% macro query_comment_macro(connection_name, node) %}` (so return() gives its value), with the
 * project's macros, target, dbt_version, var, env_var and the run's invocation_id in reach; its
 * text trimmed. Undefined when the project has none (query-comment: null or ''). dbt's default
 * comment is written directly, as its template would render it (no render per node).
 *
 * A comment holding `*\/` is refused (E195), as dbt refuses it; a template that fails to render is
 * E200, naming query-comment. The run's own comment is rendered first, so either stops the command
 * before its first statement, as in dbt; one that fails only for a node fails that node (run-node.ts).
 */
export function renderQueryComment(manifest: Manifest, node: QueryCommentNode | undefined, connectionName: string, run?: RunContext): QueryComment | undefined {
  const setting = manifest.project.queryComment;
  if (!setting || setting.comment === undefined) return undefined;
  const text = setting.comment === DEFAULT_QUERY_COMMENT ? defaultComment(manifest, node, connectionName) : renderTemplate(manifest, setting.comment, node, connectionName, run);
  if (text.includes('*/')) {
    throw new ProjectError(`query comment contains illegal value "*/": ${text.trim()}`, {
      location: { file: manifest.project.configFile },
      hint: 'the comment goes inside /* ... */: it cannot hold */ itself (dbt refuses it too)',
    });
  }
  return text.trim() === '' ? undefined : { text, append: setting.append };
}

function defaultComment(manifest: Manifest, node: QueryCommentNode | undefined, connectionName: string): string {
  const target = manifest.project.target;
  const dict: Record<string, unknown> = { app: 'dbt', dbt_version: DBT_VERSION, profile_name: target.profileName ?? null, target_name: target.name };
  if (node) dict.node_id = node.uniqueId;
  else dict.connection_name = connectionName;
  return tojson(dict);
}

function renderTemplate(manifest: Manifest, comment: string, node: QueryCommentNode | undefined, connectionName: string, run: RunContext | undefined): string {
  const project = manifest.project;
  const source = `{%- macro query_comment_macro(connection_name, node) -%}\n${comment}\n{% endmacro %}{{ query_comment_macro(connection_name, node) }}`;
  const state = operationRenderState(manifest, { name: 'query-comment', path: project.configFile, ...(run ? { run } : {}) });
  try {
    return manifest.jinja.render(`${project.configFile}#query-comment`, source, state, { connection_name: connectionName, node: node ? nodeContext(manifest, node) : null });
  } catch (err) {
    const why = isProjectError(err) ? err.message : err instanceof Error ? err.message : String(err);
    throw new ProjectError(`query-comment in ${project.configFile.split(/[\\/]/).pop()} failed to render: ${why}`, {
      location: { file: project.configFile },
      hint: 'query-comment is rendered for every node before its statements run (with node and connection_name); a macro it calls must exist and render',
    });
  }
}

/** The node as the comment's template reads it: dbt's node attributes it is usually asked for. */
function nodeContext(manifest: Manifest, node: QueryCommentNode): Record<string, unknown> {
  return {
    unique_id: node.uniqueId,
    name: node.name,
    resource_type: node.resourceType,
    package_name: node.package ?? manifest.project.name,
    original_file_path: node.file?.path ?? '',
    path: node.file?.path ?? '',
    fqn: node.fqn ? [...node.fqn] : [node.name],
    alias: node.alias ?? node.name,
    identifier: node.alias ?? node.name,
    schema: node.schema ?? manifest.project.target.schema,
    database: manifest.project.target.postgres?.dbname ?? 'main',
    tags: node.settings && 'tags' in node.settings && Array.isArray(node.settings.tags) ? [...(node.settings.tags as unknown[])] : [],
    config: node.config ?? {},
  };
}
