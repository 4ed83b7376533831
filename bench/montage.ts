import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { joinMontageSegments, probeMedia, renderMontageSegment, runTool } from '#api/video/index.ts';

/** CONTRACT §12's bench: 20 one-minute clips (fewer or shorter with these, on a busy machine). */
const CLIPS = Number(process.env.BENCH_MONTAGE_CLIPS ?? 20);
const SECONDS = Number(process.env.BENCH_MONTAGE_SECONDS ?? 60);
/** Phone sizes, landscape and portrait, and loudness far apart, as the messages come. */
const SIZES = ['1280x720', '720x1280', '640x480', '1920x1080'];
const VOLUMES_DB = [-3, -30, -15, -8];

const ffmpeg = (args: string[], cwd?: string) =>
  runTool({
    tool: 'ffmpeg',
    args: ['-nostdin', '-hide_banner', '-v', 'error', '-y', ...args],
    timeoutMs: 3_600_000,
    cwd,
  });

/** Resident memory of the ffmpeg processes under this one, summed, from /proc (not the bench's PostgreSQL). */
function childrenRss(): number {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  const ffmpeg = new Set<number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      parents.set(Number(entry), Number(stat[1]));
      rss.set(Number(entry), Number(stat[21]) * 4096);
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'ffmpeg') ffmpeg.add(Number(entry));
    } catch {
      // gone between the listing and the read
    }
  }
  const mine = new Set([process.pid]);
  let total = 0;
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (mine.has(parent) && !mine.has(pid)) {
        mine.add(pid);
        if (ffmpeg.has(pid)) total += rss.get(pid) ?? 0;
        grew = true;
      }
    }
  }
  return total;
}

/** Time and peak memory (this process's RSS growth, and its ffmpeg children's peak) of `work`. */
async function measure(work: () => Promise<void>) {
  const before = process.memoryUsage.rss();
  let peakSelf = before;
  let peakChildren = 0;
  const sampling = setInterval(() => {
    peakSelf = Math.max(peakSelf, process.memoryUsage.rss());
    peakChildren = Math.max(peakChildren, childrenRss());
  }, 100);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(sampling);
  }
  return { seconds: (performance.now() - started) / 1000, growth: peakSelf - before, children: peakChildren };
}

const MB = 1024 * 1024;
const row = (what: string, m: Awaited<ReturnType<typeof measure>>, film: { seconds: number; bytes: number }) =>
  `| ${what} | ${m.seconds.toFixed(1)} s | ${(m.children / MB).toFixed(0)} MB | ${(m.growth / MB).toFixed(0)} MB | ${film.seconds.toFixed(1)} s | ${(film.bytes / MB).toFixed(1)} MB |`;

async function filmOf(file: string) {
  return { seconds: (await probeMedia(file)).durationSeconds, bytes: fs.statSync(file).size };
}

/**
 * The montage job's own steps (a part per clip: card, scale and pad, two-pass loudnorm, H.264/AAC;
 * then a join without encoding again) over CLIPS clips of SECONDS, against two bare ffmpeg runs on
 * the same files: the concat demuxer with `-c copy` (the least a join can cost; valid only because the
 * baseline's clips share one size), and the concat filter encoding to 1280×720 at the job's settings
 * (the encode alone, without cards or loudness).
 */
export async function benchMontage() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-montage-'));
  try {
    const clips: string[] = [];
    const sameSize: string[] = [];
    for (let i = 0; i < CLIPS; i++) {
      const size = SIZES[i % SIZES.length]!;
      const source = [
        ...['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30:duration=${SECONDS}`],
        ...[
          '-f',
          'lavfi',
          '-i',
          `sine=frequency=${300 + i * 20}:sample_rate=48000:duration=${SECONDS},volume=${VOLUMES_DB[i % 4]}dB`,
        ],
      ];
      const encode = [
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-ac',
        '2',
        '-shortest',
      ];
      clips.push(`clip-${i}.mp4`);
      await ffmpeg([...source, ...encode, path.join(dir, `clip-${i}.mp4`)]);
      sameSize.push(`same-${i}.mp4`);
      await ffmpeg([...source, '-vf', 'scale=1280:720', ...encode, path.join(dir, `same-${i}.mp4`)]);
    }

    const parts: string[] = [];
    const job = await measure(async () => {
      for (const [i, clip] of clips.entries()) {
        const part = `part-${String(i).padStart(4, '0')}.mp4`;
        await renderMontageSegment(dir, clip, `Colleague number ${i + 1}`, part);
        parts.push(part);
      }
      await joinMontageSegments(dir, parts, 'montage.mp4');
    });

    fs.writeFileSync(path.join(dir, 'same.txt'), sameSize.map((f) => `file '${f}'\n`).join(''));
    const copy = await measure(() =>
      ffmpeg(['-f', 'concat', '-safe', '1', '-i', 'same.txt', '-c', 'copy', 'copied.mp4'], dir).then(() => undefined),
    );
    const inputs = clips.flatMap((clip) => ['-i', clip]);
    const graph =
      clips
        .map(
          (_, i) =>
            `[${i}:v]scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:-1:-1,setsar=1,fps=30[v${i}];`,
        )
        .join('') +
      clips.map((_, i) => `[v${i}][${i}:a]`).join('') +
      `concat=n=${clips.length}:v=1:a=1[v][a]`;
    const encoded = await measure(() =>
      ffmpeg(
        [
          ...inputs,
          ...['-filter_complex', graph, '-map', '[v]', '-map', '[a]'],
          ...[
            '-c:v',
            'libx264',
            '-preset',
            'veryfast',
            '-crf',
            '23',
            '-pix_fmt',
            'yuv420p',
            '-c:a',
            'aac',
            '-ar',
            '48000',
          ],
          'encoded.mp4',
        ],
        dir,
      ).then(() => undefined),
    );

    return [
      `### Montage (\`npm run bench -- montage\`): ${CLIPS} clips of ${SECONDS} s (sizes ${SIZES.join(', ')}; tones from -30 to -3 dB), load average ${os.loadavg()[0]!.toFixed(0)} at the end`,
      '',
      '| what | time | ffmpeg peak RSS | bench process growth | film | size |',
      '|---|---|---|---|---|---|',
      row(
        "the montage job's steps (a part per clip with card and loudnorm, then `-c copy` join)",
        job,
        await filmOf(path.join(dir, 'montage.mp4')),
      ),
      row(
        'baseline: concat demuxer, `-c copy` (same clips at one size)',
        copy,
        await filmOf(path.join(dir, 'copied.mp4')),
      ),
      row(
        'baseline: one concat filter encode to 1280×720 (no cards, no loudnorm)',
        encoded,
        await filmOf(path.join(dir, 'encoded.mp4')),
      ),
    ].join('\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
