/**
 * One log line per request (issue 14 "keep request logging useful but cheap"): Fastify's default writes two
 * (`incoming request`, `request completed`) with the request and reply serialised. This controller writes
 * one small line when the answer is sent: method, URL, status and time in ms. A successful read (a GET or
 * HEAD answered below 400) is logged at `debug`, since reads are the hot path and say nothing an operator
 * acts on; every write, every 4xx at `info`, and a failed reply at `error`.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

const READS = new Set(['GET', 'HEAD']);

/** Fastify's `logController` (server.ts): Fastify's own request lines, one line each. */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request failed');
    else if (reply.statusCode < 400 && READS.has(request.method)) reply.log.debug(line, 'request');
    else reply.log.info(line, 'request');
  }
}
