import { Injectable, Logger } from '@nestjs/common';
import type { McpServer } from '@modelcontextprotocol/server';

/** @public */
export type McpListKind = 'tools' | 'resources' | 'prompts';

/**
 * Reaches every open MCP session of the sessionful protocol era (Streamable
 * HTTP sessions and stdio, the era the v1 SDKs speak): list changes and
 * updates of subscribed resources. @rekog/mcp-nest announces list changes to
 * the stateless era only; its sessions' servers are registered here as they
 * are bound, and forgotten when they close.
 * @public
 */
@Injectable()
export class McpSessionBroadcaster {
  private readonly logger = new Logger('McpSessionBroadcaster');
  /** Open session servers and the resource URIs each subscribed to. */
  private readonly sessions = new Map<McpServer, Set<string>>();

  /** Registers a session's server (idempotent: a session is bound again on each request). */
  track(server: McpServer): void {
    if (this.sessions.has(server)) return;
    this.sessions.set(server, new Set());
    const low = server.server;
    const previous = low.onclose;
    low.onclose = () => {
      this.sessions.delete(server);
      previous?.();
    };
  }

  /** Sessions open now. */
  get openSessions(): number {
    return this.sessions.size;
  }

  subscribe(server: McpServer, uri: string): void {
    this.track(server);
    this.sessions.get(server)!.add(uri);
  }

  unsubscribe(server: McpServer, uri: string): void {
    this.sessions.get(server)?.delete(uri);
  }

  /** Sends `notifications/<kind>/list_changed` to every open session. */
  listChanged(kind: McpListKind): void {
    for (const server of this.connected()) {
      // The SDK types these sends void, although they may return a promise: hence Promise.resolve below.
      const send: () => unknown =
        kind === 'tools'
          ? () => server.sendToolListChanged()
          : kind === 'resources'
            ? () => server.sendResourceListChanged()
            : () => server.sendPromptListChanged();
      void Promise.resolve(send()).catch((error: unknown) => this.warn(`${kind}/list_changed`, error));
    }
  }

  /** Sends `notifications/resources/updated` for `uri` to the sessions subscribed to it. */
  resourceUpdated(uri: string): void {
    for (const server of this.connected()) {
      if (!this.sessions.get(server)!.has(uri)) continue;
      void server.server.sendResourceUpdated({ uri }).catch((error: unknown) => this.warn('resources/updated', error));
    }
  }

  private *connected(): Generator<McpServer> {
    for (const server of [...this.sessions.keys()]) {
      if (server.isConnected()) yield server;
      else this.sessions.delete(server);
    }
  }

  private warn(what: string, error: unknown): void {
    this.logger.warn(
      `Could not send ${what} to an MCP session: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
