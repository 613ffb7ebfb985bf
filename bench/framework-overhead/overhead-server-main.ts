// One server of the framework-overhead benchmark, in its own process:
//   node overhead-server-main.js <raw-sdk|mcp-nest|s2sp> <sessions|stateless> <dataDir>
// prints {"url": …} once it listens, and stops when its stdin closes.
import 'reflect-metadata';
import { SERVER_KINDS, startServer, type ServerKind } from './overhead-servers';

async function main(): Promise<void> {
  const [kind, mode, dataDir] = process.argv.slice(2);
  if (!SERVER_KINDS.includes(kind as ServerKind) || !['sessions', 'stateless'].includes(mode) || !dataDir)
    throw new Error('usage: overhead-server-main.js <raw-sdk|mcp-nest|s2sp> <sessions|stateless> <dataDir>');
  const server = await startServer(kind as ServerKind, mode === 'sessions', dataDir);
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  process.stdin.resume();
  process.stdin.once('end', () => void server.close().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
