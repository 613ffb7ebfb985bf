import { UseFilters } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import {
  inputRequired,
  inputResponse,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type InputRequest,
} from '@modelcontextprotocol/server';
import { McpController, Tool, type McpContext } from '@rekog/mcp-nest';
import { McpProtocolErrorFilter, mcpServerContext, runAsTask, type McpTaskContext } from '@s2sp/core';
import { z } from 'zod';
import { text } from './results';

/** Waits `ms`, or rejects as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('cancelled'));
      return;
    }
    const timer = setTimeout(resolve, ms);
    const abort = (): void => {
      clearTimeout(timer);
      reject(new Error('cancelled'));
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}

function confirmation(message: string): InputRequest {
  return inputRequired.elicit({
    message,
    requestedSchema: {
      type: 'object',
      properties: { name: { type: 'string' }, confirm: { type: 'boolean' } },
      required: ['confirm'],
    },
  });
}

function accepted(task: McpTaskContext, key: string): boolean {
  const answer = inputResponse(task.inputResponses, key);
  return answer.kind === 'elicit' && answer.action === 'accept';
}

/** The fixtures of the suite's io.modelcontextprotocol/tasks scenarios. */
@McpController()
// A missing extension reaches the client as the protocol error it is (-32021).
@UseFilters(McpProtocolErrorFilter)
export class TaskToolsController {
  @Tool({
    name: 'greet',
    description: 'Greets at once (never a task).',
    parameters: z.object({ name: z.string() }),
  })
  greet(@Payload() args: { name: string }): CallToolResult {
    return text(`Hello, ${args.name}!`);
  }

  @Tool({
    name: 'slow_compute',
    description: 'Sleeps for `seconds`, as a task when the client supports tasks.',
    parameters: z.object({ seconds: z.number().min(0).max(120), label: z.string().optional() }),
  })
  slowCompute(@Payload() args: { seconds: number; label?: string }, @Ctx() context: McpContext) {
    return runAsTask(context, async (task) => {
      await sleep(args.seconds * 1000, task.signal);
      return text(`Computed ${args.label ?? 'result'} after ${args.seconds} s`);
    });
  }

  @Tool({ name: 'failing_job', description: 'A task that ends in a tool error (needs tasks).' })
  failingJob(@Ctx() context: McpContext) {
    return runAsTask(
      context,
      async (task) => {
        await sleep(200, task.signal);
        return { content: [{ type: 'text', text: 'The job failed.' }], isError: true };
      },
      { required: true },
    );
  }

  @Tool({ name: 'protocol_error_job', description: 'A task that fails with a protocol error.' })
  protocolErrorJob(@Ctx() context: McpContext) {
    return runAsTask(context, async (task) => {
      await sleep(200, task.signal);
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'The job broke down.');
    });
  }

  @Tool({
    name: 'confirm_delete',
    description: 'Deletes a file once the user confirms (a task that asks).',
    parameters: z.object({ filename: z.string() }),
  })
  confirmDelete(@Payload() args: { filename: string }, @Ctx() context: McpContext) {
    return runAsTask(context, async (task) =>
      accepted(task, 'confirm')
        ? text(`Deleted ${args.filename}`)
        : inputRequired({ inputRequests: { confirm: confirmation(`Delete ${args.filename}?`) } }),
    );
  }

  @Tool({ name: 'multi_input', description: 'A task that asks two questions at once.' })
  multiInput(@Ctx() context: McpContext) {
    return runAsTask(context, async (task) =>
      accepted(task, 'first') && accepted(task, 'second')
        ? text('Both answered')
        : inputRequired({ inputRequests: { first: confirmation('First?'), second: confirmation('Second?') } }),
    );
  }

  @Tool({
    name: 'test_tool_with_task',
    description: 'Asks for a name (InputRequiredResult), then goes on as a task.',
  })
  async toolWithTask(@Ctx() context: McpContext) {
    const answer = inputResponse(mcpServerContext(context).mcpReq.inputResponses, 'user_name');
    if (answer.kind !== 'elicit' || answer.action !== 'accept')
      return inputRequired({
        inputRequests: {
          user_name: inputRequired.elicit({
            message: 'What is your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          }),
        },
      });
    const name = String(answer.content?.['name'] ?? 'friend');
    return runAsTask(
      context,
      async (task) => {
        await sleep(100, task.signal);
        return text(`Hello, ${name}!`);
      },
      { required: true },
    );
  }
}
