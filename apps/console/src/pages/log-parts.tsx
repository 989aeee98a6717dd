import type { ChannelSummary } from '../logs/summary';

/** One badge per channel a send touched: the channel and the furthest step, failures with their code. */
export function ChannelBadges({ summaries }: { summaries: ChannelSummary[] }) {
  if (summaries.length === 0) return <span className="muted">received</span>;
  return (
    <ul className="badges">
      {summaries.map((s) => (
        <li key={s.channel} className={`badge badge-${s.progress}`}>
          {s.label}: {s.progress}
          {s.failedCode !== undefined && ` (${s.failedCode})`}
          {s.progress === 'skipped' &&
            s.routing !== undefined &&
            ` (${(s.reason ?? s.routing).toLowerCase()})`}
        </li>
      ))}
    </ul>
  );
}
