import { type ReactNode, useId, useState } from 'react';
import type { Role } from '../app/session';

/** Why a form is read-only: the caller's role is below the one the change needs. */
export function NeedsRole({ needed, what = 'Changing these settings' }: { needed: Role; what?: string }) {
  return (
    <p className="note read-only-note">
      Read-only. {what} needs the <strong>{needed}</strong> role.
    </p>
  );
}

/**
 * A value to copy (a DNS record, a new key): shown whole as selectable text, with a button that
 * copies it and says so. Without clipboard access the text is selected for the keyboard's copy.
 */
export function CopyText({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setSaid('Copied.');
    } catch {
      const text = document.getElementById(id);
      if (text !== null) window.getSelection()?.selectAllChildren(text);
      setSaid('Selected: press Ctrl+C (⌘C) to copy.');
    }
  };
  return (
    <span className="copy-text">
      <code id={id}>{value}</code>
      <button
        type="button"
        className="secondary small"
        aria-label={`Copy ${label}`}
        onClick={() => void copy()}
      >
        Copy
      </button>
      <span role="status" className="hint">
        {said}
      </span>
    </span>
  );
}

/**
 * A destructive action asked twice: the first press arms it, the second does it; Cancel (or
 * leaving it) disarms. No dialog, so it works the same from the keyboard.
 */
export function ConfirmButton({
  label,
  confirm,
  onConfirm,
  busy = false,
}: {
  label: string;
  confirm: string;
  onConfirm: () => void;
  busy?: boolean;
}) {
  const [armed, setArmed] = useState(false);
  if (!armed)
    return (
      <button type="button" className="secondary small" onClick={() => setArmed(true)} disabled={busy}>
        {label}
      </button>
    );
  return (
    <span className="confirm">
      <button
        type="button"
        className="danger small"
        disabled={busy}
        onClick={() => {
          setArmed(false);
          onConfirm();
        }}
      >
        {confirm}
      </button>
      <button type="button" className="secondary small" onClick={() => setArmed(false)}>
        Cancel
      </button>
    </span>
  );
}

/** A labelled checkbox, the label after the box. */
export function Check({
  label,
  checked,
  disabled,
  onChange,
}: {
  label: ReactNode;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />{' '}
      {label}
    </label>
  );
}
