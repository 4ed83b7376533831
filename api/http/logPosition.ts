import type { Response } from 'express';

/**
 * Says which catalog position an answer's data reflects (`X-Log-Position`), read in the same
 * snapshot as the data: live messages with a higher position are exactly the changes it does not
 * show yet, and are applied on top of it (decision 011). Live messages carry the same numbering.
 */
export function atLogPosition(res: Response, position: number): Response {
  return res.set('X-Log-Position', String(position));
}
