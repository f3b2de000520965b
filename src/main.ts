import type { Ports } from './ports.js';

export async function handleRequest(ports: Ports): Promise<void> {
  const body = JSON.stringify({ status: 'ok', path: ports.env('REQUEST_URI') ?? null });
  ports.writeAnswer(`Status: 200 OK\r\nContent-Type: application/json\r\n\r\n${body}`);
}
