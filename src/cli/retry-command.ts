import { planRetry } from '../api/retry.js';
import { loadSession } from '../api/session.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { runCommand } from './run-command.js';
import { line } from './terminal.js';

/** retry: say what is rerun (nodes, and batches of microbatch models), then run it like `run`. */
export async function retryCommand(flags: CommonFlags): Promise<number> {
  const plan = planRetry(loadSession(sessionOptions(flags)));
  if (!plan) {
    line('Nothing to retry: the last invocation has no failed or skipped nodes');
    return 0;
  }
  line(`Retrying ${plan.nodes.length} node${plan.nodes.length === 1 ? '' : 's'} of invocation ${plan.invocationId} (${plan.command}):`);
  for (const n of plan.nodes) {
    const batches = n.batches ? `: only the failed batch${n.batches.length === 1 ? '' : 'es'} ${n.batches.map((b) => `[${b.start}, ${b.end})`).join(', ')}` : '';
    line(`  ${n.name} (${n.status})${batches}`);
  }
  return runCommand(plan.command, { ...flags, select: [...plan.select], fullRefresh: plan.fullRefresh }, { retryBatches: plan.retryBatches, retrySucceeded: plan.retrySucceeded, ...(plan.vars ? { vars: plan.vars } : {}) });
}
