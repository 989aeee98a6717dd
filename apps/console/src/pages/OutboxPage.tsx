import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { devOutbox, type OutboxChannel, type OutboxMessage } from '../api/client';
import { CHANNELS } from '../logs/summary';
import { EmailFrame } from '../ui/EmailFrame';
import { Empty, ErrorNote, Loading, PageHeader, When } from '../ui/kit';

/** Every channel but in-app, which the demo inbox shows: the outboxes are named by the channels' log prefixes. */
const OUTBOXES = CHANNELS.filter((c) => c.prefix !== 'inapp').map((c) => ({
  channel: c.prefix as OutboxChannel,
  label: c.label,
}));

const text = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
const list = (value: unknown): string => (Array.isArray(value) ? value.map(text).join(', ') : text(value));

/**
 * What the local provider peers of `npm start` received, each channel as its recipient would see it:
 * nothing left the machine. In-app notifications are in the demo inbox (/dev/inbox).
 */
export function OutboxPage() {
  const [channel, setChannel] = useState<OutboxChannel>('email');
  const client = useQueryClient();
  const messages = useQuery({
    queryKey: ['outbox', channel],
    queryFn: () => devOutbox.list(channel),
    refetchInterval: 3_000,
  });
  const clear = useMutation({
    mutationFn: () => devOutbox.clear(channel),
    onSuccess: () => client.invalidateQueries({ queryKey: ['outbox', channel] }),
  });
  return (
    <>
      <PageHeader title="Dev outbox">
        <p>What the local providers received, newest first. Nothing here left this machine.</p>
      </PageHeader>
      <div className="segmented" role="group" aria-label="Channel">
        {OUTBOXES.map((c) => (
          <button
            key={c.channel}
            type="button"
            className="secondary"
            aria-pressed={c.channel === channel}
            onClick={() => setChannel(c.channel)}
          >
            {c.label}
          </button>
        ))}
        <button type="button" className="secondary" onClick={() => clear.mutate()} disabled={clear.isPending}>
          Empty this outbox
        </button>
      </div>
      <ErrorNote error={messages.error ?? clear.error} />
      {messages.isPending && <Loading what="the outbox" />}
      {messages.data?.length === 0 && <Empty>Nothing received on this channel yet.</Empty>}
      <ol className="outbox">
        {messages.data?.map((message) => (
          <li key={message.id} className="card outbox-message" data-tracking-id={message.trackingId}>
            <p className="outbox-meta">
              <When at={message.receivedAt} />
              {message.trackingId !== undefined && (
                <>
                  {' · '}
                  <Link href={`/logs/${encodeURIComponent(message.trackingId)}`}>its send</Link>
                </>
              )}
            </p>
            <Message channel={channel} message={message} />
          </li>
        ))}
      </ol>
    </>
  );
}

function Message({ channel, message: m }: { channel: OutboxChannel; message: OutboxMessage }) {
  switch (channel) {
    case 'email':
      return (
        <>
          <dl className="facts">
            <dt>From</dt>
            <dd>{text(m['from'])}</dd>
            <dt>To</dt>
            <dd>{list(m['to'])}</dd>
            <dt>Subject</dt>
            <dd>{text(m['subject'])}</dd>
          </dl>
          <EmailFrame html={text(m['html'])} width={600} title={`Email: ${text(m['subject'])}`} />
        </>
      );
    case 'sms':
      return (
        <div className="phone">
          <p className="muted">
            {text(m['from'])} → {text(m['to'])}
          </p>
          <p className="bubble">{text(m['body'])}</p>
        </div>
      );
    case 'call':
      return (
        <div className="phone">
          <p className="muted">
            Call {text(m['from'])} → {text(m['to'])}
          </p>
          <p className="bubble">“{text(m['say'])}”</p>
        </div>
      );
    case 'mobile_push':
    case 'web_push':
      return (
        <div className="push-card">
          <strong>{text(m['title'])}</strong>
          <p>{text(m['body'])}</p>
          <p className="muted">{text(m['provider'] ?? m['url'])}</p>
        </div>
      );
    case 'slack':
      return (
        <div className="slack-message">
          <p className="muted">{text(m['channel'])}</p>
          <p>{text(m['text'])}</p>
          {m['blocks'] !== undefined && (
            <pre className="code" tabIndex={0}>
              {JSON.stringify(m['blocks'], null, 2)}
            </pre>
          )}
        </div>
      );
  }
}
