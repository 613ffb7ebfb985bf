import { BadRequestException, Body, Controller, Header, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { TokenMinter, type ResolvedAuthOptions } from '@s2sp/auth';
import { AUTH_OPTIONS, isValidScope } from '@s2sp/auth/internal';
import { CONSOLE_OPTIONS } from './console.constants';
import { ConsoleRouteGate } from './console-route-gate';
import type { ConsoleOptions } from './console-options';
import { DevTokenRequestGuard } from './dev-token-request.guard';

const MAX_SUBJECT_LENGTH = 128;
const MAX_SCOPES = 64;
const SUBJECT = /^[A-Za-z0-9._@:-]+$/;

export interface DevTokenRequest {
  subject: string;
  scopes: string[];
}

/**
 * POST /console/api/dev-token {subject, scopes}: a gateway token for whoever
 * asks, with the scopes they ask for, for trying the console without `npm run
 * token`. Served only when console.devTokens is on, which it never is in
 * production (console.production, console-options.ts): it would let anyone be anyone.
 * Even then it answers only the console itself on a loopback-bound gateway
 * (DevTokenRequestGuard).
 */
@Controller('console/api')
@UseGuards(ConsoleRouteGate('devTokens'), DevTokenRequestGuard)
export class DevTokenController {
  constructor(
    private readonly minter: TokenMinter,
    @Inject(CONSOLE_OPTIONS) private readonly options: ConsoleOptions,
    @Inject(AUTH_OPTIONS) private readonly auth: ResolvedAuthOptions,
  ) {}

  @Post('dev-token')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async mint(@Body() body: unknown): Promise<{ token: string; expires_in: number }> {
    const request = devTokenRequest(body);
    const token = await this.minter.mint({
      ...request,
      audience: this.auth.audience,
      ttlSeconds: this.options.devTokenTtlSeconds,
      clientId: 'console-dev',
    });
    return { token, expires_in: this.options.devTokenTtlSeconds };
  }
}

/** The body, checked: a subject and a list of valid scopes, nothing else. */
export function devTokenRequest(body: unknown): DevTokenRequest {
  const fail = (why: string): never => {
    throw new BadRequestException(`dev token: ${why}`);
  };
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    fail('the body must be a JSON object {"subject": ..., "scopes": [...]}');
  const { subject, scopes, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) fail(`unknown member(s): ${unknown.join(', ')}`);
  if (
    typeof subject !== 'string' ||
    subject.length === 0 ||
    subject.length > MAX_SUBJECT_LENGTH ||
    !SUBJECT.test(subject)
  ) {
    fail(`subject must be 1 to ${MAX_SUBJECT_LENGTH} of A-Z a-z 0-9 . _ @ : -`);
  }
  if (!Array.isArray(scopes) || scopes.length > MAX_SCOPES || !scopes.every(isValidScope)) {
    fail(`scopes must be an array of at most ${MAX_SCOPES} scopes (e.g. "tasks:read")`);
  }
  return { subject: subject as string, scopes: [...new Set(scopes as string[])] };
}
