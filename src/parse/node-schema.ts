import type { JinjaEnvironment } from '../compile/jinja-environment.js';
import { Relation } from '../compile/relation.js';
import type { RenderState } from '../compile/render-state.js';
import { ProjectError } from '../errors/project-error.js';
import { PARSE_CONTEXT } from '../invocation/run-context.js';
import type { Project } from '../project/project.js';

const MACRO = 'generate_schema_name';

/** What generate_schema_name is told about the node (dbt passes the node; these are the fields macros read). */
export interface SchemaNodeInfo {
  readonly name: string;
  readonly resourceType: 'model' | 'seed';
  readonly path: string;
  readonly fqn: readonly string[];
  readonly config: Readonly<Record<string, unknown>>;
}

/**
 * The schema each model and seed is built in, as dbt decides it: the
 * project's `generate_schema_name(custom_schema_name, node)` macro when it
 * defines one, else dbt's default (the target's schema, or
 * `<target schema>_<custom>` for a `schema` config). Without a profile every
 * relation is in main (one file), whatever the configs say.
 */
export function schemaNamer(project: Project, jinja: () => JinjaEnvironment, macroNames: readonly string[], vars: Readonly<Record<string, unknown>> = {}): (node: SchemaNodeInfo) => string {
  const target = project.target;
  if (!target.customSchemas) return () => 'main';
  const custom = (config: Readonly<Record<string, unknown>>): string | null => {
    const value = config.schema;
    return value === undefined || value === null || String(value).trim() === '' ? null : String(value).trim();
  };
  if (!macroNames.includes(MACRO)) {
    return (node) => {
      const name = custom(node.config);
      return name === null ? target.schema : `${target.schema}_${name}`;
    };
  }
  return (node) => {
    const state: RenderState = {
      modelName: node.name,
      modelPath: node.path,
      execute: false,
      // var() sees the project's vars and --vars, as in any macro dbt calls at parse time.
      vars: (name) => ({ found: Object.prototype.hasOwnProperty.call(vars, name) && vars[name] !== undefined, value: vars[name] }),
      varNames: () => Object.keys(vars),
      ref: () => { throw new ProjectError(`ref() cannot be used in ${MACRO}`); },
      source: () => { throw new ProjectError(`source() cannot be used in ${MACRO}`); },
      self: new Relation(node.name),
      isIncremental: () => false,
      config: { ...node.config },
      captured: { refs: [], sources: [], config: {} },
      run: PARSE_CONTEXT,
      target,
      databasePath: project.databasePath,
      log: () => undefined,
    };
    const nodeArg = { name: node.name, resource_type: node.resourceType, original_file_path: node.path, fqn: [...node.fqn], config: { ...node.config } };
    const schema = jinja().callMacro(MACRO, [custom(node.config), nodeArg], state, node.path).trim();
    if (schema === '') throw new ProjectError(`${MACRO} returned an empty schema for ${node.resourceType} '${node.name}'`, { location: { file: node.path } });
    return schema;
  };
}
