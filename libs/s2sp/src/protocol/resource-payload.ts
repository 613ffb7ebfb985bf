import type { AbstractFormat } from './abstract-format';
import { toColumnar } from './columnar-rows';
import type { S2spCompactResourcePayload, S2spResourcePayload } from './s2sp-payload';
import type { SplitResult } from './split-rows';

/**
 * The control-plane answer for rows split into abstract and body: async mode
 * when a `resourceUrl` was issued, else sync mode with the body inline. Key
 * order is part of the answer: it is what the model reads.
 */
export function resourcePayload(
  split: SplitResult,
  format: AbstractFormat,
  resourceUrl: string | undefined,
): S2spResourcePayload | S2spCompactResourcePayload {
  const total_rows = split.rows.length;
  if (format === 'columns') {
    const abstract = toColumnar(split.abstract, split.abstractDomains);
    return resourceUrl === undefined
      ? { total_rows, abstract, body: toColumnar(split.body, split.bodyDomains) }
      : { total_rows, body_domains: split.bodyDomains, resource_url: resourceUrl, abstract };
  }
  const envelope = {
    total_rows,
    columns: split.columns,
    abstract_domains: split.abstractDomains,
    body_domains: split.bodyDomains,
  };
  return resourceUrl === undefined
    ? { ...envelope, abstract: split.abstract, body: split.body }
    : { ...envelope, resource_url: resourceUrl, abstract: split.abstract };
}
