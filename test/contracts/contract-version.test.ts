// CONTRACT_VERSION is defined once in @s2sp/contracts; the .proto files and the
// changelog restate it. These checks fail the build when one of them drifts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CONTRACT_VERSION, PACKAGE_CONTRACT_VERSIONS } from '../../libs/contracts/src';
import { PROTO_ROOT } from '../../libs/contracts/src/internal';
import { CONTRACT_VERSION_OPTION } from '../../libs/contracts/src/contract-version';
import { PROTO_FILE_PATHS } from '../../libs/contracts/src/proto-path';

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

describe('contract version', () => {
  test('is a semantic version', () => {
    assert.match(CONTRACT_VERSION, SEMVER);
  });

  test('every .proto file declares its package’s version in its contract_version file option', () => {
    const option = new RegExp(
      `^option \\(${CONTRACT_VERSION_OPTION.name.replace(/\./g, '\\.')}\\) = "([^"]*)";$`,
      'gm',
    );
    for (const path of PROTO_FILE_PATHS) {
      const source = readFileSync(path, 'utf8');
      const [, packageName] = /^package ([\w.]+);$/m.exec(source) ?? [];
      const declared = [...source.matchAll(option)].map((match) => match[1]);
      assert.ok(
        packageName && PACKAGE_CONTRACT_VERSIONS[packageName],
        `${path}: package ${packageName} has no version`,
      );
      assert.deepEqual(declared, [PACKAGE_CONTRACT_VERSIONS[packageName]], path);
    }
  });

  test('the contract as served is its newest package’s version', () => {
    const newest = Object.values(PACKAGE_CONTRACT_VERSIONS)
      .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
      .at(-1);
    assert.equal(CONTRACT_VERSION, newest);
  });

  test('the option number in the TypeScript constant is the one contract.proto declares', () => {
    const contract = readFileSync(join(PROTO_ROOT, 's2sp', 'v1', 'contract.proto'), 'utf8');
    const [, name, number] = /extend google\.protobuf\.FileOptions \{[^}]*?string (\w+) = (\d+);/s.exec(contract) ?? [];
    assert.equal(`s2sp.v1.${name}`, CONTRACT_VERSION_OPTION.name);
    assert.equal(Number(number), CONTRACT_VERSION_OPTION.number);
  });

  test('the newest changelog entry is this version', () => {
    const changelog = readFileSync(join(PROTO_ROOT, 'CHANGELOG.md'), 'utf8');
    const versions = [...changelog.matchAll(/^## (\S+)/gm)].map((match) => match[1]);
    assert.equal(versions[0], CONTRACT_VERSION);
    for (const version of versions) assert.match(version, SEMVER);
  });
});
