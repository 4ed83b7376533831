import { ApiError, serverMessageOf } from '../../../lib/api.ts';
import { toast } from '../../../components/Toaster.tsx';
import type { Kind } from '../../../../../contract/views.ts';

/**
 * The toast after a refused delete (spec §5, §8). A wrong key locks the admin controls again so that
 * another key can be typed.
 */
export function deletionFailed(error: Error, what: Kind | 'comment', lock: () => void): void {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    lock();
    if (error.status === 403) {
      toast({ title: 'Invalid admin key', description: 'Access Denied', variant: 'destructive' });
      return;
    }
  }
  toast({ title: 'Error', description: serverMessageOf(error) ?? `Failed to delete ${what}`, variant: 'destructive' });
}
