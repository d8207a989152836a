import { MINI_DBT_VERSION as VERSION } from '../invocation/tool-version.js';
import { relative } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { checkProjectName, initProject } from '../api/init-project.js';
import { colors, line } from './terminal.js';

export interface InitFlags {
  projectDir?: string;
  skipProfileSetup?: boolean;
}

/** The name a script gets when it gives none (stdin not a terminal). */
const DEFAULT_NAME = 'my_new_project';

/** The project name: the argument, else asked on a terminal (as dbt's init), else the default. */
async function projectName(given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  if (!process.stdin.isTTY) {
    line(`No project name given and stdin is not a terminal: using '${DEFAULT_NAME}' (mini-dbt init NAME names it)`);
    return DEFAULT_NAME;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    for (;;) {
      const answer = (await rl.question(`Enter a name for your project (letters, digits, underscore) [${DEFAULT_NAME}]: `)).trim() || DEFAULT_NAME;
      try {
        checkProjectName(answer);
        return answer;
      } catch (err) {
        line(colors.red(err instanceof Error ? err.message : String(err)));
      }
    }
  } finally {
    rl.close();
  }
}

/** init: scaffold a project folder (dbt's starter project and a dbt-sqlite profile). */
export async function initCommand(name: string | undefined, flags: InitFlags): Promise<number> {
  line(`Running with mini-dbt=${VERSION}`, { name: 'MainReportVersion' });
  const chosen = await projectName(name);
  const result = initProject({ name: chosen, parentDir: flags.projectDir, skipProfileSetup: flags.skipProfileSetup });
  const shown = relative(process.cwd(), result.dir) || '.';
  line(`Creating mini-dbt project '${chosen}' in ${result.dir}`);
  for (const f of result.files.filter((p) => !p.endsWith('.gitkeep'))) line(`  ${f}`);
  if (result.profilesFile) line(`Profile '${chosen}' (target dev, type sqlite) written to ${relative(process.cwd(), result.profilesFile)}: models are built into ${chosen}.db`);
  else line("Skipping profile setup (--skip-profile-setup): without a profiles.yml the project's warehouse.db is the target");
  line();
  line(colors.green(`Your new mini-dbt project "${chosen}" was created!`));
  line(`Next: cd ${shown} && mini-dbt build   (then mini-dbt debug checks the setup)`);
  return 0;
}
