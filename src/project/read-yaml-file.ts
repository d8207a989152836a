import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, isMap, isSeq, type Document, type Node } from 'yaml';
import { ProjectError } from '../errors/project-error.js';
import { fastYamlValue } from './fast-yaml.js';
import { aliasLimitLine } from './alias-limit-line.js';
import { aliasLimitMessage, isAliasLimitError, MAX_YAML_ALIAS_COUNT } from './yaml-alias-limit.js';
import { recallYaml, rememberYaml, yamlKey } from './yaml-memo.js';

export interface YamlFile {
  readonly value: unknown;
  readonly displayPath: string;
  /** 1-based line of the node at `path` (keys and indexes), or undefined. */
  lineOf(path: readonly (string | number)[]): number | undefined;
}

/**
 * Parse a YAML file, turning syntax errors into file:line errors.
 * `secret`: never memoized, so never written to the parse cache (profiles.yml holds passwords).
 */
export function readYamlFile(absPath: string, displayPath: string, options: { readonly secret?: boolean } = {}): YamlFile {
  let text: string;
  try {
    text = readFileSync(absPath, 'utf8');
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    const why = code === 'EISDIR' ? 'it is a directory, not a YAML file' : `cannot read it (${err instanceof Error ? err.message : String(err)})`;
    throw new ProjectError(why, { location: { file: displayPath } });
  }
  if (!options.secret) return parseYamlText(text, displayPath);
  // Not memoized, but parsed the fast way all the same (positions only when an error asks for a line).
  const fast = fastYamlValue(text);
  return fast ? withLinesOnDemand(text, displayPath, fast.value) : parseDocumentText(text, displayPath);
}

/** Parse YAML text, through the memo of earlier parses of the same text (see yaml-memo.ts). */
export function parseYamlText(text: string, displayPath: string): YamlFile {
  const key = yamlKey(text);
  const memo = recallYaml(key);
  if (memo) {
    let full: YamlFile | undefined;
    return {
      value: JSON.parse(memo.json) as unknown,
      displayPath,
      lineOf(path) {
        const line = memo.lines[JSON.stringify(path)];
        if (line !== undefined) return line ?? undefined;
        full ??= parseDocumentText(text, displayPath);
        return full.lineOf(path);
      },
    };
  }
  const fast = fastYamlValue(text);
  const parsed = fast ? withLinesOnDemand(text, displayPath, fast.value) : parseDocumentText(text, displayPath);
  const lines = rememberYaml(key, parsed.value);
  if (!lines) return parsed;
  return {
    ...parsed,
    lineOf(path) {
      const line = parsed.lineOf(path);
      lines[JSON.stringify(path)] = line ?? null;
      return line;
    },
  };
}

/** A value parsed without positions; the document with positions is parsed the first time a line is asked for. */
function withLinesOnDemand(text: string, displayPath: string, value: unknown): YamlFile {
  let full: YamlFile | undefined;
  return {
    value,
    displayPath,
    lineOf(path) {
      full ??= parseDocumentText(text, displayPath);
      return full.lineOf(path);
    },
  };
}

function parseDocumentText(text: string, displayPath: string): YamlFile {
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const pos = lineCounter.linePos(first.pos[0]);
    const message = first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new ProjectError(`YAML syntax error: ${message}`, {
      location: { file: displayPath, line: pos.line, column: pos.col },
    });
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT }) as unknown;
  } catch (err) {
    if (!isAliasLimitError(err)) throw err;
    throw new ProjectError(aliasLimitMessage(), { location: { file: displayPath, line: aliasLimitLine(doc, lineCounter) } });
  }
  return {
    value,
    displayPath,
    lineOf(path) {
      let node: unknown = doc.contents;
      let line: number | undefined;
      for (const key of path) {
        if (isMap(node)) {
          const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === key);
          if (!pair) return line;
          const keyNode = pair.key as Node | null;
          if (keyNode?.range) line = lineCounter.linePos(keyNode.range[0]).line;
          node = pair.value;
        } else if (isSeq(node) && typeof key === 'number') {
          node = node.items[key];
          const range = (node as Node | undefined)?.range;
          if (range) line = lineCounter.linePos(range[0]).line;
        } else {
          return line;
        }
      }
      return line;
    },
  };
}
