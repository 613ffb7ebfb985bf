/** GET /health as the console reads it (libs/gateway/src/health). */
export interface HealthReport {
  status: string;
  gateway: { version: string; contractVersion: string; database: { status: string }; audit: { status?: string } };
  agents: { url: string; status: string; circuit: { state: string }; error?: string };
  mcpServers: Array<{
    id: string;
    url: string;
    connected: boolean;
    circuit: string;
    toolCount: number;
    lastError?: string;
  }>;
  mcpServersError?: string;
}

/** The health of every app and MCP server; no token needed. */
export async function fetchHealth(): Promise<HealthReport> {
  const response = await fetch('/health');
  return (await response.json()) as HealthReport;
}
