/** Where to point a YAML file's too-large alias expansion (see yaml-alias-limit.ts). */
import { isCollection, visit, type Document, type LineCounter, type Node } from 'yaml';

/**
 * The line to blame: the first alias whose anchor itself holds aliases (where
 * the expansion starts to multiply), else the first alias.
 */
export function aliasLimitLine(doc: Document, lineCounter: LineCounter): number | undefined {
  let first: number | undefined;
  let nested: number | undefined;
  visit(doc, {
    Alias(_key, alias) {
      const line = alias.range ? lineCounter.linePos(alias.range[0]).line : undefined;
      first ??= line;
      const target = alias.resolve(doc) as Node | undefined;
      if (target && holdsAlias(target)) {
        nested = line;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return nested ?? first;
}

function holdsAlias(node: Node): boolean {
  if (!isCollection(node)) return false;
  let found = false;
  visit(node, {
    Alias() {
      found = true;
      return visit.BREAK;
    },
  });
  return found;
}
