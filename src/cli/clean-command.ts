import { MINI_DBT_VERSION as VERSION } from '../invocation/tool-version.js';
import { runClean } from '../deps/clean-targets.js';
import { line } from './terminal.js';

export interface CleanFlags {
  projectDir?: string;
  cleanProjectFilesOnly?: boolean;
  /** --target-path (or DBT_TARGET_PATH): what clean removes when the project lists no clean-targets. */
  targetPath?: string;
}

/** clean: remove the project's clean-targets folders, as dbt's clean. */
export function cleanCommand(flags: CleanFlags): number {
  line(`Running with mini-dbt=${VERSION}`, { name: 'MainReportVersion' });
  const fromEnv = process.env.DBT_CLEAN_PROJECT_FILES_ONLY;
  const envSays = fromEnv === undefined ? undefined : !/^(0|false|no|off)$/i.test(fromEnv.trim());
  runClean({
    projectRoot: flags.projectDir ?? process.cwd(),
    projectFilesOnly: flags.cleanProjectFilesOnly ?? envSays ?? true,
    ...(flags.targetPath !== undefined && flags.targetPath.trim() !== '' ? { targetPath: flags.targetPath } : {}),
    log: (text, event) => line(text, { name: event }),
  });
  return 0;
}
