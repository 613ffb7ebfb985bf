import { Injectable } from '@nestjs/common';
import type { McpCompletionRequest, McpCompletionSource } from '@s2sp/core';

/** Completes the template's `id` and the prompts' arguments from a fixed list. */
@Injectable()
export class ConformanceCompletions implements McpCompletionSource {
  complete(request: McpCompletionRequest): string[] {
    const value = request.argument.value;
    return ['1', '2', '3', 'alpha', 'beta'].filter((candidate) => candidate.startsWith(value));
  }
}
