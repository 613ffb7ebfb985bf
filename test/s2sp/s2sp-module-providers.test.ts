import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Inject, Injectable, Module, type DynamicModule, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { RESOURCE_STORE, ResourcePublisher, S2spModule, type ResourceStore, type S2spModuleOptions } from '@s2sp/core';
import { splitRows } from '../../libs/s2sp/src/protocol/split-rows';
import type { ModuleOptionsFactory } from '@s2sp/platform';
import { MemoryResourceStore } from '../support/memory-resource-store';
import { sampleRows } from '../support/resource-fixtures';
import { fetchResource } from '../support/stack';

const TTL_MS = 123_000;
const STORE_NAME = 'test store name';

/** Where the issued resource_urls point: filled in once the app listens on its free port. */
class BaseUrl {
  value = '';
}

/** The options every variant gives, by whatever route; only through them do the URLs and expiries match. */
function optionsFor(baseUrl: BaseUrl): S2spModuleOptions {
  return { publicBaseUrl: () => baseUrl.value, resourceTtlMs: TTL_MS, dataPlaneAuth: 'capability', sweepIntervalMs: 0 };
}

/** A store that needs Nest to inject something, as a class given by `useClass` would. */
@Injectable()
class InjectedMemoryStore extends MemoryResourceStore {
  constructor(@Inject(STORE_NAME) readonly name: string) {
    super();
  }
}

interface Variant {
  name: string;
  /** The S2spModule import and what else the app needs; `store` resolves the store the app ended up with. */
  build(baseUrl: BaseUrl): { imports: DynamicModule['imports']; store(app: INestApplication): MemoryResourceStore };
}

const VARIANTS: Variant[] = [
  {
    name: 'forRoot with resourceStore { useValue }',
    build(baseUrl) {
      const store = new MemoryResourceStore();
      return {
        imports: [S2spModule.forRoot({ ...optionsFor(baseUrl), resourceStore: { useValue: store } })],
        store: () => store,
      };
    },
  },
  {
    name: 'forRootAsync { useFactory, inject } with resourceStore { useClass }',
    build(baseUrl) {
      @Module({ providers: [{ provide: BaseUrl, useValue: baseUrl }], exports: [BaseUrl] })
      class ConfigModule {}
      return {
        imports: [
          ConfigModule,
          S2spModule.forRootAsync({
            imports: [ConfigModule],
            useFactory: (given: BaseUrl) => optionsFor(given),
            inject: [BaseUrl],
            resourceStore: { useClass: InjectedMemoryStore },
            extraProviders: [{ provide: STORE_NAME, useValue: 'by class' }],
          }),
        ],
        store: (app) => {
          const store = app.get<ResourceStore>(RESOURCE_STORE);
          assert.ok(store instanceof InjectedMemoryStore, 'the store is an instance of the given class');
          assert.equal(store.name, 'by class', 'Nest built the class with its dependency');
          return store;
        },
      };
    },
  },
  {
    name: 'forRootAsync { useClass } with resourceStore { useFactory, inject }',
    build(baseUrl) {
      @Injectable()
      class OptionsFactory implements ModuleOptionsFactory<S2spModuleOptions> {
        createOptions(): S2spModuleOptions {
          return optionsFor(baseUrl);
        }
      }
      const store = new MemoryResourceStore();
      return {
        imports: [
          S2spModule.forRootAsync({
            useClass: OptionsFactory,
            resourceStore: {
              useFactory: (name: string) => (name === 'by factory' ? store : new MemoryResourceStore()),
              inject: [STORE_NAME],
            },
            extraProviders: [{ provide: STORE_NAME, useValue: 'by factory' }],
          }),
        ],
        store: () => store,
      };
    },
  },
  {
    name: 'forRootAsync { imports, useExisting } with resourceStore { useValue }',
    build(baseUrl) {
      @Injectable()
      class SharedOptions implements ModuleOptionsFactory<S2spModuleOptions> {
        createOptions(): S2spModuleOptions {
          return optionsFor(baseUrl);
        }
      }
      @Module({ providers: [SharedOptions], exports: [SharedOptions] })
      class OptionsModule {}
      const store = new MemoryResourceStore();
      return {
        imports: [
          S2spModule.forRootAsync({
            imports: [OptionsModule],
            useExisting: SharedOptions,
            resourceStore: { useValue: store },
          }),
        ],
        store: () => store,
      };
    },
  },
];

/** Publishes a 6-row table and fetches two of its rows over HTTP, as a consumer would. */
async function publishAndFetch(app: INestApplication, baseUrl: BaseUrl) {
  const split = splitRows(sampleRows(6), ['event']);
  const publishedAt = Date.now();
  const resourceUrl = await app.get(ResourcePublisher).publish('get_alerts', split);
  assert.ok(
    resourceUrl.startsWith(`${baseUrl.value}/s2sp/data/`),
    `${resourceUrl} is under the publicBaseUrl of the options`,
  );
  const first = await fetchResource(resourceUrl, { row_ids: [1, 4], columns: ['headline'] }, null);
  const again = await fetchResource(resourceUrl, {}, null);
  return { publishedAt, first, again };
}

