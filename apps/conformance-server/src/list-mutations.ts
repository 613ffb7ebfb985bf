import { Injectable } from '@nestjs/common';
import type { S2spMcpStrategy } from '@s2sp/core';

/**
 * Changes the server's tool and prompt lists at run time through the MCP strategy, which tells
 * every session and every `subscriptions/listen` stream. Attached once the server has started.
 */
@Injectable()
export class ListMutations {
  private strategy: S2spMcpStrategy | undefined;
  private changes = 0;

  attach(strategy: S2spMcpStrategy): void {
    this.strategy = strategy;
  }

  /** Adds a tool on one call and removes it on the next: the list changes every time. */
  toggleTool(): void {
    const mcp = this.required();
    if (this.changes++ % 2 === 0)
      mcp.registerTool({
        name: 'test_dynamic_tool',
        description: 'Added by test_trigger_tool_change.',
        handler: () => ({ content: [{ type: 'text', text: 'dynamic' }] }),
      });
    else mcp.removeTool('test_dynamic_tool');
  }

  togglePrompt(): void {
    const mcp = this.required();
    if (this.changes++ % 2 === 0)
      mcp.registerPrompt({
        name: 'test_dynamic_prompt',
        description: 'Added by test_trigger_prompt_change.',
        handler: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'dynamic' } }] }),
      });
    else mcp.removePrompt('test_dynamic_prompt');
  }

  private required(): S2spMcpStrategy {
    if (!this.strategy) throw new Error('ListMutations: the server has not started');
    return this.strategy;
  }
}
