// The in-app benchmark's baseline: a bare `ws` server on the same Redis pub/sub channel, writing
// each announced item to the sockets of its user: no authentication, no heartbeats, no delivery
// records. What remains between it and the gateway is the gateway's work.
import { createCoordinationStore } from '@notify/cache';
import { INAPP_FANOUT_CHANNEL, type InAppFanout } from '@notify/domain';
import { createLogger, loadAppConfig } from '@notify/platform';
import { createServer } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';

const config = loadAppConfig(process.env);
const coordination = createCoordinationStore(config, createLogger({ level: 'warn', service: 'baseline-ws' }));
const byUser = new Map<string, Set<WebSocket>>();
const key = (envId: string, userId: string) => `${envId}\u0000${userId}`;

const http = createServer((request, response) =>
  response.writeHead(request.url === '/health/ready' ? 200 : 404).end(),
);
const server = new WebSocketServer({ server: http, path: '/ws', perMessageDeflate: false });
server.on('connection', (socket, request) => {
  const query = new URL(request.url ?? '/', 'http://baseline').searchParams;
  const user = key(query.get('envId') ?? '', query.get('userId') ?? '');
  let sockets = byUser.get(user);
  if (sockets === undefined) byUser.set(user, (sockets = new Set()));
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});

void coordination
  .subscribe(INAPP_FANOUT_CHANNEL, (message) => {
    const fanout = JSON.parse(message) as InAppFanout;
    const frame = JSON.stringify({
      route: 'inapp_web/new_notifications',
      payload: { notifications: [fanout.item] },
    });
    for (const socket of byUser.get(key(fanout.envId, fanout.userId)) ?? []) socket.send(frame);
  })
  .then(() => http.listen(Number(process.env.PORT ?? 0), '127.0.0.1'));
