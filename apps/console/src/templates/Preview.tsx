import { useState } from 'react';
import type { Schemas } from '../api/client';
import { EmailFrame } from '../ui/EmailFrame';
import type { Channel } from './content';
import { slackLines, smsFacts, text } from './preview';

type PreviewAnswer = Schemas['TemplatePreviewResponse'];

/** The template as its channel's recipient would get it, rendered by the service. */
export function Preview({ channel, answer }: { channel: Channel; answer: PreviewAnswer }) {
  const r = answer.rendered;
  switch (channel) {
    case 'EMAIL':
      return (
        <>
          <dl className="facts">
            <dt>Subject</dt>
            <dd>{text(r['subject']) ?? '—'}</dd>
            <dt>From</dt>
            <dd>
              {[text(r['fromName']), text(r['fromAddress'])].filter(Boolean).join(' · ') ||
                "the environment's default sender"}
            </dd>
            {text(r['previewText']) !== undefined && (
              <>
                <dt>Preview text</dt>
                <dd>{text(r['previewText'])}</dd>
              </>
            )}
          </dl>
          <EmailPreview html={text(r['html']) ?? ''} />
        </>
      );
    case 'SMS':
      return (
        <div className="phone-card">
          <p className="bubble">{text(r['text']) || <span className="muted">(empty)</span>}</p>
          <p className="sms-facts" data-testid="sms-facts">
            {smsFacts(r)}
          </p>
          {Array.isArray(r['mediaUrls']) && r['mediaUrls'].length > 0 && (
            <p className="hint">Media: {(r['mediaUrls'] as unknown[]).map(String).join(', ')}</p>
          )}
        </div>
      );
    case 'CALL':
      return (
        <div className="phone-card">
          <p className="muted">Read aloud:</p>
          <p>{text(r['text']) || <span className="muted">(nothing)</span>}</p>
        </div>
      );
    case 'PUSH':
    case 'WEB_PUSH':
      return (
        <div className="notice-card">
          <strong>{text(r['title']) ?? '(no title)'}</strong>
          <p>{text(r['message']) ?? ''}</p>
          {text(r['icon']) !== undefined && <p className="hint">Icon: {text(r['icon'])}</p>}
          {text(r['url']) !== undefined && <p className="hint">Opens {text(r['url'])}</p>}
        </div>
      );
    case 'INAPP_WEB':
      return (
        <>
          {(['instant', 'batch'] as const).map((variant) => {
            const card = (r[variant] ?? {}) as Record<string, unknown>;
            return (
              <div key={variant} className="notice-card">
                <p className="hint">{variant === 'instant' ? 'A single notification' : 'A digest'}</p>
                <strong>{text(card['title']) ?? '(no title)'}</strong>
                {text(card['redirectURL']) !== undefined && (
                  <p className="hint">Opens {text(card['redirectURL'])}</p>
                )}
                {text(card['imageURL']) !== undefined && (
                  <p className="hint">Image: {text(card['imageURL'])}</p>
                )}
              </div>
            );
          })}
        </>
      );
    case 'SLACK':
      return (
        <div className="notice-card slack-card">
          {text(r['text']) !== undefined && <p className="slack-text">{text(r['text'])}</p>}
          {slackLines(r['blocks']).map((line, index) => (
            <div key={index} className={`slack-block slack-${line.kind}`}>
              <span className="hint">{line.kind}</span>
              <p>{line.text}</p>
            </div>
          ))}
        </div>
      );
  }
}

const WIDTHS = [
  { px: 600, label: 'Desktop (600 px)' },
  { px: 390, label: 'Phone (390 px)' },
] as const;

/** The email in the shared sandboxed frame, at a desktop or a phone width. */
function EmailPreview({ html }: { html: string }) {
  const [width, setWidth] = useState<number>(600);
  return (
    <>
      <div className="actions" role="group" aria-label="Preview width">
        {WIDTHS.map(({ px, label }) => (
          <button
            key={px}
            type="button"
            className="secondary"
            aria-pressed={width === px}
            onClick={() => setWidth(px)}
          >
            {label}
          </button>
        ))}
      </div>
      <EmailFrame html={html} width={width} title="Email preview" />
    </>
  );
}
