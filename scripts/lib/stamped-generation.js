// Runs a code generator only when its inputs changed since the last run.
//
// The stamp (a hash of the input files and the generator's package versions)
// lives in the output folder: mtimes are unreliable after git checkout or npm ci.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');

function packageVersion(name) {
  try {
    return require(require.resolve(`${name}/package.json`, { paths: [root] })).version;
  } catch {
    return 'missing';
  }
}

function stampOf(inputFiles, generatorPackages) {
  const hash = crypto.createHash('sha256');
  for (const file of inputFiles) {
    hash.update(path.relative(root, file));
    hash.update('\0');
    hash.update(fs.readFileSync(file));
  }
  for (const name of generatorPackages) hash.update(`\0${name}@${packageVersion(name)}`);
  return hash.digest('hex');
}

function readStamp(stampPath) {
  try {
    return fs.readFileSync(stampPath, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * @param {object} job
 * @param {string} job.name            prefix of the log lines, e.g. 'proto-generate'
 * @param {string[]} job.inputFiles    files whose content decides whether to regenerate
 * @param {string[]} job.generatorPackages  npm packages whose versions decide it too
 * @param {string} job.outputDir       folder the generator writes (holds the stamp)
 * @param {string} job.outputMarker    a file the generator always writes, relative to outputDir
 * @param {() => void} job.generate    runs the generator; throws or exits on failure
 */
function generateWhenStale(job) {
  const stampPath = path.join(job.outputDir, '.generate-stamp');
  const stamp = stampOf(job.inputFiles, job.generatorPackages);
  const force = process.argv.includes('--force');
  if (!force && readStamp(stampPath) === stamp && fs.existsSync(path.join(job.outputDir, job.outputMarker))) {
    console.error(`${job.name}: up to date, skipped`);
    return;
  }
  const started = Date.now();
  job.generate();
  fs.mkdirSync(job.outputDir, { recursive: true });
  fs.writeFileSync(stampPath, `${stamp}\n`);
  console.error(`${job.name}: generated in ${Date.now() - started} ms`);
}

/** Runs a node CLI synchronously; on failure prints its output and exits with its status. */
function runNodeCli(name, cliPath, args, env) {
  const { spawnSync } = require('node:child_process');
  const result = spawnSync(process.execPath, [cliPath, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) {
    process.stderr.write(result.stdout || '');
    process.stderr.write(result.stderr || '');
    if (result.error) console.error(result.error.message);
    console.error(`${name}: failed (exit ${result.status})`);
    process.exit(result.status || 1);
  }
}

module.exports = { root, generateWhenStale, runNodeCli };
