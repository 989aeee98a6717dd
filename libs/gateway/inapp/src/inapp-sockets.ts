import { Injectable, type OnApplicationBootstrap, type BeforeApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InAppFanoutStore } from '@notify/cache';
import type { InAppFanout, InAppItem } from '@notify/domain';
import { EndUserAuthenticator, type EndUser } from '@notify/gateway-auth';
import {
  type AppConfig,
  clientAddress,
  InjectConfig,
  InjectLogger,
  type Logger,
  proxyTrust,
  type ProxyTrust,
} from '@notify/platform';
import { RateLimitedError } from '@notify/util';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { InAppDeliveries } from './inapp-deliveries';

const WS_PATH = '/ws';
/** Protocol pings this often; a socket that has not answered the previous one is dropped. */
const HEARTBEAT_MS = 30_000;
/** Open connections per user and replica (tabs, devices); the oldest is closed beyond it. */
const MAX_SOCKETS_PER_USER = 20;
/** Clients send nothing but pongs: a frame larger than this closes the connection. */
const MAX_CLIENT_FRAME_BYTES = 1_024;
/** A slow reader whose unsent frames exceed this is dropped rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 1_048_576;

interface Connection {
  readonly socket: WebSocket;
  alive: boolean;
}

const userKey = (user: EndUser) => `${user.accountId}\u0000${user.envId}\u0000${user.userId}`;
const frame = (items: readonly InAppItem[]) =>
  JSON.stringify({ route: 'inapp_web/new_notifications', payload: { notifications: items } });

/** Refuses an upgrade with a plain HTTP answer (the browser sees the WebSocket fail to open). */
function refuse(socket: Duplex, status: 401 | 404 | 429, reason: string): void {
  const text = { 401: 'Unauthorized', 404: 'Not Found', 429: 'Too Many Requests' }[status];
  const body = JSON.stringify({ message: reason });
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * The in-app WebSocket at `/ws?envId=…&userId=…&userIdHash=…`, on the gateway's own
 * HTTP server; `envId` is the environment id or a public key of it. An upgrade is authenticated
 * exactly like the end-user REST API (secure mode needs the HMAC) and refused with 401 otherwise. Every replica subscribes to the in-app fan-out channel
 * of the coordination store (Redis pub/sub in a cluster) and writes each new item to the sockets
 * of its user that it holds, so a user connected to any replica receives it.
 */
@Injectable()
export class InAppSockets implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly server = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_CLIENT_FRAME_BYTES,
    perMessageDeflate: false,
    clientTracking: false,
  });
  private readonly byUser = new Map<string, Set<Connection>>();
  /** Which proxies may name the client: the REST routes' rule, so a proxy is never counted as the client. */
  private readonly trust: ProxyTrust;
  private heartbeat?: NodeJS.Timeout;
  private unsubscribe?: () => Promise<void>;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly authenticator: EndUserAuthenticator,
    private readonly deliveries: InAppDeliveries,
    private readonly fanout: InAppFanoutStore,
    @InjectLogger() private readonly logger: Logger,
    @InjectConfig() config: AppConfig,
  ) {
    this.trust = proxyTrust(config.http.trustProxy);
  }

  async onApplicationBootstrap(): Promise<void> {
    const http = this.adapterHost.httpAdapter.getHttpServer() as Server;
    http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      void this.upgrade(request, socket, head);
    });
    this.unsubscribe = await this.fanout.subscribe((fanout) => this.announce(fanout));
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Closes every socket with 1001 (going away) so clients reconnect to another replica at once. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.unsubscribe?.();
    for (const connections of this.byUser.values())
      for (const { socket } of connections) socket.close(1001, 'server shutting down');
    this.byUser.clear();
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    try {
      const url = new URL(request.url ?? '/', 'http://gateway');
      if (url.pathname !== WS_PATH) return refuse(socket, 404, `WebSocket connections go to ${WS_PATH}.`);
      const clientId = url.searchParams.get('envId') ?? '';
      const userId = url.searchParams.get('userId') ?? '';
      const hash = url.searchParams.get('userIdHash') ?? undefined;
      const outcome = await this.authenticator.authenticate(
        clientId && userId ? { clientId, userId, ...(hash ? { hash } : {}) } : undefined,
        clientAddress(request, this.trust),
      );
      if (typeof outcome === 'string') return refuse(socket, 401, outcome);
      this.server.handleUpgrade(request, socket, head, (ws) => this.accept(outcome, ws));
    } catch (error) {
      // The auth limiter refuses a caller that failed too often.
      if (error instanceof RateLimitedError) return refuse(socket, 429, error.message);
      this.logger.error({ err: error }, 'WebSocket upgrade failed');
      socket.destroy();
    }
  }

  private accept(user: EndUser, socket: WebSocket): void {
    const key = userKey(user);
    let connections = this.byUser.get(key);
    if (connections === undefined) this.byUser.set(key, (connections = new Set()));
    if (connections.size >= MAX_SOCKETS_PER_USER) {
      const oldest = connections.values().next().value;
      oldest?.socket.close(4008, 'too many connections for this user');
      if (oldest !== undefined) connections.delete(oldest);
    }
    const connection: Connection = { socket, alive: true };
    connections.add(connection);
    socket.on('pong', () => (connection.alive = true));
    socket.on('error', () => socket.terminate());
    socket.on('close', () => {
      connections.delete(connection);
      if (connections.size === 0 && this.byUser.get(key) === connections) this.byUser.delete(key);
    });
  }

  private announce(fanout: InAppFanout): void {
    const connections = this.byUser.get(userKey(fanout));
    if (connections === undefined) return;
    const text = frame([fanout.item]);
    let sent = 0;
    for (const { socket } of connections) {
      if (socket.readyState !== socket.OPEN) continue;
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        socket.terminate();
        continue;
      }
      socket.send(text);
      sent++;
    }
    if (sent > 0) this.deliveries.pushed(fanout, fanout.userId, fanout.item);
  }

  private beat(): void {
    for (const connections of this.byUser.values())
      for (const connection of connections) {
        if (!connection.alive) {
          connection.socket.terminate();
          continue;
        }
        connection.alive = false;
        connection.socket.ping();
      }
  }
}
