#!/usr/bin/env node
// After `tsc -b`, puts what each package needs at run time inside the package, where it
// finds it relative to its own files (never from the working directory):
// - @s2sp/contracts: proto/ (copied from the repository's proto/) and the descriptor sets
//   (libs/contracts/src/generated/*.binpb) next to the compiled code in dist/generated;
// - @s2sp/database: prisma/schema.prisma and prisma/migrations (copied from prisma/).
// It also links dist/libs/<lib>/src to libs/<lib>/dist: tests and scripts compiled into
// dist/ that import a library's internal module by its source path then load the very
// module the package itself loads (one instance, as for an import by package name).
'use strict';
const { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '..');

function copyDir(from, to, filter) {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true, filter });
}

copyDir(join(root, 'proto'), join(root, 'libs', 'contracts', 'proto'));
const generated = join(root, 'libs', 'contracts', 'src', 'generated');
mkdirSync(join(root, 'libs', 'contracts', 'dist', 'generated'), { recursive: true });
for (const name of readdirSync(generated).filter((file) => file.endsWith('.binpb'))) {
  cpSync(join(generated, name), join(root, 'libs', 'contracts', 'dist', 'generated', name));
}
copyDir(join(root, 'prisma'), join(root, 'libs', 'database', 'prisma'), (source) => !source.endsWith('.md'));

for (const lib of readdirSync(join(root, 'libs'))) {
  const built = join(root, 'libs', lib, 'dist');
  if (!existsSync(built)) continue;
  const link = join(root, 'dist', 'libs', lib, 'src');
  const present = (() => {
    try {
      return lstatSync(link);
    } catch {
      return undefined;
    }
  })();
  if (present?.isSymbolicLink()) continue;
  if (present) rmSync(link, { recursive: true, force: true });
  mkdirSync(join(link, '..'), { recursive: true });
  symlinkSync(relative(join(link, '..'), built), link, 'dir');
}
