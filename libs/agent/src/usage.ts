import type { S2spToolKind } from './tool-kind';

/**
 * Tokens (o200k_base) of one tool call: what entered the model's context, and what the session
 * kept out of it: the body and `resource_url` of a resource answer, the rows and capability it
 * filled into a consumer call (which the model would otherwise have had to write).
 * @public
 */
export interface S2spCallUsage {
  readonly tool: string;
  readonly serverId: string;
  readonly kind: S2spToolKind;
  readonly contextTokens: number;
  readonly keptOutTokens: number;
}

/**
 * The totals of a session, and each call.
 * @public
 */
export interface S2spSessionUsage {
  readonly contextTokens: number;
  readonly keptOutTokens: number;
  readonly calls: readonly S2spCallUsage[];
}

/** Adds up the calls of one session. */
export class UsageLedger {
  private readonly calls: S2spCallUsage[] = [];
  private contextTokens = 0;
  private keptOutTokens = 0;

  record(call: S2spCallUsage): S2spCallUsage {
    this.calls.push(call);
    this.contextTokens += call.contextTokens;
    this.keptOutTokens += call.keptOutTokens;
    return call;
  }

  get summary(): S2spSessionUsage {
    return { contextTokens: this.contextTokens, keptOutTokens: this.keptOutTokens, calls: [...this.calls] };
  }
}
