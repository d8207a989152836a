import { MINI_DBT_VERSION as VERSION } from '../invocation/tool-version.js';
import { debugProject } from '../api/debug.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { colors, line } from './terminal.js';


const ok = (text: string) => colors.green(`[OK ${text}]`);
const failed = (text?: string) => colors.red(text === undefined ? '[ERROR]' : `[ERROR ${text}]`);

/** debug: dbt's report (versions, project file, profile and target, connection test); exit 1 when a check fails. */
export function debugCommand(flags: CommonFlags): number {
  const report = debugProject(sessionOptions(flags));
  line(`Running with mini-dbt=${VERSION}`, { name: 'MainReportVersion' });
  line(`mini-dbt version: ${VERSION}`, { name: 'DebugCmdOut' });
  line(`node version: ${report.versions.node}`, { name: 'DebugCmdOut' });
  line(`SQLite version: ${report.versions.sqlite}`, { name: 'DebugCmdOut' });
  line(`os info: ${report.versions.os}`, { name: 'DebugCmdOut' });
  if (report.profiles?.ok) line(`Using profiles.yml file at ${report.profiles.detail}`, { name: 'DebugCmdOut' });
  else if (report.profiles === undefined && report.target) line("no profiles.yml: the project's database file is the target", { name: 'DebugCmdOut' });
  if (report.project.ok) line(`Using ${report.project.detail.endsWith('dbt_project.yml') ? 'dbt_project.yml' : 'project.yml'} file at ${report.project.detail}`, { name: 'DebugCmdOut' });
  if (report.target) line(`adapter type: ${report.target.type}`, { name: 'DebugCmdOut' });
  line('Configuration:', { name: 'DebugCmdOut' });
  const profileState = report.profiles === undefined ? (report.target ? ok('not found: the project\'s database file is the target') : 'not checked') : report.profiles.ok ? ok('found and valid') : failed('invalid');
  line(`  profiles.yml file ${profileState}`, { name: 'DebugCmdOut' });
  const projectName = report.project.ok && report.project.detail.endsWith('dbt_project.yml') ? 'dbt_project.yml' : 'project.yml';
  line(`  ${projectName} file ${report.project.ok ? ok('found and valid') : failed(/^no project\.yml/.test(report.project.detail) ? 'not found' : 'invalid')}`, { name: 'DebugCmdOut' });
  if (report.target && report.database) {
    const t = report.target;
    line();
    line('Connection:', { name: 'DebugCmdOut' });
    if (t.profileName !== undefined) line(`  profile: ${t.profileName}`, { name: 'DebugCmdOut' });
    line(`  target: ${t.name}`, { name: 'DebugCmdOut' });
    line(`  type: ${t.type}`, { name: 'DebugCmdOut' });
    if (t.postgres) {
      // dbt-postgres's connection keys, as dbt debug prints them (never the password).
      for (const [key, value] of [['host', t.postgres.host], ['port', t.postgres.port], ['user', t.postgres.user], ['database', t.postgres.dbname], ['schema', t.schema], ['connect_timeout', t.postgres.connectTimeout], ['sslmode', t.postgres.sslmode ?? 'prefer']] as const) {
        line(`  ${key}: ${value}`, { name: 'DebugCmdOut' });
      }
    } else {
      line(`  schema: ${t.schema}`, { name: 'DebugCmdOut' });
      line(`  database: ${report.database}`, { name: 'DebugCmdOut' });
      const paths = { main: report.database, ...t.schemaPaths };
      line(`  schemas_and_paths: ${Object.entries(paths).map(([k, v]) => `${k}: ${v}`).join(', ')}`, { name: 'DebugCmdOut' });
    }
    if (t.schemaDirectory !== undefined) line(`  schema_directory: ${t.schemaDirectory}`, { name: 'DebugCmdOut' });
    line(`  threads: ${t.threads}`, { name: 'DebugCmdOut' });
    if (report.connection) line(`  Connection test: ${report.connection.ok ? ok('connection ok') : failed()}`, { name: 'DebugCmdOut' });
    if (report.connection?.ok && report.connection.detail !== 'connection ok') line(colors.dim(`    ${report.connection.detail}`));
  }
  line();
  if (report.failures.length === 0) {
    line(colors.green('All checks passed!'), { name: 'DebugCmdResult' });
    return 0;
  }
  line(colors.red(`${report.failures.length} check${report.failures.length === 1 ? '' : 's'} failed:`), { name: 'DebugCmdResult', level: 'error' });
  for (const f of report.failures) line(f, { name: 'DebugCmdResult', level: 'error' });
  return 1;
}
