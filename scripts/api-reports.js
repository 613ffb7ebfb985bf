#!/usr/bin/env node
// Checks (or, with --update, rewrites) the committed API report of every library:
// libs/<name>/api/<name>.api.md, made by @microsoft/api-extractor from the package's entry.
// A change to what a package exports fails the check until the report is updated and reviewed.
// It reads the declarations `npm run build` writes into each package (libs/<name>/dist), as a user's compiler would.
//   node scripts/api-reports.js [--update] [--only <lib>] [--report-folder <dir>]
// (--report-folder reads and writes the reports of --only <lib> in <dir>: used by its test.)
'use strict';

const { existsSync, mkdirSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const { Extractor, ExtractorConfig } = require('@microsoft/api-extractor');

const root = join(__dirname, '..');
const { values: flags } = require('node:util').parseArgs({
  options: { update: { type: 'boolean' }, only: { type: 'string' }, 'report-folder': { type: 'string' } },
});
const update = flags.update === true;

function entryOf(name) {
  const entry = join(root, 'libs', name, 'dist', 'index.d.ts');
  if (!existsSync(entry)) throw new Error(`api-reports: ${entry} is missing: run \`npm run build\` first`);
  return entry;
}

function packages() {
  return readdirSync(join(root, 'libs')).filter((name) => existsSync(join(root, 'libs', name, 'package.json')));
}

function reportFolderOf(name) {
  return flags['report-folder'] ?? join(root, 'libs', name, 'api');
}

/**
 * Every export says how stable it is (@public, @beta, or @internal: for the other @s2sp packages only),
 * and a public signature names no type its package does not export. Not checked where a package's API
 * includes generated code, which carries no tags: the protobuf codecs of @s2sp/contracts and the Prisma
 * client of @s2sp/database (their own declarations are tagged all the same).
 */
function apiChecks(name) {
  return ['contracts', 'database'].includes(name) ? 'none' : 'error';
}

/** The extractor configuration of one package: its report in libs/<name>/api, no rollups or doc model. */
function configFor(name) {
  const packageFolder = join(root, 'libs', name);
  mkdirSync(reportFolderOf(name), { recursive: true });
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: packageFolder,
      mainEntryPointFilePath: entryOf(name),
      bundledPackages: [],
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            module: 'node20',
            target: 'ES2022',
            strict: true,
            skipLibCheck: true,
            // The other @s2sp packages through node_modules, as a user's compiler finds them: kept as a
            // node_modules path, each is an external package whose own report covers its types.
            preserveSymlinks: true,
          },
          files: [entryOf(name)],
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: `${name}.api.md`,
        reportFolder: reportFolderOf(name),
        reportTempFolder: join(root, 'dist', 'api-temp', name),
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        extractorMessageReporting: {
          default: { logLevel: 'none' },
          'ae-missing-release-tag': { logLevel: apiChecks(name), addToApiReportFile: false },
          'ae-forgotten-export': { logLevel: apiChecks(name), addToApiReportFile: false },
        },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
    },
    configObjectFullPath: join(packageFolder, 'api-extractor.json'),
    packageJsonFullPath: join(packageFolder, 'package.json'),
  });
}

function main() {
  if (flags['report-folder'] !== undefined && flags.only === undefined)
    throw new Error('api-reports: --report-folder needs --only <lib>');
  const changed = [];
  for (const name of flags.only === undefined ? packages() : [flags.only]) {
    let result;
    try {
      result = Extractor.invoke(configFor(name), { localBuild: update, showVerboseMessages: false });
    } catch (error) {
      console.error(`api-reports: ${name}: ${error.message}`);
      process.exitCode = 1;
      continue;
    }
    if (result.apiReportChanged) changed.push(name);
    if (!result.succeeded && !(update && result.apiReportChanged)) {
      console.error(`api-reports: ${name}: ${result.errorCount} error(s), ${result.warningCount} warning(s)`);
      if (!result.apiReportChanged) process.exitCode = 1;
    }
  }
  if (changed.length > 0 && !update) {
    console.error(
      `api-reports: the public API of ${changed.join(', ')} changed; review it and run \`node scripts/api-reports.js --update\` to accept.`,
    );
    process.exitCode = 1;
  } else if (changed.length > 0) {
    console.error(`api-reports: updated ${changed.map((name) => `libs/${name}/api/${name}.api.md`).join(', ')}`);
  }
}

main();
