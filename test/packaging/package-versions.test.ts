// One version for the whole set of @s2sp packages (scripts/set-version.js sets it).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { AGENTS_VERSION } from '../../libs/agents/src/agents.module';
import { GATEWAY_VERSION } from '../../libs/gateway/src/gateway.config';

const ROOT = join(__dirname, '..', '..', '..');

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

function manifests(): Manifest[] {
  return readdirSync(join(ROOT, 'libs'))
    .map((lib) => join(ROOT, 'libs', lib, 'package.json'))
    .filter((path) => existsSync(path))
    .map((path) => JSON.parse(readFileSync(path, 'utf8')) as Manifest);
}

test('every package has the repository’s version, depends on the others at exactly that version, and is publishable', () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
  for (const manifest of manifests()) {
    assert.equal(manifest.version, version, manifest.name);
    assert.notEqual(manifest.private, true, `${manifest.name} is private`);
    for (const field of ['dependencies', 'peerDependencies'] as const) {
      for (const [name, range] of Object.entries(manifest[field] ?? {})) {
        if (name.startsWith('@s2sp/')) assert.equal(range, version, `${manifest.name} ${field} ${name}`);
      }
    }
  }
});

test('the apps report the version of their package', () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
  assert.equal(GATEWAY_VERSION, version);
  assert.equal(AGENTS_VERSION, version);
});
