import { ProjectError } from '../errors/project-error.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import type { DocsBlock } from '../project/docs-block.js';

/** doc() naming a docs block that does not exist (or another package's): the description's owner named, as dbt names it. */
export class DocNotFoundError extends ProjectError {}

/**
 * dbt's doc(): `doc('name')` or `doc('package', 'name')` returns a docs block's contents.
 * Only the current project's blocks exist (mini-dbt has no packages), so another package finds nothing.
 * `onError` records the failure before it is thrown (the renderer reports it with the yml file and line).
 */
export function docFunction(
  blocks: ReadonlyMap<string, DocsBlock>,
  projectName: string,
  ownerId: string,
  onError: (err: ProjectError) => void,
): (...args: unknown[]) => string {
  return (...args: unknown[]) => {
    const fail = (err: ProjectError): never => {
      onError(err);
      throw err;
    };
    if (args.length === 0 || args.length > 2) fail(new ProjectError(`doc() takes one or two arguments (${args.length} given)`, { hint: "doc('name') or doc('package', 'name')" }));
    const name = String(args[args.length - 1]);
    const pkg = args.length === 2 ? String(args[0]) : undefined;
    const block = pkg === undefined || pkg === projectName ? blocks.get(name) : undefined;
    if (!block) {
      const inPackage = pkg === undefined ? '' : ` in package '${pkg}'`;
      const suggestion = pkg === undefined || pkg === projectName ? didYouMeanSuffix(name, [...blocks.keys()]) : '';
      fail(new DocNotFoundError(`Documentation for '${ownerId}' depends on doc '${name}'${inPackage} which was not found.${suggestion}`, {
        hint: blocks.size === 0 ? 'write {% docs name %} ... {% enddocs %} in a .md file under the model paths (or docs-paths)' : undefined,
      }));
    }
    return block!.contents;
  };
}
