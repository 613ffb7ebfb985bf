import { ConsoleLogger } from '@nestjs/common';

/**
 * A Nest logger that writes every level to stderr. Under the stdio transport
 * stdout carries the MCP protocol, so a log line there would corrupt it.
 */
export class StderrLogger extends ConsoleLogger {
  protected override printMessages(
    messages: unknown[],
    context = '',
    logLevel: Parameters<ConsoleLogger['log']>[0] = 'log',
  ): void {
    super.printMessages(messages, context, logLevel as never, 'stderr');
  }
}
