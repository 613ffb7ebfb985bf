import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { FakeAgents } from '../support/fake-agents';
import { removeTempDirs, startTestGateway, type TestGateway } from '../support/gateway-harness';

const CALLS = 20;

/**
 * A gateway whose agents target names several replicas (as `dns:///` of a headless
 * Service does in Kubernetes, here as a fixed `ipv4:` list) spreads its calls over
 * them with `round_robin`, the default, and keeps to one with `pick_first`.
 */
describe('the gateway spreads its calls over the agents replicas its target names', () => {
  const fakes: FakeAgents[] = [];
  const gateways: TestGateway[] = [];
  after(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
    await Promise.all(fakes.map((fake) => fake.stop()));
    await removeTempDirs();
  });

  async function twoReplicasBehind(
    loadBalancing: 'round_robin' | 'pick_first' | undefined,
  ): Promise<{ replicas: FakeAgents[]; gateway: TestGateway }> {
    // With ListSurfaces served, each call is recorded wherever it lands (a tools.list makes two).
    const replicas = [await FakeAgents.start(0, { surfaces: true }), await FakeAgents.start(0, { surfaces: true })];
    fakes.push(...replicas);
    const agentsUrl = `ipv4:${replicas.map((replica) => replica.address).join(',')}`;
    const gateway = await startTestGateway(replicas[0], {
      agentsUrl,
      ...(loadBalancing ? { grpc: { loadBalancing } } : {}),
    });
    gateways.push(gateway);
    for (let call = 0; call < CALLS; call++) await gateway.client.request('tools.list', {});
    return { replicas, gateway };
  }

  test('round_robin (the default): every replica serves a share of the calls', async () => {
    const { replicas, gateway } = await twoReplicasBehind(undefined);
    assert.equal(gateway.config.grpc.loadBalancing, 'round_robin');
    const served = replicas.map((replica) => replica.calls.length);
    assert.equal(replicas[0].callsTo('ListTools').length + replicas[1].callsTo('ListTools').length, CALLS);
    const total = served[0] + served[1];
    assert.ok(
      served.every((count) => count >= total / 4),
      `calls per replica: ${served.join(', ')}`,
    );
  });

  test('pick_first: one connection, to the first replica', async () => {
    const { replicas } = await twoReplicasBehind('pick_first');
    assert.equal(replicas[0].callsTo('ListTools').length, CALLS);
    assert.equal(replicas[1].calls.length, 0);
  });
});
