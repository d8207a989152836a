import cliProgress from 'cli-progress';
import type { RunEvent } from '../state/node-result.js';

/** Seeds smaller than this load in about a second: no bar. */
const MIN_BYTES = 16 << 20;

const STAGES = { check: 'checking types', load: 'loading', index: 'building indexes' } as const;

/**
 * Wrap an event printer with a progress bar for long seed loads, on stderr
 * and only when stderr is a terminal (never in pipes, files or CI logs):
 * megabytes read in the current stage, then the index build. The bar is
 * cleared before the seed's result line is printed.
 */
export function withSeedProgressBar(print: (event: RunEvent) => void, stream: NodeJS.WriteStream = process.stderr): (event: RunEvent) => void {
  if (!stream.isTTY) return print;
  let bar: cliProgress.SingleBar | undefined;
  let stage: string | undefined;
  const stop = () => {
    bar?.stop();
    bar = undefined;
    stage = undefined;
  };
  return (event) => {
    if (event.type !== 'progress') {
      if (event.type !== 'log') stop();
      print(event);
      return;
    }
    if (event.stage !== 'index' && event.total < MIN_BYTES) return;
    const mb = (n: number) => Math.round(n / (1 << 20));
    if (event.stage === 'index') {
      if (!bar) return;
      bar.update(bar.getTotal(), { stage: STAGES.index });
      return;
    }
    if (!bar || stage !== event.stage) {
      stop();
      bar = new cliProgress.SingleBar({ format: `  ${event.name}: {stage} |{bar}| {value}/{total} MB`, hideCursor: true, clearOnComplete: true, stream }, cliProgress.Presets.shades_classic);
      bar.start(mb(event.total), 0, { stage: STAGES[event.stage] });
      stage = event.stage;
    }
    bar.update(mb(event.done), { stage: STAGES[event.stage] });
  };
}
