import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { GRPC_CATALOG_METADATA } from '../../libs/contracts/src/internal';
import { FAKE_SURFACES, FakeAgents } from '../support/fake-agents';
import { removeTempDirs, rpcError, startTestGateway, type TestGateway } from '../support/gateway-harness';

const FINGERPRINT = GRPC_CATALOG_METADATA.SURFACES_FINGERPRINT;

/** The agents' surfaces as they stand after a change: another resource. */
const CHANGED_SURFACES = {
  ...FAKE_SURFACES,
  resources: [
    {
      server: 'weather',
      uri: 'weather://alerts/NY',
      name: 'alerts-NY',
      title: '',
      description: 'Alerts of NY',
      mime_type: 'application/json',
    },
  ],
};

describe("gateway tools.list: the agents' surfaces kept per catalog fingerprint", () => {
  let fake: FakeAgents;
  let gw: TestGateway;
  before(async () => {
    fake = await FakeAgents.start(0, { surfaces: true });
    gw = await startTestGateway(fake);
  });
  after(async () => {
    await gw?.close();
    await fake?.stop();
    await removeTempDirs();
  });
  beforeEach(() => fake.reset());

  const firstPage = async (params: Record<string, unknown> = {}) =>
    (await gw.client.request('tools.list', params)) as { resources?: Array<{ uri: string }>; nextCursor?: string };
  const uris = (page: { resources?: Array<{ uri: string }> }) => page.resources?.map((resource) => resource.uri);

  test('a ListTools that fails asks for no surfaces (one failed call for the circuit breaker to count, not two)', async () => {
    fake.fail('ListTools', GrpcStatus.UNAVAILABLE, 'down');
    assert.equal((await rpcError(gw.client.request('tools.list', {}))).code, -32001);
    assert.equal(fake.callsTo('ListSurfaces').length, 0);
  });

  test('while ListTools answers with the same fingerprint, first pages reuse the kept surfaces; a new fingerprint fetches them again', async () => {
    fake.headers('ListTools', { [FINGERPRINT]: 'catalog-1' }).headers('ListSurfaces', { [FINGERPRINT]: 'catalog-1' });
    const first = await firstPage();
    const second = await firstPage();
    assert.deepEqual(uris(first), ['weather://alerts/CA']);
    assert.deepEqual(second, first);
    assert.equal(fake.callsTo('ListTools').length, 2);
    assert.equal(fake.callsTo('ListSurfaces').length, 1, 'the second first page used the kept surfaces');

    // The catalog changes: the agents' fingerprint with it.
    fake
      .reply('ListSurfaces', CHANGED_SURFACES)
      .headers('ListTools', { [FINGERPRINT]: 'catalog-2' })
      .headers('ListSurfaces', { [FINGERPRINT]: 'catalog-2' });
    assert.deepEqual(uris(await firstPage()), ['weather://alerts/NY']);
    assert.deepEqual(uris(await firstPage()), ['weather://alerts/NY']);
    assert.equal(fake.callsTo('ListSurfaces').length, 2, 'fetched once for the new fingerprint');
  });

  test('the surfaces are kept per server filter', async () => {
    fake.headers('ListTools', { [FINGERPRINT]: 'catalog-3' }).headers('ListSurfaces', { [FINGERPRINT]: 'catalog-3' });
    await firstPage({ server: 'weather' });
    await firstPage({ server: 'weather' });
    await firstPage({ server: 'stats' });
    await firstPage({ server: 'stats' });
    assert.deepEqual(
      fake.callsTo('ListSurfaces').map((call) => call.request.server),
      ['weather', 'stats'],
    );
  });

  test('agents that send no fingerprint are asked for the surfaces on every first page; later pages never carry them', async () => {
    await firstPage();
    await firstPage();
    assert.equal(fake.callsTo('ListSurfaces').length, 2);
    const next = await firstPage({ page_size: 1 });
    assert.ok(next.nextCursor);
    const later = await firstPage({ page_size: 1, cursor: next.nextCursor });
    assert.equal(later.resources, undefined);
    assert.equal(fake.callsTo('ListSurfaces').length, 3, 'only the first pages asked');
  });

  test('a malformed fingerprint (too long) counts as none', async () => {
    const tooLong = 'x'.repeat(129);
    fake.headers('ListTools', { [FINGERPRINT]: tooLong }).headers('ListSurfaces', { [FINGERPRINT]: tooLong });
    await firstPage({ server: 'weather' });
    await firstPage({ server: 'weather' });
    assert.equal(fake.callsTo('ListSurfaces').length, 2);
  });
});
