import { useEffect, useRef, useState } from 'react';

/** A recording stops by itself at 3 minutes (CONTRACT §12). */
export const MAX_RECORDING_SECONDS = 180;
const COUNTDOWN_FROM = 3;

export type RecordKind = 'video' | 'audio';

export type RecorderState =
  | { step: 'off' }
  | { step: 'asking'; kind: RecordKind }
  | { step: 'ready'; kind: RecordKind; stream: MediaStream }
  | { step: 'countdown'; kind: RecordKind; stream: MediaStream; count: number }
  | { step: 'recording'; kind: RecordKind; stream: MediaStream; seconds: number }
  | { step: 'recorded'; kind: RecordKind; file: File; url: string }
  | { step: 'unavailable'; kind: RecordKind; reason: string };

/**
 * MP4 first: Safari and Chromium write it, and the server reads it as any upload. H.264 before the
 * browser's default: Chromium's default MP4 video is VP9, which it encodes in software, and on a busy
 * two-core machine it fell so far behind that the file it wrote at Stop had 0.1 s of picture or none,
 * only the sound (reproduced 5 times in 8 at a load of 30); its H.264 kept up every time. Opus sound is
 * transcoded to AAC by the media job. WebM only where nothing else is offered.
 */
const CONTAINERS: Record<RecordKind, string[]> = {
  video: [
    'video/mp4;codecs=avc1,mp4a.40.2',
    'video/mp4;codecs=avc1,opus',
    'video/mp4',
    'video/webm;codecs=vp8,opus',
    'video/webm',
  ],
  audio: ['audio/mp4', 'audio/webm;codecs=opus', 'audio/webm'],
};

function recorderType(kind: RecordKind): string | undefined {
  return CONTAINERS[kind].find((type) => MediaRecorder.isTypeSupported(type));
}

/** Why this browser cannot record, in words a guest can act on; null when it can try. */
export function cannotRecord(): string | null {
  if (typeof window === 'undefined' || !window.isSecureContext || !navigator.mediaDevices?.getUserMedia) {
    return 'This browser cannot record here. You can record with your phone or camera app and choose the file below.';
  }
  if (typeof MediaRecorder === 'undefined') {
    return 'This browser cannot record video or audio. Please update it, or record with another app and choose the file below.';
  }
  return null;
}

function refusalMessage(error: unknown, kind: RecordKind): string {
  const device = kind === 'video' ? 'camera and microphone' : 'microphone';
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return `Permission to use the ${device} was refused. Allow it in your browser's settings and try again, or choose a file below.`;
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError') {
    return `No ${device} was found on this device. You can choose a file below instead.`;
  }
  if (name === 'NotReadableError') {
    return `The ${device} is in use by another app. Close it and try again, or choose a file below.`;
  }
  return `The ${device} could not be started. You can choose a file below instead.`;
}

const stopTracks = (stream: MediaStream) => stream.getTracks().forEach((track) => track.stop());

/** Camera or microphone, a 3-2-1 countdown, at most 3 minutes, then a file to preview or retake. */
export function useRecorder() {
  const [state, setState] = useState<RecorderState>({ step: 'off' });
  const live = useRef<{ stream?: MediaStream; recorder?: MediaRecorder; timer?: number; url?: string }>({});

  function release() {
    const now = live.current;
    window.clearInterval(now.timer);
    if (now.recorder && now.recorder.state !== 'inactive') {
      now.recorder.ondataavailable = null;
      now.recorder.onstop = null;
      now.recorder.stop();
    }
    if (now.stream) stopTracks(now.stream);
    if (now.url) URL.revokeObjectURL(now.url);
    live.current = {};
  }

  useEffect(() => release, []);

  async function open(kind: RecordKind) {
    release();
    const problem = cannotRecord() ?? (recorderType(kind) ? null : cannotRecordKind(kind));
    if (problem) return setState({ step: 'unavailable', kind, reason: problem });
    setState({ step: 'asking', kind });
    try {
      const stream = await navigator.mediaDevices.getUserMedia(
        kind === 'video' ? { video: { width: { ideal: 1280 }, height: { ideal: 720 } }, audio: true } : { audio: true },
      );
      live.current.stream = stream;
      setState({ step: 'ready', kind, stream });
    } catch (error) {
      setState({ step: 'unavailable', kind, reason: refusalMessage(error, kind) });
    }
  }

  function start() {
    const { stream } = live.current;
    if (state.step !== 'ready' || !stream) return;
    const { kind } = state;
    let count = COUNTDOWN_FROM;
    setState({ step: 'countdown', kind, stream, count });
    live.current.timer = window.setInterval(() => {
      count -= 1;
      if (count > 0) return setState({ step: 'countdown', kind, stream, count });
      window.clearInterval(live.current.timer);
      record(kind, stream);
    }, 1000);
  }

  function record(kind: RecordKind, stream: MediaStream) {
    const type = recorderType(kind)!;
    const recorder = new MediaRecorder(stream, { mimeType: type });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => event.data.size > 0 && chunks.push(event.data);
    recorder.onstop = () => {
      window.clearInterval(live.current.timer);
      stopTracks(stream);
      const blobType = (recorder.mimeType || type).split(';')[0]!;
      const extension = blobType.endsWith('webm') ? 'webm' : blobType.startsWith('audio') ? 'm4a' : 'mp4';
      const file = new File(chunks, `${kind === 'video' ? 'video' : 'audio'}-message.${extension}`, { type: blobType });
      const url = URL.createObjectURL(file);
      live.current = { url };
      setState({ step: 'recorded', kind, file, url });
    };
    live.current.recorder = recorder;
    recorder.start(1000);
    const started = Date.now();
    setState({ step: 'recording', kind, stream, seconds: 0 });
    live.current.timer = window.setInterval(() => {
      const seconds = Math.min(MAX_RECORDING_SECONDS, Math.floor((Date.now() - started) / 1000));
      setState({ step: 'recording', kind, stream, seconds });
      if (seconds >= MAX_RECORDING_SECONDS) stop();
    }, 250);
  }

  function stop() {
    const { recorder } = live.current;
    if (recorder && recorder.state !== 'inactive') recorder.stop();
  }

  function close() {
    release();
    setState({ step: 'off' });
  }

  return { state, open, start, stop, close, retake: () => state.step !== 'off' && open(state.kind) };
}

function cannotRecordKind(kind: RecordKind): string {
  return `This browser cannot record ${kind}. Please update it, or record with another app and choose the file below.`;
}
