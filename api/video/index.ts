/**
 * The one place ffmpeg and ffprobe are used (STYLE.md: one adapter per outside system). Uploaded
 * audio and video are sniffed, probed, given a poster and, when browsers cannot play them, transcoded.
 * Every process reads local files only, with a forced demuxer, no stdin, no shell, and is SIGKILLed
 * when its time is up.
 */
export { MediaRejected, MediaToolFailed } from './errors.ts';
export { type Container, sniffMediaFile } from './sniff.ts';
export {
  MAX_DURATION_SECONDS,
  MAX_EDGE_PIXELS,
  type MediaKind,
  type MediaOptions,
  type ProbedMedia,
  probeMedia,
} from './probe.ts';
export {
  DEFAULT_POSTER_TIMEOUT_MS,
  DEFAULT_TRANSCODE_TIMEOUT_MS,
  makePoster,
  POSTER_WIDTH,
  removeMetadata,
  TRANSCODE_MAX_EDGE,
  transcodeToM4a,
  transcodeToMp4,
} from './convert.ts';
export { ALLOWED_DECODERS } from './tools.ts';
export { joinMontageSegments, MONTAGE, MONTAGE_LOUDNESS, renderMontageSegment } from './montage.ts';
export { type MediaTool, mediaToolPaths, runTool, type ToolRun, type ToolRunner } from './tools.ts';
