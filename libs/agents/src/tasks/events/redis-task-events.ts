import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { SharedRedis } from '@s2sp/platform';
import { FINAL_STATUSES, UNFINISHED_STATUSES, type StepRecord, type TaskStatusName } from '../task-records';
import type { RemoteCancelHandler, RemoteCancelRequest, RemoteTaskFollower, TaskEvents } from './task-events';

const TASK_STATUSES: ReadonlySet<string> = new Set([...UNFINISHED_STATUSES, ...FINAL_STATUSES]);

type TaskEvent = { kind: 'step'; step: StepRecord } | { kind: 'end' };
interface CancelMessage extends RemoteCancelRequest {
  requestId: string;
  replyTo: string;
}
interface CancelReply {
  requestId: string;
  status: TaskStatusName;
}

/**
 * TaskEvents over Redis pub/sub (REDIS_URL), chosen over PostgreSQL
 * LISTEN/NOTIFY because: NOTIFY payloads stop at 8000 bytes while a step
 * record can be far larger; LISTEN needs a connection held outside Prisma's
 * pool; and the embedded single-process default, which needs neither, keeps
 * no extra moving part. Pub/sub delivers at most once and keeps nothing, which
 * is enough: the database holds every step and final state, events are sent
 * only after those are stored, and a follower subscribes before it reads them.
 *
 * Channels (under the key prefix): `tasks:events:<task id>` (steps and end),
 * `tasks:cancel` (every replica listens; only the one running the task
 * answers) and `tasks:cancel-replies:<replica id>`.
 */
export class RedisTaskEvents implements TaskEvents {
  private readonly logger = new Logger('TaskEvents');
  private readonly replicaId = randomUUID();
  private readonly followers = new Map<string, Set<RemoteTaskFollower>>();
  private readonly pendingCancels = new Map<string, (status: TaskStatusName) => void>();
  private cancelHandler: RemoteCancelHandler | undefined;

  private constructor(
    private readonly redis: SharedRedis,
    private readonly subscriber: Redis,
    private readonly cancelReplyTimeoutMs: number,
  ) {
    subscriber.on('message', (channel: string, message: string) => this.dispatch(channel, message));
  }

  /** Opens the subscriber connection and listens for cancel requests and the replies meant for this replica. */
  static async connect(redis: SharedRedis, options: { cancelReplyTimeoutMs: number }): Promise<RedisTaskEvents> {
    const events = new RedisTaskEvents(redis, await redis.subscriber(), options.cancelReplyTimeoutMs);
    await events.subscriber.subscribe(events.cancelChannel, events.replyChannel(events.replicaId));
    return events;
  }

  async publishStep(step: StepRecord): Promise<void> {
    await this.publish(this.eventChannel(step.task_id), { kind: 'step', step } satisfies TaskEvent);
  }

  async publishEnd(taskId: string): Promise<void> {
    await this.publish(this.eventChannel(taskId), { kind: 'end' } satisfies TaskEvent);
  }

  async follow(taskId: string, follower: RemoteTaskFollower): Promise<() => void> {
    const channel = this.eventChannel(taskId);
    let followers = this.followers.get(channel);
    if (!followers) {
      followers = new Set();
      this.followers.set(channel, followers);
    }
    followers.add(follower);
    // Re-subscribing to a channel already subscribed is harmless, and resolves only once Redis confirmed it.
    await this.subscriber.subscribe(channel);
    return () => {
      const current = this.followers.get(channel);
      if (!current?.delete(follower) || current.size > 0) return;
      this.followers.delete(channel);
      void this.subscriber
        .unsubscribe(channel)
        .catch((error: unknown) => this.warn('unsubscribe from task events', error));
    };
  }

