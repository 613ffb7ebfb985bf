import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ApprovalRequiredError,
  AuthenticationError,
  AuthorizationGate,
  authorize,
  DenyAllApprovalProvider,
  InMemoryAuditSink,
  mutationClassFromProto,
  MutationClass,
  PermissionDeniedError,
  type ApprovalProvider,
  type ApprovalRequest,
  type AuditSink,
  type AuthorizationTarget,
  type CallerIdentity,
} from '../../libs/auth/src';
import { devSetup, type DevSetup } from './auth-fixtures';

class RecordingApprover implements ApprovalProvider {
  readonly requests: ApprovalRequest[] = [];
  constructor(private readonly answer: (request: ApprovalRequest) => Promise<any>) {}
  decide(request: ApprovalRequest): Promise<any> {
    this.requests.push(request);
    return this.answer(request);
  }
}

const target: AuthorizationTarget = {
  protocol: 'json-rpc',
  service: 'gateway',
  operation: 'agent.submitTask',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
};

describe('authorize (the authorization gate: scopes, then approval)', () => {
  let dev: DevSetup;
  let alice: CallerIdentity;
  before(async () => {
    dev = await devSetup();
    alice = await dev.identity('alice', ['tasks:read', 'tasks:write'], 'gateway');
  });
  after(() => dev.dir.remove());

  test('missing scopes are denied, naming them', async () => {
    await assert.rejects(
      authorize(alice, ['tasks:read', 'tasks:admin', 'billing'], 'READ_ONLY', new DenyAllApprovalProvider()),
      (error: unknown) => {
        assert.ok(error instanceof PermissionDeniedError);
        assert.deepEqual(error.missingScopes, ['tasks:admin', 'billing']);
        assert.equal(error.message, 'Missing required scopes: tasks:admin, billing.');
        assert.equal(error.jsonRpcCode, 4002);
        assert.equal(error.getStatus(), 403);
        return true;
      },
    );
  });

  test('READ_ONLY and IDEMPOTENT_WRITE with the scopes pass without asking for approval', async () => {
    const approver = new RecordingApprover(async () => ({ approved: false }));
    for (const mc of [MutationClass.READ_ONLY, MutationClass.IDEMPOTENT_WRITE]) {
      const grant = await authorize(alice, ['tasks:read'], mc, approver);
      assert.equal(grant.mutationClass, mc);
      assert.equal(grant.approval, undefined);
    }
    assert.equal(approver.requests.length, 0);
  });

  test('NON_IDEMPOTENT_WRITE and DESTRUCTIVE are refused by the default provider with a clear "approval required"', async () => {
    for (const mc of ['NON_IDEMPOTENT_WRITE', 'DESTRUCTIVE'] as const) {
      await assert.rejects(authorize(alice, ['tasks:write'], mc, new DenyAllApprovalProvider()), (error: unknown) => {
        assert.ok(error instanceof ApprovalRequiredError);
        assert.match(error.message, /^Approval required/);
        assert.equal(error.jsonRpcCode, 4003);
        assert.equal(error.approval.approved, false);
        return true;
      });
    }
  });

  test('an approving provider lets them through and sees who, what and where — never a token', async () => {
    const approver = new RecordingApprover(async () => ({ approved: true, approver: 'ops-oncall' }));
    const grant = await authorize(alice, ['tasks:write'], 'DESTRUCTIVE', approver, { target });
    assert.equal(grant.approval?.approved, true);
    assert.equal(grant.approval?.approver, 'ops-oncall');
    const [request] = approver.requests;
    assert.equal(request.subject, 'alice');
    assert.equal(request.operation, 'agent.submitTask');
    assert.equal(request.mutationClass, 'DESTRUCTIVE');
    assert.deepEqual(Object.keys(request).sort(), [
      'delegatedBy',
      'mutationClass',
      'operation',
      'protocol',
      'requestedAt',
      'requiredScopes',
      'service',
      'subject',
      'traceId',
    ]);
  });

  test('only a literal approved: true approves; a failing or silent provider denies', async () => {
    const cases: Array<[ApprovalProvider, string]> = [
      [new RecordingApprover(async () => ({ approved: 'yes' })), 'decided'],
      [new RecordingApprover(async () => undefined), 'decided'],
      [
        new RecordingApprover(async () => {
          throw new Error('approval service down');
        }),
        'error',
      ],
      [new RecordingApprover(() => new Promise(() => undefined)), 'timeout'],
    ];
    for (const [provider, via] of cases) {
      await assert.rejects(
        authorize(alice, [], 'NON_IDEMPOTENT_WRITE', provider, { approvalTimeoutMs: 50 }),
        (error: unknown) =>
          error instanceof ApprovalRequiredError && error.approval.via === via && !error.approval.approved,
      );
    }
  });

  test('proto mutation classes map, and unknown ones fail closed as DESTRUCTIVE', () => {
    assert.equal(mutationClassFromProto('MUTATION_CLASS_READ_ONLY'), 'READ_ONLY');
    assert.equal(mutationClassFromProto(3), 'NON_IDEMPOTENT_WRITE');
    assert.equal(mutationClassFromProto('MUTATION_CLASS_UNSPECIFIED'), 'DESTRUCTIVE');
    assert.equal(mutationClassFromProto(undefined), 'DESTRUCTIVE');
    assert.throws(() => MutationClass('WRITE' as never), /unknown mutation class/);
  });
});

