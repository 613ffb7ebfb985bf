// Child process for data-plane scale tests: fetches every row of one resource
// with the library's consumer (heap capped by the parent), checks them, and
// prints {"rows": n, "checksum": c, "format": ...} on stdout.
import { DataPlaneClient } from '@s2sp/core';
import { resolveS2spOptions } from '../../libs/s2sp/src/config/s2sp-options';
import { checksumOf } from './big-table';

async function main(): Promise<void> {
  const [resourceUrl, format] = process.argv.slice(2) as [string, 'json' | 'arrow'];
  const options = resolveS2spOptions({
    allowedResourceOrigins: [new URL(resourceUrl).origin],
    fetchTimeoutMs: 600_000,
    limits: { maxResponseBytes: 2 ** 31 - 1 },
  });
  const client = new DataPlaneClient(options);
  const headers = format === 'json' ? { accept: 'application/json' } : undefined;
  const rows = await client.fetchBody(resourceUrl, { rowIds: null, headers });
  process.stdout.write(
    `${JSON.stringify({ rows: rows.length, checksum: checksumOf(rows), heapUsedMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20) })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`big-table-consumer failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
