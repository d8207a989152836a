/**
 * target/manifest.json as a run writes it: dbt's manifest, rewritten only
 * when what it describes changed. Its metadata names the invocation that
 * last wrote it (run_results.json names every run's own), so a nightly run
 * of an unchanged project reads the file, finds the same nodes, and leaves
 * it be (no serialising, no rename: renaming over a file makes ext4 start
 * writing the new one out at once, which costs a run most of a millisecond
 * and sometimes many). The text is the one JSON.stringify(manifestJson(...),
 * null, 2) gives, built from the metadata and the rest, which is serialised
 * once per manifest and graph in a process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../compile/manifest.js';
import type { Graph } from '../graph/graph-node.js';
import type { Project } from '../project/project.js';
import { writeArtifact } from './artifact-write-error.js';
import { manifestJson, manifestMetadata } from './manifest-json.js';

const HEAD = '{\n  "metadata": ';

/** The metadata fields that change with every write and say nothing about the nodes. */
const PER_WRITE = new Set(['generated_at', 'invocation_id']);

interface Parts {
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Everything after the metadata object: `,\n  "nodes": ...}\n`. */
  readonly tail: string;
}

const tails = new WeakMap<Manifest, { readonly graph: Graph; readonly tail: string }>();

/** The manifest's metadata and the text after it (the latter cached per manifest and graph). */
export function manifestParts(manifest: Manifest, graph: Graph, invocationId: string): Parts {
  const metadata = manifestMetadata(manifest, invocationId);
  const cached = tails.get(manifest);
  if (cached?.graph === graph) return { metadata, tail: cached.tail };
  const { metadata: _, ...rest } = manifestJson(manifest, graph, invocationId);
  const tail = `,\n${JSON.stringify(rest, null, 2).slice(2)}\n`;
  tails.set(manifest, { graph, tail });
  return { metadata, tail };
}

/** The whole file: byte for byte what `${JSON.stringify(manifestJson(...), null, 2)}\n` is. */
export function manifestText(parts: Parts): string {
  return `${HEAD}${JSON.stringify(parts.metadata, null, 2).replace(/\n/g, '\n  ')}${parts.tail}`;
}

/** Whether `existing` (the file as it is) describes the same project as `parts`, whatever run wrote it. */
function sameManifest(existing: string, parts: Parts): boolean {
  if (!existing.startsWith(HEAD) || !existing.endsWith(parts.tail)) return false;
  let metadata: unknown;
  try {
    metadata = JSON.parse(existing.slice(HEAD.length, existing.length - parts.tail.length));
  } catch {
    return false;
  }
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return false;
  const was = metadata as Record<string, unknown>;
  const keys = new Set([...Object.keys(was), ...Object.keys(parts.metadata)]);
  return [...keys].every((key) => PER_WRITE.has(key) ? typeof was[key] === 'string' : was[key] === parts.metadata[key]);
}

/** target/manifest.json after a run: written when missing or when anything but its per-write metadata would change. */
export function writeRunManifest(project: Project, manifest: Manifest, graph: Graph, invocationId: string): void {
  const path = join(project.root, project.paths.target, 'manifest.json');
  const parts = manifestParts(manifest, graph, invocationId);
  let existing: string | undefined;
  try {
    existing = readFileSync(path, 'utf8');
  } catch {
    // not there yet (or unreadable: written again)
  }
  if (existing !== undefined && sameManifest(existing, parts)) return;
  writeArtifact(project.root, path, manifestText(parts));
}
