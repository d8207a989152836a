/**
 * target/manifest.json as a run writes it: dbt's manifest, with this run's
 * metadata. The text is the one JSON.stringify(manifestJson(...), null, 2)
 * gives, built from the metadata and the rest, which is serialised once per
 * manifest and graph in a process (a nightly job in one process, or a
 * session's runs, serialise the nodes once).
 */
import { join } from 'node:path';
import type { Manifest } from '../compile/manifest.js';
import type { Graph } from '../graph/graph-node.js';
import type { Project } from '../project/project.js';
import { writeArtifact } from './artifact-write-error.js';
import { manifestJson, manifestMetadata } from './manifest-json.js';

const HEAD = '{\n  "metadata": ';

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

/**
 * target/manifest.json after a run, as dbt writes it at every invocation: its metadata names this run
 * (tools that read the artifacts pair manifest.json and run_results.json by invocation_id). Only the
 * metadata is serialised per run; the nodes' text is cached per manifest and graph.
 */
export function writeRunManifest(project: Project, manifest: Manifest, graph: Graph, invocationId: string): void {
  const path = join(project.root, project.paths.target, 'manifest.json');
  writeArtifact(project.root, path, manifestText(manifestParts(manifest, graph, invocationId)));
}
