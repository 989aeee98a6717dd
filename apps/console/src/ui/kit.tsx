import { type ReactNode, useId, useState } from 'react';
import { ApiError } from '../api/client';

/** A page's heading and intro; every page starts with one, so each has a single h1. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1>{title}</h1>
      {children}
    </header>
  );
}

/** A labelled control: the label is tied to the input for screen readers and clicks. */
export function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (id: string, describedBy: string | undefined) => ReactNode;
}) {
  const id = useId();
  const hintId = hint === undefined ? undefined : `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id, hintId)}
      {hint !== undefined && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * What went wrong, as the service said it: its message and the fix it suggests. A 403 says which role
 * the action needs, so it is shown as is.
 */
export function ErrorNote({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  const body = error instanceof ApiError ? error.body : null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="note note-error" role="alert">
      <strong>{error instanceof ApiError && error.status === 403 ? 'Not allowed: ' : ''}</strong>
      {message}
      {body?.fix !== undefined && <p className="hint">{body.fix}</p>}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="muted empty">{children}</p>;
}

/**
 * A table in a region that scrolls sideways when the screen is narrower than the table, so the page
 * itself never does. The region is named and takes keyboard focus: without a mouse it is scrolled
 * with the arrow keys once focused (axe: scrollable-region-focusable).
 */
export function DataTable({
  label = 'Table (scrolls sideways on narrow screens)',
  caption,
  className,
  headers,
  children,
}: {
  label?: string;
  /** The table's own name, for screen readers only. */
  caption?: string;
  className?: string;
  /** The column headers; `false` leaves out a column this viewer does not get (an admin's actions). */
  headers: readonly (string | false)[];
  /** The body's rows. */
  children: ReactNode;
}) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      <table className={className}>
        {caption !== undefined && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {headers
              .filter((header) => header !== false)
              .map((header) => (
                <th key={header} scope="col">
                  {header}
                </th>
              ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A compact date and time in the viewer's zone, with the exact instant on hover. */
export function When({ at }: { at: string | number | undefined }) {
  if (at === undefined || at === '') return <span className="muted">—</span>;
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return <span>{String(at)}</span>;
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()}>
      {date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })}
    </time>
  );
}

/**
 * A destructive action asked twice: the first press arms it (its label says what a second press
 * does), the second acts; leaving the button disarms it.
 */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  busy = false,
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
}) {
  const [armed, setArmed] = useState(false);
  return (
    <button
      type="button"
      className={armed ? 'danger' : 'secondary'}
      disabled={busy}
      onBlur={() => setArmed(false)}
      onClick={() => {
        if (!armed) return setArmed(true);
        setArmed(false);
        onConfirm();
      }}
    >
      {armed ? confirmLabel : label}
    </button>
  );
}
