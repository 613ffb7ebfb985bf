import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { leaveRequestBodyUnread } from '@s2sp/platform/internal';

/**
 * The data plane reads its request body itself (readJsonBody: its own byte limit,
 * 413/415/400 codes). On Fastify the stream is left unread for it; on Express
 * there is nothing to do (serveMcp creates the app without a body parser).
 */
@Injectable()
export class UnreadDataPlaneBody implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (adapter) leaveRequestBodyUnread(adapter, '/s2sp/data');
  }
}
