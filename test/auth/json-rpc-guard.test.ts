import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HttpException, type ExecutionContext } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import {
  ApprovalRequiredError,
  AuthenticationError,
  AuthModule,
  callerFrom,
  InMemoryAuditSink,
  MutationClass,
  PermissionDeniedError,
  RequireScopes,
  TokenMinter,
} from '../../libs/auth/src';
import { JsonRpcAuthGuard, type JsonRpcCallContext, type JsonRpcCaller } from '../../libs/json-rpc/src';
import { type AuthenticatedJsonRpcCaller } from '../../libs/json-rpc/src/json-rpc-auth.guard';
import { tempDir } from './auth-fixtures';

@RequireScopes('agent:use')
class TaskMethods {
  @RequireScopes('agent:submit')
  @MutationClass(MutationClass.NON_IDEMPOTENT_WRITE)
  submit() {}

  @RequireScopes('agent:read')
  get() {}
}

type CallContext = Pick<JsonRpcCallContext, 'method' | 'headers' | 'traceId' | 'remoteAddress'> & {
  caller: JsonRpcCaller;
};

/** What the gateway's engine passes: context type 'json-rpc', params first, the call context second. */
function jsonRpcContext(handler: () => void, ctx: CallContext, type = 'json-rpc'): ExecutionContext {
  const args = [{}, ctx];
  const unsupported = () => {
    throw new Error('not available in a json-rpc context');
  };
  return {
    getType: () => type,
    getArgs: () => args,
    getArgByIndex: (index: number) => args[index],
    getHandler: () => handler,
    getClass: () => TaskMethods,
    switchToHttp: unsupported,
    switchToRpc: unsupported,
    switchToWs: unsupported,
  } as unknown as ExecutionContext;
}

function callContext(method: string, authorization?: string): CallContext {
  return {
    method,
    headers: authorization === undefined ? {} : { authorization },
    caller: { authenticated: false, subject: 'anonymous', scopes: [] },
    traceId: '0af7651916cd43dd8448eb211c80319c',
    remoteAddress: '127.0.0.1',
  };
}

describe('JsonRpcAuthGuard', () => {
  const dir = tempDir();
  const audit = new InMemoryAuditSink();
  let moduleRef: TestingModule;
  let guard: JsonRpcAuthGuard;
  let minter: TokenMinter;
  const submit = TaskMethods.prototype.submit;
  const get = TaskMethods.prototype.get;
  const bearer = async (scopes: string[]) =>
    `Bearer ${await minter.mint({ subject: 'alice', scopes, audience: 'gateway', ttlSeconds: 300 })}`;

  before(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [
        AuthModule.forRoot({
          audience: 'gateway',
          dataDir: dir.path,
          auditSink: { useValue: audit },
          auditDelivery: { mode: 'blocking' },
        }),
      ],
      providers: [JsonRpcAuthGuard],
    }).compile();
    guard = moduleRef.get(JsonRpcAuthGuard);
    minter = moduleRef.get(TokenMinter);
  });
  after(async () => {
    await moduleRef?.close();
    dir.remove();
  });

  test('4001 without a valid token — an HttpException 401 too, so the gateway maps it even without knowing the library', async () => {
    for (const authorization of [undefined, 'Bearer nope', 'Basic YWxpY2U6c2VjcmV0']) {
      await assert.rejects(
        guard.canActivate(jsonRpcContext(get, callContext('agent.getTask', authorization))),
        (error: unknown) => {
          assert.ok(error instanceof AuthenticationError);
          assert.equal(error.jsonRpcCode, 4001);
          assert.equal(error.message, 'Invalid or expired credentials.');
          assert.ok(error instanceof HttpException && error.getStatus() === 401);
          return true;
        },
      );
    }
  });

  test('4002 naming the missing scope (class and method requirements add up)', async () => {
    await assert.rejects(
      guard.canActivate(jsonRpcContext(get, callContext('agent.getTask', await bearer(['agent:use'])))),
      (error: unknown) => {
        assert.ok(error instanceof PermissionDeniedError);
        assert.equal(error.jsonRpcCode, 4002);
        assert.deepEqual(error.missingScopes, ['agent:read']);
        assert.deepEqual(error.details, {
          missing_scopes: ['agent:read'],
          required_scopes: ['agent:read', 'agent:use'],
        });
        return true;
      },
    );
  });

  test('4003 for a NON_IDEMPOTENT_WRITE without approval', async () => {
    await assert.rejects(
      guard.canActivate(
        jsonRpcContext(submit, callContext('agent.submitTask', await bearer(['agent:use', 'agent:submit']))),
      ),
      (error: unknown) => {
        assert.ok(error instanceof ApprovalRequiredError);
        assert.equal(error.jsonRpcCode, 4003);
        return true;
      },
    );
  });

  test('allows and sets ctx.caller (and callerFrom(ctx)) to the verified caller', async () => {
    const ctx = callContext('agent.getTask', await bearer(['agent:use', 'agent:read']));
    assert.equal(await guard.canActivate(jsonRpcContext(get, ctx)), true);
    const caller = ctx.caller as AuthenticatedJsonRpcCaller;
    assert.equal(caller.authenticated, true);
    assert.equal(caller.subject, 'alice');
    assert.deepEqual(caller.scopes, ['agent:use', 'agent:read']);
    assert.equal(caller.identity.audience, 'gateway');
    assert.equal(callerFrom(ctx)?.subject, 'alice');
    const last = audit.events.at(-1)!;
    assert.equal(last.decision, 'allow');
    assert.equal(last.protocol, 'json-rpc');
    assert.equal(last.operation, 'agent.getTask');
    assert.equal(last.traceId, '0af7651916cd43dd8448eb211c80319c');
    assert.equal(last.remoteAddress, '127.0.0.1');
  });

  test('other context types are left to their own guard', async () => {
    assert.equal(await guard.canActivate(jsonRpcContext(get, callContext('x'), 'http')), true);
  });
});
