// One server of the framework-overhead benchmark, in its own process:
//   node overhead-server-main.js <raw-sdk|mcp-nest|s2sp> <sessions|stateless|modern> <dataDir>
// prints {"url": …} once it listens, and stops when its stdin closes.
import 'reflect-metadata';
import { OVERHEAD_MODES, SERVER_KINDS, startServer, type OverheadMode, type ServerKind } from './overhead-servers';

async function main(): Promise<void> {
  const [kind, mode, dataDir] = process.argv.slice(2);
  if (!SERVER_KINDS.includes(kind as ServerKind) || !OVERHEAD_MODES.includes(mode as OverheadMode) || !dataDir)
    throw new Error('usage: overhead-server-main.js <raw-sdk|mcp-nest|s2sp> <sessions|stateless|modern> <dataDir>');
  const server = await startServer(kind as ServerKind, mode as OverheadMode, dataDir);
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  process.stdin.resume();
  process.stdin.once('end', () => void server.close().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
