import { Link } from '@tanstack/react-router';
import { isAuditor, useSession } from '../../../lib/session.ts';

/** "History": an item's timeline on /audit, for admins and auditors (CONTRACT §6). */
export function HistoryLink({ kind, id, className = '' }: { kind: string; id: number; className?: string }) {
  const session = useSession();
  if (!session.admin && !isAuditor()) return null;
  return (
    <Link
      to="/audit"
      search={{ tab: 'timeline', kind, id }}
      className={`inline-flex items-center rounded-full px-3 py-2 text-sm font-semibold text-amber-800 underline decoration-amber-300 underline-offset-4 hover:text-rose-700 dark:text-amber-300 ${className}`}
    >
      History
    </Link>
  );
}
