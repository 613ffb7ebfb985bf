import { chmodSync } from 'node:fs';
import { DevKeyStore } from '@s2sp/auth';
import { startStack, type RunningStack } from '../../test/support/start-all';
import { tempDir } from '../../test/support/stack';

/**
 * Starts `npm start` (dist/scripts/start-all.js, or `script`) on free ports in a fresh temp
 * directory, trusting the dev key the benches mint their tokens with; `stop()` also removes
 * the directory.
 */
export async function startBenchStack(prefix: string, script: string | undefined): Promise<RunningStack> {
  const cwd = tempDir(prefix);
  chmodSync(cwd.path, 0o755); // the embedded server runs as another user when this runs as root
  const stack = await startStack({
    cwd: cwd.path,
    env: { S2SP_AUTH_DATA_DIR: new DevKeyStore().dataDir },
    timeoutMs: 300_000,
    script,
  }).catch((error: unknown) => {
    cwd.remove();
    throw error;
  });
  return {
    ...stack,
    stop: async () => {
      try {
        return await stack.stop();
      } finally {
        cwd.remove();
      }
    },
  };
}
