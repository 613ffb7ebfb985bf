// The contract version at the gateway: rpc.discover and GET /health.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CONTRACT_VERSION } from '@s2sp/contracts';
import { useGatewayWithFakeAgents } from '../support/gateway-harness';

describe('gateway: contract version', () => {
  const suite = useGatewayWithFakeAgents();

  test('rpc.discover states the contract version, without a token', async () => {
    const { status, json } = await suite.gw.post({ jsonrpc: '2.0', id: 1, method: 'rpc.discover' }, { authorization: '' });
    assert.equal(status, 200);
    assert.equal(json.result.info.version, CONTRACT_VERSION);
  });

  test('GET /health states the contract version', async () => {
    const { json } = await suite.gw.health();
    assert.equal(json.gateway.contractVersion, CONTRACT_VERSION);
  });
});
