import { PGlite, messages } from '@electric-sql/pglite';
import {
  DriverAdapterError,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';

/**
 * Prisma driver adapter factory for an in-process PGlite, usable by both the
 * Prisma client and the wasm schema engine.
 *
 * It corrects two things in `pglite-prisma-adapter` 0.7:
 * - `executeScript` does not await the script, so a failing migration became an
 *   unhandled rejection instead of an error the engine could report (now it is
 *   reported with PostgreSQL's code and message, as the pg adapter does);
 * - the shadow database (needed to diff migrations) is a fresh in-memory PGlite
 *   that is closed when the engine disposes of it.
 */
export function createPgliteAdapterFactory(db: PGlite): SqlMigrationAwareDriverAdapterFactory {
  const base = new PrismaPGlite(db) as unknown as SqlMigrationAwareDriverAdapterFactory;
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: async () => withAwaitedScripts(await base.connect(), db),
    connectToShadowDb: async () => {
      const shadow = new PGlite();
      const adapter = withAwaitedScripts(
        await (new PrismaPGlite(shadow) as unknown as SqlMigrationAwareDriverAdapterFactory).connect(),
        shadow,
      );
      return Object.assign(adapter, {
        dispose: async () => {
          if (!shadow.closed) await shadow.close();
        },
      });
    },
  };
}

function withAwaitedScripts(adapter: SqlDriverAdapter, db: PGlite): SqlDriverAdapter {
  return Object.assign(adapter, {
    executeScript: async (script: string): Promise<void> => {
      try {
        await db.exec(script);
      } catch (error) {
        throw toDriverAdapterError(error);
      }
    },
  });
}

function toDriverAdapterError(error: unknown): unknown {
  if (!(error instanceof messages.DatabaseError)) return error;
  return new DriverAdapterError({
    kind: 'postgres',
    code: error.code ?? 'N/A',
    severity: error.severity ?? 'N/A',
    message: error.message,
    detail: error.detail,
    column: error.column,
    hint: error.hint,
  });
}
