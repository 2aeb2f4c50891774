import http from 'node:http';
import https from 'node:https';
import axios, { AxiosInstance } from 'axios';
import { ProviderError } from '../provider-error';

/** What the error mappers need from a failed HTTP exchange, independent of axios. */
export interface UpstreamFailure {
  /** HTTP status, or undefined when no response arrived (timeout, refused, reset). */
  status?: number;
  body?: unknown;
  retryAfter?: unknown;
  /** Node / axios error code for failures without a response, e.g. `ECONNREFUSED`, `ECONNABORTED`. */
  networkCode?: string;
  message: string;
}

/**
 * One axios instance per adapter. `validateStatus: () => true` keeps every HTTP answer on the
 * normal path so the mappers see status and body together; only network failures throw.
 */
export function createUpstreamHttp(baseUrl: string, accessToken: string, timeoutMs: number): AxiosInstance {
  return axios.create({
    baseURL: baseUrl.replace(/\/+$/, ''),
    timeout: timeoutMs,
    headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
    validateStatus: () => true,
    // A redirect from an API endpoint is a misconfiguration; following it would resend the bearer token elsewhere.
    maxRedirects: 0,
    proxy: false,
    // Connections are kept and reused: at thousands of sends per second a TCP (and TLS) handshake per send
    // would cost more than the send (docs/performance/dispatch.md#dispatch). The socket count stays bounded per upstream.
    httpAgent: new http.Agent({ keepAlive: true, maxSockets: 128 }),
    httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 128 }),
  });
}

export function toNetworkFailure(error: unknown): UpstreamFailure {
  if (axios.isAxiosError(error)) {
    return { networkCode: error.code ?? 'network_error', message: error.message };
  }
  return { networkCode: 'network_error', message: error instanceof Error ? error.message : String(error) };
}

export function networkFailureToError(failure: UpstreamFailure): ProviderError {
  return new ProviderError('transient', failure.networkCode ?? 'network_error', `upstream unreachable: ${failure.message}`);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
