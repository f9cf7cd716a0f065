// The recorded public surface: one API Extractor report per package entry, under api-report/.
// Usage: node .ci/lib/api-report.mjs           (CI: fails when the built surface differs from the report)
//        node .ci/lib/api-report.mjs --local   (after a deliberate change: rewrites the reports to review and commit)
// Needs the build (`npm run build`): it reads the declarations the tarball ships.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = join(dirname(new URL(import.meta.url).pathname), '..', '..');
const local = process.argv.includes('--local');
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// Every `exports` entry with types, named as a report file: `.` → hashscan-sms, `./testing` → hashscan-sms-testing.
const entries = Object.entries(packageJson.exports)
  .filter(([, target]) => typeof target === 'object' && target.import?.types)
  .map(([subpath, target]) => ({
    name: subpath === '.' ? packageJson.name : `${packageJson.name}-${subpath.slice(2).replaceAll('/', '-')}`,
    types: join(root, target.import.types),
  }));

let failed = 0;
for (const entry of entries) {
  if (!existsSync(entry.types)) {
    console.error(`${entry.types} is missing: run npm run build first`);
    process.exit(1);
  }
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: entry.types,
      compiler: { tsconfigFilePath: join(root, 'tsconfig.json') },
      apiReport: {
        enabled: true,
        reportFileName: `${entry.name}.api.md`,
        reportFolder: join(root, 'api-report'),
        reportTempFolder: join(root, 'node_modules', '.cache', 'api-report'),
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        // The package states no release tags (@public/@beta): every export is public.
        extractorMessageReporting: {
          default: { logLevel: 'warning' },
          'ae-missing-release-tag': { logLevel: 'none' },
          // A type reachable from the surface but not exported by name shows in the report (as `// Warning:`),
          // which is where a reviewer should see it; it does not fail the check by itself.
          'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
          'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
          // Links are checked by typedoc (a CI step with 0 warnings), which resolves overloads.
          'ae-unresolved-link': { logLevel: 'none', addToApiReportFile: false },
        },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
    },
    configObjectFullPath: join(root, 'api-report', 'api-extractor.json'),
    packageJsonFullPath: join(root, 'package.json'),
  });
  const result = Extractor.invoke(config, { localBuild: local, showVerboseMessages: false });
  if (result.apiReportChanged && !local) {
    console.error(`${entry.name}: the public surface changed without api-report/${entry.name}.api.md.`);
    console.error('  Review the change, run `npm run api:update`, and commit the report (and a CHANGELOG line).');
    const built = join(root, 'node_modules', '.cache', 'api-report', `${entry.name}.api.md`);
    spawnSync('diff', ['-u', join(root, 'api-report', `${entry.name}.api.md`), built], { stdio: 'inherit' });
    failed += 1;
  } else if (!result.succeeded) {
    console.error(`${entry.name}: API Extractor reported ${result.errorCount} errors`);
    failed += 1;
  } else {
    console.log(`${entry.name}: ${result.apiReportChanged ? 'report updated' : 'surface as recorded'}`);
  }
}
process.exit(failed === 0 ? 0 : 1);
