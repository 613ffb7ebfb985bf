import { Controller, Get, Inject, Post, Query } from '@nestjs/common';
import { PrismaResourceStore, RESOURCE_STORE, ResourcePublisher, type ResourceStore } from '@s2sp/core';
import { splitRows } from '../../libs/s2sp/src/protocol/split-rows';
import { performance } from 'node:perf_hooks';
import type { BenchRow } from './bench-rows';
import { BenchTableHolder } from './bench-table-holder';
import { readProcessMemory, type ProcessMemory } from './process-memory';

/** Loopback-only bench control: publishes a fresh single-use resource per fetch, times publish and stringify. */
@Controller('bench')
export class BenchControlController {
  constructor(
    private readonly publisher: ResourcePublisher,
    private readonly table: BenchTableHolder,
    @Inject(RESOURCE_STORE) private readonly store: ResourceStore,
  ) {}

  @Post('publish')
  async publish(
    @Query('rows') rows: string,
    @Query('columns') columns: string,
  ): Promise<{ resourceUrl: string; publishMs: number }> {
    const columnCount = Number(columns);
    const split = splitRows(this.table.rows(Number(rows), columnCount), this.table.abstractDomains(columnCount));
    const started = performance.now();
    const resourceUrl = await this.publisher.publish('bench_table', split);
    return { resourceUrl, publishMs: performance.now() - started };
  }

  /** Waits for the tables still being written after their answer (`after-answer`), so the next publish is timed alone. */
  @Post('settle')
  async settle(): Promise<{ settled: true }> {
    if (this.store instanceof PrismaResourceStore) await this.store.writesSettled();
    return { settled: true };
  }

  @Post('stringify')
  stringify(@Query('rows') rows: string, @Query('columns') columns: string): { stringifyMs: number; bytes: number } {
    const table = this.table.rows(Number(rows), Number(columns));
    // Past ~200k wide rows one JSON text would pass V8's longest string: the same work, in slices.
    const slices: BenchRow[][] = [];
    if (table.length <= 200_000) slices.push(table);
    else for (let start = 0; start < table.length; start += 100_000) slices.push(table.slice(start, start + 100_000));
    let bytes = 0;
    const started = performance.now();
    for (const slice of slices) bytes += Buffer.byteLength(JSON.stringify(slice));
    return { stringifyMs: performance.now() - started, bytes };
  }

  @Get('memory')
  memory(): ProcessMemory {
    return readProcessMemory();
  }
}
