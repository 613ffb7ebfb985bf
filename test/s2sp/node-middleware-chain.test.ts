import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeMiddlewareChain, type NodeMiddleware } from '../../libs/s2sp/src/http/node-middleware-chain';

const request = {} as IncomingMessage;
const response = {} as ServerResponse;

/** Runs `chain` once: the arguments of each call of its `next`. */
function handedOnBy(chain: NodeMiddleware): unknown[][] {
  const handedOn: unknown[][] = [];
  chain(request, response, (...args: unknown[]) => {
    handedOn.push(args);
  });
  return handedOn;
}

/** A middleware that notes its name in `seen` and hands on (after a turn of the event loop when `later`). */
function passing(name: string, seen: string[], later = false): NodeMiddleware {
  return (req, res, next) => {
    assert.equal(req, request);
    assert.equal(res, response);
    const handOn = () => {
      seen.push(name);
      next();
    };
    if (later) setImmediate(handOn);
    else handOn();
  };
}

describe('nodeMiddlewareChain', () => {
  test('runs every middleware in order, on the same request and response, then hands on once', () => {
    const seen: string[] = [];
    const handedOn = handedOnBy(
      nodeMiddlewareChain([passing('host', seen), passing('auth', seen), passing('body', seen)]),
    );
    assert.deepEqual(seen, ['host', 'auth', 'body']);
    assert.deepEqual(handedOn, [[undefined]]);
  });

  test('a middleware that answers ends the chain: the rest do not run and nothing is handed on', () => {
    const seen: string[] = [];
    const refuses: NodeMiddleware = () => {
      seen.push('auth refuses');
    };
    const handedOn = handedOnBy(nodeMiddlewareChain([passing('host', seen), refuses, passing('body', seen)]));
    assert.deepEqual(seen, ['host', 'auth refuses']);
    assert.deepEqual(handedOn, []);
  });

  test('an error skips the rest and reaches next', () => {
    const failure = new Error('unreadable body');
    const seen: string[] = [];
    const fails: NodeMiddleware = (_req, _res, next) => {
      next(failure);
    };
    const handedOn = handedOnBy(nodeMiddlewareChain([fails, passing('scope check', seen)]));
    assert.deepEqual(seen, []);
    assert.deepEqual(handedOn, [[failure]]);
  });

  test('a middleware may hand on later (after reading the body)', async () => {
    const seen: string[] = [];
    const chain = nodeMiddlewareChain([passing('body read', seen, true), passing('scope check', seen)]);
    const handedOn = await new Promise<unknown>((resolve) => {
      chain(request, response, resolve);
    });
    assert.equal(handedOn, undefined);
    assert.deepEqual(seen, ['body read', 'scope check']);
  });
});
