/** Rejection of an upload, with the contract's status and message (same shape as ImageRejected). */
export class MediaRejected extends Error {
  readonly status: 415 | 413;
  /** For logs only: which check refused the file (never shown to the uploader). */
  readonly reason: string | undefined;
  constructor(status: 415 | 413, options?: ErrorOptions & { reason?: string }) {
    super(status === 413 ? 'File too large' : 'Invalid file type', options);
    this.name = 'MediaRejected';
    this.status = status;
    this.reason = options?.reason;
  }
}

/** ffmpeg or ffprobe failed, was killed on timeout, or was aborted. Not the uploader's fault by itself. */
export class MediaToolFailed extends Error {
  readonly tool: string;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  constructor(init: {
    tool: string;
    exitCode: number | null;
    signal: NodeJS.Signals | null;
    timedOut?: boolean;
    aborted?: boolean;
    detail: string;
  }) {
    const why = init.timedOut
      ? 'timed out and was killed'
      : init.aborted
        ? 'was aborted'
        : `failed (${init.exitCode ?? init.signal})`;
    super(`${init.tool} ${why}${init.detail ? `: ${init.detail}` : ''}`);
    this.name = 'MediaToolFailed';
    this.tool = init.tool;
    this.exitCode = init.exitCode;
    this.signal = init.signal;
    this.timedOut = init.timedOut ?? false;
    this.aborted = init.aborted ?? false;
  }
}
