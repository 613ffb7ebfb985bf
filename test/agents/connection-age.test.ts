import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { connectivityState, type Client } from '@grpc/grpc-js';
import { agentsTestConfig, startTestAgents, type RunningAgents } from '../support/agents-stack';
import { connectAgents, unary, type AgentsClients } from '../support/agents-grpc-client';

/** Waits for the channel to leave `from`; resolves with the state it moved to, or `from` if it did not move within `ms`. */
function nextState(client: Client, from: connectivityState, ms: number): Promise<connectivityState> {
  const channel = client.getChannel();
  return new Promise((resolve) => {
    if (channel.getConnectivityState(false) !== from) {
      resolve(channel.getConnectivityState(false));
      return;
    }
    channel.watchConnectivityState(from, Date.now() + ms, (error) =>
      resolve(error ? from : channel.getConnectivityState(false)),
    );
  });
}

/**
 * maxConnectionAgeMs (AGENTS_MAX_CONNECTION_AGE_MS): the agents ask each client
 * connection to move on after a while, so that a gateway resolves the replicas
 * again and reaches those started since it connected.
 */
describe('the age of a client connection to the agents', () => {
  const running: Array<{ agents: RunningAgents; clients: AgentsClients }> = [];
  after(async () => {
    for (const { agents, clients } of running) {
      clients.close();
      await agents.close();
    }
  });

  async function connectedClient(maxConnectionAgeMs: number): Promise<AgentsClients> {
    const agents = await startTestAgents(agentsTestConfig([], { maxConnectionAgeMs }));
    const clients = connectAgents(agents.url);
    running.push({ agents, clients });
    assert.equal((await unary(clients.health, 'Check', { service: '' })).status, 'SERVING');
    assert.equal(clients.health.getChannel().getConnectivityState(false), connectivityState.READY);
    return clients;
  }

  test('past maxConnectionAgeMs the connection is closed (the channel goes idle), and the next call connects again', async () => {
    const clients = await connectedClient(300);
    assert.equal(await nextState(clients.health, connectivityState.READY, 10_000), connectivityState.IDLE);
    assert.equal((await unary(clients.health, 'Check', { service: '' })).status, 'SERVING');
  });

  test('with 0 the connection stays', async () => {
    const clients = await connectedClient(0);
    assert.equal(await nextState(clients.health, connectivityState.READY, 1_500), connectivityState.READY);
  });
});
