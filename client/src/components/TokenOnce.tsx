/*
 * A secret token shown this once (the server keeps only its hash): a plain warning, the token in
 * a read-only field (selected on focus) with a copy button, what to do with it (children), and a
 * button that hides it for good. The token lives in the memory of the page that shows it only.
 */
import { useId, useState, type ReactNode } from 'react';

interface Props {
  /** The region's name ("New token for AnnBot"). */
  region: string;
  /** The field's label ("Token for AnnBot"). */
  label: string;
  token: string;
  onHide: () => void;
  children?: ReactNode;
}

export function TokenOnce({ region, label, token, onHide, children }: Props) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token);
      setCopied(true);
    } catch {
      setCopied(false); // no clipboard (an insecure origin, say): the field is selected instead
      (document.getElementById(id) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div className="token-once" role="region" aria-label={region}>
      <p className="warning">
        <strong>Copy this token now: you will not see it again.</strong> The server keeps only its hash; if you
        lose it, make a new one.
      </p>
      <label htmlFor={id}>{label}</label>
      <div className="token-row">
        <input id={id} readOnly value={token} onFocus={(e) => e.target.select()} spellCheck={false} />
        <button type="button" className="primary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      {copied !== null && (
        <p role="status">{copied ? 'Copied to the clipboard.' : 'Could not copy here: the token is selected, copy it by hand.'}</p>
      )}
      {children}
      <button type="button" onClick={onHide}>
        I have copied it, hide it
      </button>
    </div>
  );
}
