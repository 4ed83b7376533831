import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { AuditorPace, newRoomClock, pacer, restAfter, rested, roomAsked } from './auditorPace.ts';

describe('the auditor keeps to its share while the room is busy', () => {
  it('rests nine times a step at a tenth, nothing with the room quiet, and never minutes', () => {
    const clock = newRoomClock();
    expect(restAfter(10, clock, 0.1)).toBe(0);
    roomAsked(clock);
    expect(restAfter(10, clock, 0.1)).toBeCloseTo(90);
    expect(restAfter(10, clock, 0.25)).toBeCloseTo(30);
    expect(restAfter(60_000, clock, 0.1)).toBe(1000);
    // a second after the room's last request, it is quiet again
    Atomics.store(clock, 0, BigInt(Date.now() - 1500));
    expect(restAfter(10, clock, 0.1)).toBe(0);
  });

  it("paces a thread's steps by the room's clock, shared across threads as memory", async () => {
    const clock = newRoomClock();
    const pause = pacer(clock, 0.1);
    await sleep(300); // a step of 300 ms with the room quiet: busy, it would rest a second after it
    let t = performance.now();
    await pause();
    expect(performance.now() - t).toBeLessThan(900); // quiet: a turn of the loop
    roomAsked(clock);
    await sleep(40); // a step of 40 ms while the room is busy
    t = performance.now();
    await pause();
    expect(performance.now() - t).toBeGreaterThanOrEqual(350); // nine times as long, at a tenth
  });

  it('takes the reads in turn while the room is busy, and together when it is quiet', async () => {
    const pace = new AuditorPace(0.1);
    const spans: Array<[number, number]> = [];
    const read = async () => {
      const start = performance.now();
      await sleep(20);
      spans.push([start, performance.now()]);
      return spans.length;
    };
    await Promise.all([pace.inTurn(read), pace.inTurn(read)]);
    // quiet: the second started before the first ended
    expect(spans[1]![0]).toBeLessThan(spans[0]![1]);

    spans.length = 0;
    pace.roomAsked();
    const answers = await Promise.all([pace.inTurn(read), pace.inTurn(read)]);
    expect(answers).toEqual([1, 2]);
    // busy: the second waited for the first and its rest (at a tenth, nine times its 20 ms)
    expect(spans[1]![0] - spans[0]![1]).toBeGreaterThanOrEqual(150);
  });

  it("counts a read's time in the API before its turn and until its answer is sent", async () => {
    const pace = new AuditorPace(0.5); // a rest as long as the read cost
    pace.roomAsked();
    const starts: number[] = [];
    const read = async () => {
      starts.push(performance.now());
      await sleep(10);
    };
    const sent = sleep(100); // its answer's last byte, 100 ms after its turn began
    await Promise.all([pace.inTurn(read, { before: 50, until: sent }), pace.inTurn(read)]);
    // 50 ms before, 100 ms until sent: a rest of 150 ms after it was sent
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(240);
  });

  it('waits for the rest another kind of work earned: one share for verify and reads at once', async () => {
    const pace = new AuditorPace(0.1);
    pace.roomAsked();
    // a slice of verify's on its thread, 100 ms at a half: the auditor's next step in 100 ms
    rested(100, pace.clock, 0.5);
    const asked = performance.now();
    let began = 0;
    await pace.inTurn(async () => {
      began = performance.now();
    });
    expect(began - asked).toBeGreaterThanOrEqual(90);
    // and verify's next slice waits for the read's rest in turn (a read of 0 ms earns none)
    const pause = pacer(pace.clock, 0.5);
    rested(60, pace.clock, 0.1); // a read of 60 ms at a tenth: 540 ms
    const t = performance.now();
    await pause();
    expect(performance.now() - t).toBeGreaterThanOrEqual(500);
  });

  it('goes on after a read that failed', async () => {
    const pace = new AuditorPace(0.1);
    pace.roomAsked();
    const failed = pace.inTurn(() => Promise.reject(new Error('statement timeout')));
    await expect(failed).rejects.toThrow('statement timeout');
    await expect(pace.inTurn(async () => 'next')).resolves.toBe('next');
  });
});
