/*
 * A link to share: the full URL in a read-only field (selected on focus) and a copy button.
 */
import { useId, useState } from 'react';

export function ShareLink({ path, label }: { path: string; label: string }) {
  const url = `${window.location.origin}${path}`;
  const [copied, setCopied] = useState(false);
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      (document.getElementById(id) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div className="share">
      <label htmlFor={id}>{label}</label>
      <div className="share-row">
        <input id={id} readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}
