import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  Controller,
  Delete,
  Get,
  Inject,
  Injectable,
  Module,
  Param,
  UseGuards,
  type INestApplication,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  AllowAnonymous,
  APPROVAL_PROVIDER,
  AuthModule,
  Caller,
  HttpAuthGuard,
  InMemoryAuditSink,
  MutationClass,
  RequireScopes,
  TokenMinter,
  type ApprovalDecision,
  type ApprovalProvider,
  type ApprovalRequest,
  type AuthModuleOptions,
  type CallerIdentity,
  type ResolvedAuthOptions,
} from '../../libs/auth/src';
import { AUTH_OPTIONS } from '../../libs/auth/src/internal';
import { tempDir } from './auth-fixtures';

@Controller('alerts')
@UseGuards(HttpAuthGuard)
class AlertsHttpController {
  @Get('health')
  @AllowAnonymous()
  health() {
    return { status: 'ok' };
  }

  @Get()
  @RequireScopes('weather:read')
  list(@Caller() caller: CallerIdentity) {
    return { subject: caller.subject, scopes: caller.scopes };
  }

  @Delete(':id')
  @RequireScopes('weather:write')
  @MutationClass(MutationClass.DESTRUCTIVE)
  remove(@Param('id') id: string) {
    return { deleted: id };
  }
}

/** A real provider resolved through DI (it injects the module's options). */
@Injectable()
class ApproveAsPolicy implements ApprovalProvider {
  readonly seen: ApprovalRequest[] = [];
  constructor(@Inject(AUTH_OPTIONS) private readonly options: ResolvedAuthOptions) {}
  async decide(request: ApprovalRequest): Promise<ApprovalDecision> {
    this.seen.push(request);
    return { approved: true, approver: `policy:${this.options.audience}` };
  }
}

async function startApp(
  options: Partial<AuthModuleOptions>,
  audit: InMemoryAuditSink,
  dataDir: string,
): Promise<{ app: INestApplication; url: string }> {
  @Module({
    imports: [
      AuthModule.forRoot({
        audience: 'weather-server',
        dataDir,
        auditSink: { useValue: audit },
        auditDelivery: { mode: 'blocking' },
        ...options,
      }),
    ],
    controllers: [AlertsHttpController],
  })
  class AppModule {}
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${port}` };
}

describe('HttpAuthGuard in a Nest app', () => {
  const dir = tempDir();
  const audit = new InMemoryAuditSink();
  let denying: { app: INestApplication; url: string };
  let approving: { app: INestApplication; url: string };
  let minter: TokenMinter;
  const token = (scopes: string[], audience = 'weather-server', ttlSeconds = 300) =>
    minter.mint({ subject: 'alice', scopes, audience, ttlSeconds });
  const call = (base: string, path: string, init: RequestInit & { token?: string } = {}) =>
    fetch(`${base}${path}`, { ...init, headers: init.token ? { authorization: `Bearer ${init.token}` } : {} });

  before(async () => {
    denying = await startApp({}, audit, dir.path);
    approving = await startApp({ approvalProvider: { useClass: ApproveAsPolicy } }, audit, dir.path);
    minter = denying.app.get(TokenMinter);
  });
  after(async () => {
    await denying?.app.close();
    await approving?.app.close();
    dir.remove();
  });

  test('401 with WWW-Authenticate: Bearer and a body without details, for a missing or bad token', async () => {
    const expired = await minter.mint({
      subject: 'alice',
      scopes: ['weather:read'],
      audience: 'weather-server',
      ttlSeconds: 1,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'Bearer realm="weather-server"'],
      ['not.a.token', 'Bearer realm="weather-server", error="invalid_token"'],
      [await token(['weather:read'], 'stats-server'), 'Bearer realm="weather-server", error="invalid_token"'],
    ];
    for (const [bearer, challenge] of cases) {
      const response = await call(denying.url, '/alerts', bearer ? { token: bearer } : {});
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), challenge);
      assert.deepEqual(await response.json(), {
        error: { code: 'UNAUTHENTICATED', message: 'Invalid or expired credentials.' },
      });
    }
    // Expired but inside the 30 s tolerance still passes; the tolerance is the verifier's business, not the guard's.
    assert.equal((await call(denying.url, '/alerts', { token: expired })).status, 200);
    const basic = await fetch(`${denying.url}/alerts`, { headers: { authorization: 'Basic YWxpY2U6c2VjcmV0' } });
    assert.equal(basic.status, 401);
  });

  test('403 naming the missing scope', async () => {
    const response = await call(denying.url, '/alerts', { token: await token(['stats:chart']) });
    assert.equal(response.status, 403);
    assert.equal(
      response.headers.get('www-authenticate'),
      'Bearer realm="weather-server", error="insufficient_scope", scope="weather:read"',
    );
    assert.deepEqual(await response.json(), {
      error: {
        code: 'PERMISSION_DENIED',
        message: 'Missing required scope: weather:read.',
        missing_scopes: ['weather:read'],
        required_scopes: ['weather:read'],
      },
    });
  });

  test('200 with the scope; the handler gets the caller through @Caller()', async () => {
    const response = await call(denying.url, '/alerts', { token: await token(['weather:read', 'stats:chart']) });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { subject: 'alice', scopes: ['weather:read', 'stats:chart'] });
    assert.equal((await fetch(`${denying.url}/alerts/health`)).status, 200, '@AllowAnonymous');
  });

  test('DESTRUCTIVE: the default approval provider denies, a custom provider injected through DI approves', async () => {
    const bearer = await token(['weather:write']);
    const denied = await call(denying.url, '/alerts/17', { method: 'DELETE', token: bearer });
    assert.equal(denied.status, 403);
    const body = (await denied.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'APPROVAL_REQUIRED');
    assert.match(body.error.message, /^Approval required/);

    const approved = await call(approving.url, '/alerts/17', { method: 'DELETE', token: bearer });
    assert.equal(approved.status, 200);
    assert.deepEqual(await approved.json(), { deleted: '17' });
    const provider = approving.app.get<ApprovalProvider>(APPROVAL_PROVIDER);
    assert.ok(provider instanceof ApproveAsPolicy);
    assert.equal(provider.seen[0]?.operation, 'DELETE /alerts/:id');
  });

  test('decisions are audited with the route pattern, never the URL or the token', async () => {
    const events = audit.events;
    assert.ok(
      events.some(
        (e) => e.decision === 'deny' && e.outcome === 'unauthenticated' && e.authenticationFailure === 'missing-token',
      ),
    );
    assert.ok(
      events.some(
        (e) => e.decision === 'deny' && e.outcome === 'unauthenticated' && e.authenticationFailure === 'wrong-audience',
      ),
    );
    assert.ok(events.some((e) => e.outcome === 'missing-scopes' && e.missingScopes.join() === 'weather:read'));
    const approvedDelete = events.find((e) => e.decision === 'allow' && e.mutationClass === 'DESTRUCTIVE');
    assert.equal(approvedDelete?.approval?.approver, 'policy:weather-server');
    assert.equal(approvedDelete?.operation, 'DELETE /alerts/:id');
    assert.ok(events.every((e) => e.protocol === 'http' && e.service === 'weather-server'));
    assert.ok(!JSON.stringify(events).includes('eyJ'), 'nothing token-shaped in audit');
  });
});