describe('AuthorizationGate audit', () => {
  let dev: DevSetup;
  before(async () => {
    dev = await devSetup();
  });
  after(() => dev.dir.remove());

  test('every decision, allow or deny, is recorded once, with who/what/why and no token', async () => {
    const audit = new InMemoryAuditSink();
    const gate = new AuthorizationGate(dev.verifier('gateway'), new DenyAllApprovalProvider(), audit);
    const token = await dev.minter.mint({
      subject: 'alice',
      scopes: ['tasks:read'],
      audience: 'gateway',
      ttlSeconds: 60,
      clientId: 'web',
    });
    const header = `Bearer ${token}`;
    const read = { requiredScopes: ['tasks:read'], mutationClass: 'READ_ONLY' } as const;

    await gate.check(header, read, target);
    await assert.rejects(
      gate.check(header, { requiredScopes: ['tasks:admin'], mutationClass: 'READ_ONLY' }, target),
      PermissionDeniedError,
    );
    await assert.rejects(
      gate.check(header, { requiredScopes: [], mutationClass: 'DESTRUCTIVE' }, target),
      ApprovalRequiredError,
    );
    await assert.rejects(gate.check(undefined, read, target), AuthenticationError);
    await assert.rejects(gate.check(`Bearer ${token}x`, read, target), AuthenticationError);
    await assert.rejects(
      gate
        .check(header, read, { ...target, operation: 'POST /s2sp/data/dK7xAbCdEfGhIjKlMnOpQrStUvWxYz0123456789abc' })
        .then(() => {
          throw new Error('allowed');
        }),
      /allowed/,
    );

    const events = audit.events;
    assert.deepEqual(
      events.map((e) => [e.decision, e.outcome]),
      [
        ['allow', 'authorized'],
        ['deny', 'missing-scopes'],
        ['deny', 'approval-denied'],
        ['deny', 'unauthenticated'],
        ['deny', 'unauthenticated'],
        ['allow', 'authorized'],
      ],
    );
    const [allow, missing, approval, noToken, badSignature, dataPlane] = events;
    assert.equal(allow.subject, 'alice');
    assert.equal(allow.clientId, 'web');
    assert.equal(allow.service, 'gateway');
    assert.equal(allow.protocol, 'json-rpc');
    assert.equal(allow.operation, 'agent.submitTask');
    assert.equal(allow.traceId, target.traceId);
    assert.equal(allow.mutationClass, 'READ_ONLY');
    assert.match(allow.tokenId ?? '', /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(allow.time)));
    assert.deepEqual(missing.missingScopes, ['tasks:admin']);
    assert.equal(approval.approval?.approved, false);
    assert.equal(approval.mutationClass, 'DESTRUCTIVE');
    assert.equal(noToken.authenticationFailure, 'missing-token');
    assert.equal(noToken.subject, undefined);
    assert.equal(badSignature.authenticationFailure, 'bad-signature');
    assert.equal(dataPlane.operation, 'POST /s2sp/data/[redacted]');
    const serialized = JSON.stringify(events);
    assert.ok(!serialized.includes(token) && !serialized.includes(token.split('.')[2]), 'no token in audit');
  });

  test('an allow the sink cannot record fails the call; a denial stands even if the sink fails', async () => {
    const failing: AuditSink = {
      record: () => {
        throw new Error('disk full');
      },
    };
    const gate = new AuthorizationGate(dev.verifier('gateway'), new DenyAllApprovalProvider(), failing);
    const header = `Bearer ${await dev.minter.mint({ subject: 'alice', scopes: ['a'], audience: 'gateway', ttlSeconds: 60 })}`;
    await assert.rejects(
      gate.check(header, { requiredScopes: ['a'], mutationClass: 'READ_ONLY' }, target),
      /disk full/,
    );
    await assert.rejects(
      gate.check(header, { requiredScopes: ['b'], mutationClass: 'READ_ONLY' }, target),
      PermissionDeniedError,
    );
  });
});
