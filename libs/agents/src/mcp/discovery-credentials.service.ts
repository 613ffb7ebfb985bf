import { Injectable } from '@nestjs/common';
import { bearerHeader, TokenMinter } from '@s2sp/auth';

/** Subject of the agents' own discovery identity. */
export const DISCOVERY_SUBJECT = 'agents';
const TTL_SECONDS = 300;
const RENEW_BEFORE_MS = 60_000;

/**
 * The credential of the agents' MCP requests made for no caller: connecting,
 * tools/list and the notification stream. It names the agents and holds no
 * scope at all, so it can discover tools but call none that declares a scope;
 * every tool call carries its caller's narrowed token instead.
 */
@Injectable()
export class DiscoveryCredentials {
  private readonly cache = new Map<string, { header: string; renewAt: number }>();

  constructor(private readonly minter: TokenMinter) {}

  async authorizationFor(audience: string): Promise<string> {
    const cached = this.cache.get(audience);
    if (cached && cached.renewAt > Date.now()) return cached.header;
    const token = await this.minter.mint({ subject: DISCOVERY_SUBJECT, scopes: [], audience, ttlSeconds: TTL_SECONDS });
    const header = bearerHeader(token);
    this.cache.set(audience, { header, renewAt: Date.now() + TTL_SECONDS * 1000 - RENEW_BEFORE_MS });
    return header;
  }
}
