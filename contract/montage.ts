/** The montage as `GET /api/admin/montage` and `POST /api/admin/montage` answer (CONTRACT §12). */
export interface MontageStatus {
  state: 'none' | 'running' | 'ready' | 'stale' | 'failed';
  /** 0 to 1: the parts made, out of the clips and the join */
  progress: number;
  /** the videos the latest run joins */
  clips: number;
  /** seconds, once made */
  duration: number | null;
  /** the approved videos now */
  approvedVideos: number;
}
