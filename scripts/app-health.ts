// The container's HEALTHCHECK: exit 0 when the app answers ready (HTTP
// GET /health 200, or gRPC health SERVING), 1 otherwise. The app is the one
// named as argument, else the one PID 1 runs (the image's entry point).
import { readFileSync } from 'node:fs';
import { credentials, loadPackageDefinition, type Client, type ServiceError } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { protoPath } from 'grpc-health-check';
import { envInt } from '@s2sp/platform';
import { APP_ENTRIES, APP_USAGE, isAppName } from './app-entries';

const TIMEOUT_MS = 3_000;

function appOfPid1(): string | undefined {
  try {
    return readFileSync('/proc/1/cmdline', 'utf8').split('\0').find(isAppName);
  } catch {
    return undefined;
  }
}

async function httpReady(port: number): Promise<string | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    return response.ok ? undefined : `GET /health answered ${response.status}`;
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return `nothing answers on port ${port} (${cause})`;
  }
}

function grpcReady(port: number): Promise<string | undefined> {
  const definition = loadPackageDefinition(loadSync(protoPath, { keepCase: true, enums: String })) as unknown as {
    grpc: {
      health: { v1: { Health: new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => Client } };
    };
  };
  const client = new definition.grpc.health.v1.Health(`127.0.0.1:${port}`, credentials.createInsecure()) as Client & {
    Check(
      request: object,
      options: object,
      callback: (error: ServiceError | null, value?: { status?: string }) => void,
    ): void;
  };
  return new Promise((resolve) => {
    client.Check({ service: '' }, { deadline: Date.now() + TIMEOUT_MS }, (error, value) => {
      client.close();
      if (error) resolve(`gRPC health check failed: ${error.details || error.message}`);
      else resolve(value?.status === 'SERVING' ? undefined : `gRPC health is ${value?.status ?? 'unknown'}`);
    });
  });
}

async function main(): Promise<void> {
  const app = process.argv[2] ?? appOfPid1();
  if (!isAppName(app)) {
    process.stderr.write(`Which app to check? Give ${APP_USAGE}\n`);
    process.exit(2);
  }
  const entry = APP_ENTRIES[app];
  const port = envInt(entry.portEnv, entry.defaultPort, { min: 1, max: 65535 });
  const problem = entry.probe === 'http' ? await httpReady(port) : await grpcReady(port);
  if (problem) {
    process.stderr.write(`${app} not ready: ${problem}\n`);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`health check failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
