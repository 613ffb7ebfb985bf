// The footprint of a minimal app built on the packages, measured as a user meets it: the
// tarballs of `npm pack --workspaces` installed into a fresh folder outside the repository
// with the host packages (test/packaging/apps/esm-express: one resource tool, one consumer
// tool, InMemoryResourceStore, Express), compiled, its dev dependencies pruned; then the size of
// its node_modules, and the resident memory of the started process after start and after
// one async flow (resource tool → resource_url → consumer tool).
//   npm run build && node dist/bench/footprint/minimal-app.js
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  driveAsyncFlow,
  HOST_PACKAGES,
  installApp,
  MINIMAL_PACKAGES,
  packWorkspaces,
  run,
} from '../../test/support/packed-apps';

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmRSS:'));
  if (!line) throw new Error(`no VmRSS for ${pid}`);
  return Number(/(\d+)/.exec(line)![1]) * 1024;
}

function directoryBytes(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

function packageCount(nodeModules: string): number {
  let count = 0;
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    count += entry.startsWith('@') ? readdirSync(join(nodeModules, entry)).length : 1;
  }
  return count;
}

async function main(): Promise<void> {
  const packDir = mkdtempSync(join(tmpdir(), 's2sp-footprint-packs-'));
  try {
    const tarballs = await packWorkspaces(packDir);
    const app = await installApp(
      'esm-express',
      MINIMAL_PACKAGES.map((name) => tarballs[name]),
      HOST_PACKAGES,
    );
    try {
      // What runs in production: the compiler and type packages the app was built with go.
      await run('npm', ['uninstall', '--no-audit', '--no-fund', 'typescript', '@types/node'], app.dir);
      const nodeModules = join(app.dir, 'node_modules');
      const server = await app.start();
      try {
        const afterStart = residentBytes(server.pid);
        await driveAsyncFlow(server.url);
        const afterFlow = residentBytes(server.pid);
        console.log(
          'minimal app (resource tool + consumer tool, InMemoryResourceStore, Express, Node ' + process.version + ')',
        );
        console.log(
          `  node_modules: ${mebibytes(directoryBytes(nodeModules))} in ${packageCount(nodeModules)} packages`,
        );
        console.log(`  RSS after start: ${mebibytes(afterStart)}; after one async flow: ${mebibytes(afterFlow)}`);
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(app.dir, { recursive: true, force: true });
    }
  } finally {
    rmSync(packDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
