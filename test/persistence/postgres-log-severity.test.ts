import { test } from 'node:test';
import assert from 'node:assert/strict';
import { severityOfPostgresLogLine } from '../../libs/database/src/postgres-log-severity';

test('PostgreSQL log lines: warnings and failures are reported, routine lines and shutdown terminations are not', () => {
  const at = '2026-11-24 15:40:06.468 UTC [12278]';
  assert.equal(severityOfPostgresLogLine(`${at} LOG:  checkpoint starting: time`), undefined);
  assert.equal(
    severityOfPostgresLogLine(`${at} FATAL:  terminating connection due to administrator command`),
    undefined,
  );
  assert.equal(
    severityOfPostgresLogLine(`${at} FATAL:  terminating autovacuum process due to administrator command`),
    undefined,
  );
  assert.equal(
    severityOfPostgresLogLine(`${at} WARNING:  page verification failed, calculated checksum 1 but expected 2`),
    'WARNING',
  );
  assert.equal(severityOfPostgresLogLine(`${at} ERROR:  invalid page in block 0 of relation base/5/16384`), 'ERROR');
  assert.equal(
    severityOfPostgresLogLine(`${at} FATAL:  could not open file "base/5/16384": No such file or directory`),
    'FATAL',
  );
  assert.equal(
    severityOfPostgresLogLine(`${at} PANIC:  could not write to file "pg_wal/xlogtemp.1": No space left on device`),
    'PANIC',
  );
});