async function listen(
  module: DynamicModule['module'],
  baseUrl: BaseUrl,
  options: { bodyParser?: boolean } = {},
): Promise<INestApplication> {
  const app = await NestFactory.create(module, { logger: false, ...options });
  await app.listen(0, '127.0.0.1');
  baseUrl.value = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return app;
}

describe('S2spModule options and resourceStore providers reach the data plane', () => {
  for (const variant of VARIANTS) {
    test(variant.name, async () => {
      const baseUrl = new BaseUrl();
      const built = variant.build(baseUrl);
      @Module({ imports: built.imports })
      class AppModule {}
      const app = await listen(AppModule, baseUrl, { bodyParser: false });
      try {
        const store = built.store(app);
        assert.equal(app.get(RESOURCE_STORE), store, 'the store behind RESOURCE_STORE is the given one');
        const { publishedAt, first, again } = await publishAndFetch(app, baseUrl);
        assert.equal(first.status, 200, JSON.stringify(first.json));
        assert.deepEqual(first.json.body, [
          { _row_id: 1, headline: sampleRows(6)[1].headline },
          { _row_id: 4, headline: sampleRows(6)[4].headline },
        ]);
        assert.equal(again.status, 404, 'the custom store consumed it: single use');
        assert.deepEqual(
          store.calls.slice(0, 3),
          ['save', 'findLive', 'claim'],
          'publishing and serving went through the given store',
        );
        assert.equal(store.saved.length, 1);
        const lifetime = store.saved[0].expiresAt.getTime() - publishedAt;
        assert.ok(
          lifetime >= TTL_MS && lifetime < TTL_MS + 5_000,
          `resourceTtlMs of the options is used (${lifetime} ms)`,
        );
      } finally {
        await app.close();
      }
    });
  }

  test('the expired-resource sweeper uses the given store too', async () => {
    const baseUrl = new BaseUrl();
    const store = new MemoryResourceStore();
    @Module({
      imports: [
        S2spModule.forRoot({ ...optionsFor(baseUrl), sweepIntervalMs: 20, resourceStore: { useValue: store } }),
      ],
    })
    class AppModule {}
    const app = await listen(AppModule, baseUrl, { bodyParser: false });
    try {
      const deadline = Date.now() + 5_000;
      while (!store.calls.includes('sweepExpired') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      assert.ok(store.calls.includes('sweepExpired'), 'the sweeper swept the given store');
    } finally {
      await app.close();
    }
  });
});

describe("the data plane behind Nest's global JSON body parser (Express)", () => {
  test("serves POST /s2sp/data/:token from the parsed body, under the parser's limit, without consuming refused requests", async () => {
    const baseUrl = new BaseUrl();
    const store = new MemoryResourceStore();
    @Module({ imports: [S2spModule.forRoot({ ...optionsFor(baseUrl), resourceStore: { useValue: store } })] })
    class AppModule {}
    const app = await listen(AppModule, baseUrl); // bodyParser left on, as NestFactory.create does by default
    try {
      const resourceUrl = await app.get(ResourcePublisher).publish('get_alerts', splitRows(sampleRows(6), ['event']));
      // 200 kB of JSON whitespace: within the data plane's own 1 MiB maxRequestBytes, over Express's 100 kB default.
      const padded = `{"row_ids": [2]${' '.repeat(200_000)}}`;
      const tooLarge = await fetchResource(resourceUrl, padded, null);
      assert.equal(tooLarge.status, 413, "the app's parser limit applies");
      assert.deepEqual(store.calls, ['save'], 'a request the parser refused never reached the store');

      const malformed = await fetchResource(resourceUrl, '{"row_ids": [', null);
      assert.equal(malformed.status, 400);

      const served = await fetchResource(resourceUrl, { row_ids: [0, 2], columns: ['severity'] }, null);
      assert.equal(served.status, 200, JSON.stringify(served.json));
      assert.deepEqual(served.json, {
        body: [
          { _row_id: 0, severity: 'Moderate' },
          { _row_id: 2, severity: 'Moderate' },
        ],
        total_rows: 2,
        columns_returned: ['_row_id', 'severity'],
      });
      assert.equal((await fetchResource(resourceUrl, {}, null)).status, 404, 'served once');

      const second = await app.get(ResourcePublisher).publish('get_alerts', splitRows(sampleRows(3), ['event']));
      const unknownColumn = await fetchResource(second, { columns: ['nope'] }, null);
      assert.equal(unknownColumn.status, 400);
      assert.equal(unknownColumn.json.error.code, 'UNKNOWN_COLUMN', 'the data plane validated the parsed body itself');
      const all = await fetchResource(second, undefined, null);
      assert.equal(all.status, 200, 'a POST without a body (nothing parsed) means every row and column');
      assert.equal(all.json.total_rows, 3);
    } finally {
      await app.close();
    }
  });
});
