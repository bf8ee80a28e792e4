/*
 * Notices (mostly the server's errors, in words) as dismissable toasts announced to screen
 * readers. Each disappears by itself after a few seconds.
 */
import { useEffect } from 'react';
import type { Notice } from '../app/store';
import { useAppState, useAppStore } from '../hooks/useStore';

export function Notices() {
  const notices = useAppState((s) => s.notices);
  return (
    <div className="notices" aria-live="assertive">
      {notices.map((n) => (
        <NoticeItem key={n.id} notice={n} />
      ))}
    </div>
  );
}

function NoticeItem({ notice }: { notice: Notice }) {
  const store = useAppStore();
  useEffect(() => {
    const t = setTimeout(() => store.dismiss(notice.id), 6000);
    return () => clearTimeout(t);
  }, [store, notice.id]);
  return (
    <div className={`notice notice-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      <span>{notice.text}</span>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => store.dismiss(notice.id)}>
        ×
      </button>
    </div>
  );
}
