/*
 * A button for an action that cannot be undone (resign, abort, offer a draw): the first press
 * asks "are you sure?" in place, with confirm and cancel buttons; the question goes away by
 * itself after a few seconds.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';

export function ConfirmButton({
  children,
  confirmLabel,
  onConfirm,
  disabled,
  className,
  label,
}: {
  children: ReactNode;
  /** The confirm button's text, e.g. "Yes, resign". */
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  className?: string;
  /** The first button's accessible name, when its text alone is ambiguous. */
  label?: string;
}) {
  const [armed, setArmed] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!armed) return;
    confirmRef.current?.focus();
    const t = setTimeout(() => setArmed(false), 5000);
    return () => clearTimeout(t);
  }, [armed]);
  if (!armed) {
    return (
      <button type="button" className={className} disabled={disabled} aria-label={label} onClick={() => setArmed(true)}>
        {children}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label="Confirm">
      <button
        ref={confirmRef}
        type="button"
        className="danger"
        onClick={() => {
          setArmed(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" onClick={() => setArmed(false)}>
        Cancel
      </button>
    </span>
  );
}
