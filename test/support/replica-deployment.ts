// A deployment of app processes sharing one fresh PostgreSQL database and one
// Redis key prefix, for the tests of several replicas (issue 14). Skipped with
// the reason printed where PostgreSQL or Redis is missing, unless
// S2SP_REQUIRE_POSTGRES / S2SP_REQUIRE_REDIS say it must be there.
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { z } from 'zod';
import { DevKeyStore } from '@s2sp/auth';
import { openS2spDatabase } from '@s2sp/database';
import { SharedRedis } from '@s2sp/platform';
import { startApp, type AppName, type AppProcess } from './app-processes';
import { consumerStep, resourceStep } from './agent-tasks';
import type { Message } from './agents-grpc-client';
import { postgresAvailability, postgresRequired, postgresTestUrl, withAdminClient } from './databases';
import { deleteKeysUnder, isolatedRedisOptions, redisRequired, redisUnavailableReason } from './redis';
import { tempDir } from './temp-dir';
import { startTestMcpServer, type TestMcpServer } from './test-mcp-server';
import { bearerFor } from './tokens';

export class ReplicaDeployment {
  /** Why the tests cannot run here, once `open` has run. */
  skipReason: string | undefined;
  /** The test MCP server (in this process) with the slow_reader tool. */
  testkit: TestMcpServer | undefined;
  private readonly processes: AppProcess[] = [];
  private readonly redis = isolatedRedisOptions();
  private readonly workDir = tempDir('s2sp-replicas-');
  private database: string | undefined;
  private sharedEnv: NodeJS.ProcessEnv = {};

  /** Creates the database and starts the testkit; false (nothing started) when a service is missing. */
  async open(): Promise<boolean> {
    this.skipReason = await missingService();
    if (this.skipReason) return false;
    this.database = `s2sp_replicas_${randomBytes(5).toString('hex')}`;
    await withAdminClient((client) => client.query(`CREATE DATABASE "${this.database}"`));
    const databaseUrl = new URL(postgresTestUrl());
    databaseUrl.pathname = `/${this.database}`;
    // Migrated here, once, so that the apps all start at once without queueing on the migration lock.
    const migrated = await openS2spDatabase({ databaseUrl: databaseUrl.toString(), migrate: true });
    await migrated.close();
    this.testkit = await startTestMcpServer();
    this.testkit.addTool(slowReaderTool());
    // The apps verify the tokens this process mints: the same dev key, created before they start.
    await bearerFor({ audience: 'gateway' });
    this.sharedEnv = {
      S2SP_AUTH_DATA_DIR: new DevKeyStore().dataDir,
      DATABASE_URL: databaseUrl.toString(),
      REDIS_URL: this.redis.url,
      REDIS_KEY_PREFIX: this.redis.keyPrefix,
      LOG_LEVELS: 'error,warn',
    };
    return true;
  }

  /** Starts an app process with the shared database and Redis, and `env`. */
  start(app: AppName, label: string, env: NodeJS.ProcessEnv): AppProcess {
    const started = startApp(app, label, { ...this.sharedEnv, ...env }, this.workDir.path);
    this.processes.push(started);
    return started;
  }

  /** The processes started so far (for readiness waits that fail early when one exits). */
  get started(): AppProcess[] {
    return [...this.processes];
  }

  /** False (the test marked skipped, the reason printed) when the deployment could not open. */
  ready(t: TestContext): boolean {
    if (this.skipReason) t.skip(this.skipReason);
    return !this.skipReason;
  }

  async close(): Promise<void> {
    await Promise.all(this.processes.map((process) => process.stop()));
    await this.testkit?.close();
    if (this.database)
      await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS "${this.database}" WITH (FORCE)`));
    if (!this.skipReason) {
      const redis = await SharedRedis.connect(this.redis);
      await deleteKeysUnder(redis, this.redis.keyPrefix).finally(() => redis.close());
    }
    this.workDir.remove();
  }
}

/** An AgentTask plan for SubmitTask over gRPC: weather get_alerts (sync), then a slow_reader step of `ms`. */
export function slowTaskPlan(ms: number): Message[] {
  return [
    resourceStep('alerts', { mode: 'DATA_PLANE_MODE_SYNC', domains: ['event'] }),
    consumerStep('sink', 'alerts', { tool: 'slow_reader', server: 'testkit', args: { ms } }),
  ];
}

/** Why the tests cannot run here (printed as the skip reason), or undefined; throws when S2SP_REQUIRE_* says the service must be there. */
async function missingService(): Promise<string | undefined> {
  const postgres = await postgresAvailability();
  if (!postgres.available) {
    if (postgresRequired()) throw new Error(`S2SP_REQUIRE_POSTGRES=1 but ${postgres.reason}`);
    return `${postgres.reason}; set S2SP_REQUIRE_POSTGRES=1 to make this a failure`;
  }
  const redis = await redisUnavailableReason();
  if (redis) {
    if (redisRequired()) throw new Error(`S2SP_REQUIRE_REDIS=1 but ${redis}`);
    return `${redis}; set S2SP_REQUIRE_REDIS=1 to make this a failure`;
  }
  return undefined;
}

/**
 * An S2SP consumer that only waits, marked read-only: the agents processes run
 * with the default approval policy, which refuses tools that may write.
 */
function slowReaderTool(): Parameters<TestMcpServer['addTool']>[0] {
  return {
    name: 'slow_reader',
    description: 'Waits `ms` milliseconds, then counts the abstract rows it was given.',
    parameters: z.object({
      abstract_data: z.string(),
      resource_url: z.string().optional(),
      body_data: z.string().optional(),
      column_mapping: z.string().optional(),
      ms: z.number().int().min(0).max(120_000),
    }),
    annotations: { readOnlyHint: true },
    handler: async (args) => {
      await new Promise((resolve) => setTimeout(resolve, Number(args.ms)).unref());
      return {
        content: [{ type: 'text', text: `read ${(JSON.parse(String(args.abstract_data)) as unknown[]).length} rows` }],
      };
    },
  };
}