  async requestCancel(request: RemoteCancelRequest): Promise<TaskStatusName | undefined> {
    const requestId = randomUUID();
    // Waiting starts before the request is sent: the answer may arrive before PUBLISH returns.
    let settle: (status: TaskStatusName | undefined) => void = () => undefined;
    const answered = new Promise<TaskStatusName | undefined>((resolve) => {
      const timer = setTimeout(() => settle(undefined), this.cancelReplyTimeoutMs);
      settle = (status) => {
        clearTimeout(timer);
        this.pendingCancels.delete(requestId);
        resolve(status);
      };
    });
    this.pendingCancels.set(requestId, settle);
    const message: CancelMessage = { ...request, requestId, replyTo: this.replicaId };
    let listeners: number;
    try {
      listeners = await this.redis.client.publish(this.cancelChannel, JSON.stringify(message));
    } catch (error) {
      settle(undefined);
      throw error;
    }
    // This replica's own subscription counts as one listener: nobody else heard the request.
    if (listeners <= 1) settle(undefined);
    return answered;
  }

  handleCancelRequests(handler: RemoteCancelHandler): void {
    this.cancelHandler = handler;
  }

  private dispatch(channel: string, text: string): void {
    const message = parseJson(text);
    if (message === undefined) {
      this.logger.warn(`Ignored a message that is not JSON on ${channel}`);
      return;
    }
    if (channel === this.cancelChannel) return void this.answerCancel(message);
    if (channel === this.replyChannel(this.replicaId)) {
      this.settleCancel(message);
      return;
    }
    const followers = this.followers.get(channel);
    if (!followers) return;
    const event = taskEventOf(message);
    if (!event) {
      this.logger.warn(`Ignored a malformed task event on ${channel}`);
      return;
    }
    for (const follower of [...followers]) {
      if (event.kind === 'step') follower.step(event.step);
      else follower.end();
    }
  }

  private async answerCancel(message: unknown): Promise<void> {
    const request = cancelMessageOf(message);
    if (!request) {
      this.logger.warn('Ignored a malformed cancel request');
      return;
    }
    if (!this.cancelHandler) return;
    try {
      const status = await this.cancelHandler({ taskId: request.taskId, mode: request.mode, reason: request.reason });
      if (status === undefined) return;
      const reply: CancelReply = { requestId: request.requestId, status };
      await this.publish(this.replyChannel(request.replyTo), reply);
    } catch (error) {
      this.warn(`cancel task ${request.taskId} for another replica`, error);
    }
  }

  private settleCancel(message: unknown): void {
    const reply = message as Partial<CancelReply>;
    if (typeof reply?.requestId !== 'string' || typeof reply.status !== 'string' || !TASK_STATUSES.has(reply.status)) {
      this.logger.warn('Ignored a malformed cancel reply');
      return;
    }
    this.pendingCancels.get(reply.requestId)?.(reply.status);
  }

  private async publish(channel: string, message: unknown): Promise<void> {
    await this.redis.client.publish(channel, JSON.stringify(message));
  }

  private get cancelChannel(): string {
    return this.redis.key('tasks', 'cancel');
  }

  private replyChannel(replicaId: string): string {
    return this.redis.key('tasks', 'cancel-replies', replicaId);
  }

  private eventChannel(taskId: string): string {
    return this.redis.key('tasks', 'events', taskId);
  }

  private warn(what: string, error: unknown): void {
    this.logger.warn(`Could not ${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function taskEventOf(message: unknown): TaskEvent | undefined {
  const event = message as { kind?: unknown; step?: { task_id?: unknown; step_number?: unknown } } | null;
  if (event?.kind === 'end') return { kind: 'end' };
  if (event?.kind !== 'step' || typeof event.step !== 'object' || event.step === null) return undefined;
  if (typeof event.step.task_id !== 'string' || !Number.isSafeInteger(event.step.step_number)) return undefined;
  return { kind: 'step', step: event.step as StepRecord };
}

function cancelMessageOf(message: unknown): CancelMessage | undefined {
  const request = message as Partial<CancelMessage> | null;
  if (
    typeof request?.requestId !== 'string' ||
    typeof request.replyTo !== 'string' ||
    typeof request.taskId !== 'string'
  )
    return undefined;
  if (request.mode !== 'soft' && request.mode !== 'hard') return undefined;
  if (typeof request.reason !== 'string') return undefined;
  return request as CancelMessage;
}
