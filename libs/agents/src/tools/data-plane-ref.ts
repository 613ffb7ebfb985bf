import { redactResourceUrl } from '../common/redact';
import type { S2spResourceAnswer } from '@s2sp/agent';

/**
 * DataPlaneRef (s2sp.v1) in JSON form: where the body of an S2SP resource answer is.
 * @public
 */
export interface DataPlaneRefRecord {
  mode: 'async' | 'sync';
  /** Async only. Full in InvokeTool answers (the caller needs it); redacted in task records. */
  resource_url?: string;
  abstract_domains: string[];
  body_domains: string[];
  total_rows: number;
  /** Epoch ms; the S2SP answer does not carry the expiry, so this stays unset today. */
  expires_at_ms?: number;
}

/**
 * The data-plane reference of an S2SP answer. `keepResourceUrl` false
 * replaces the capability token: records that are stored or streamed to
 * other readers must not hand out the body.
 */
export function dataPlaneRefOf(answer: S2spResourceAnswer, keepResourceUrl: boolean): DataPlaneRefRecord {
  const ref: DataPlaneRefRecord = {
    mode: answer.resourceUrl !== undefined ? 'async' : 'sync',
    abstract_domains: answer.abstractDomains,
    body_domains: answer.bodyDomains,
    total_rows: answer.totalRows,
  };
  if (answer.resourceUrl !== undefined)
    ref.resource_url = keepResourceUrl ? answer.resourceUrl : redactResourceUrl(answer.resourceUrl);
  return ref;
}
