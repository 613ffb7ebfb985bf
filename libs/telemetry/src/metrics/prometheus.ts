import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as PrometheusExport from '@opentelemetry/exporter-prometheus';

/**
 * Content type of the Prometheus text exposition format.
 * @public
 */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * One app's Prometheus pull reader: a MetricReader for its MeterProvider
 * (no server of its own) and the text exposition of what it collects.
 * @public
 */
export class PrometheusScrape {
  readonly reader: PrometheusExport.PrometheusExporter;
  private readonly serializer: PrometheusExport.PrometheusSerializer;

  constructor() {
    // Loaded with the first app that keeps metrics, not by every importer of @s2sp/telemetry.
    const { PrometheusExporter, PrometheusSerializer } =
      require('@opentelemetry/exporter-prometheus') as typeof PrometheusExport;
    this.reader = new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true });
    this.serializer = new PrometheusSerializer('', false, undefined, false, true);
  }

  /** The current metrics in Prometheus text format. */
  async scrape(): Promise<string> {
    const { resourceMetrics, errors } = await this.reader.collect();
    const text = this.serializer.serialize(resourceMetrics);
    return errors.length > 0 ? `${text}# ${errors.length} collection error(s)\n` : text;
  }
}

/**
 * A small HTTP server answering `GET /metrics` (apps without an HTTP server, e.g. the agents).
 * @public
 */
export interface MetricsServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** @public */
export async function startMetricsServer(
  scrape: () => Promise<string>,
  port: number,
  host = '127.0.0.1',
): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404).end();
      return;
    }
    scrape().then(
      (text) =>
        response
          .writeHead(200, { 'content-type': PROMETHEUS_CONTENT_TYPE })
          .end(request.method === 'HEAD' ? undefined : text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${bound}/metrics`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
