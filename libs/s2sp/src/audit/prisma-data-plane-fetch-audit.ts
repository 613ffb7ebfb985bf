import type { PrismaClient } from '../persistence/generated/client';
import type { DataPlaneFetchAudit, DataPlaneFetchRecord } from './data-plane-fetch-audit';

/** Audits every data-plane fetch in `s2sp_data_fetch`. */
export class PrismaDataPlaneFetchAudit implements DataPlaneFetchAudit {
  constructor(private readonly prisma: PrismaClient) {}

  async record(fetch: DataPlaneFetchRecord): Promise<void> {
    await this.prisma.dataPlaneFetch.create({
      data: {
        time: fetch.time,
        resourceId: fetch.resourceId ?? null,
        toolName: fetch.toolName ?? null,
        subject: fetch.subject ?? null,
        consumer: fetch.consumer ?? null,
        delegatedBy: [...fetch.delegatedBy],
        callerScopes: fetch.callerScopes ? [...fetch.callerScopes] : undefined,
        result: fetch.result,
        reason: fetch.reason ?? null,
        rows: fetch.rows,
        columns: fetch.columns,
        bytes: fetch.bytes,
        traceId: fetch.traceId ?? null,
      },
    });
  }
}
