import { anchorStoreFor } from '#events/anchors.ts';
import { logHmacKey } from '#events/canonical.ts';
import { verifyChain } from '#events/chain.ts';
import { exportNdjson } from '#events/export.ts';
import { ImportRefused, importNdjson } from '#events/import.ts';
import { projections } from '#projections/index.ts';
import { listQuarantined } from '#projections/quarantine.ts';
import { runBatch } from '#projections/runner.ts';
import { WAKE_CHANNEL } from '#events/store.ts';
import { verifyExportFile } from '#events/verifyFile.ts';
import { loadConfig } from '#api/config.ts';
import { erasePerson } from '#api/erasure.ts';
import { PersonalData } from '#api/personalData.ts';
import { createBlobStore } from '#api/storage/index.ts';
import { systemClock } from '#api/time.ts';
import { argValue, type CommandIo, withStore } from './cli.ts';

export const usage = `usage: npm run events -- verify [--file EXPORT.ndjson]
       npm run events -- export [--from SEQ] [--to SEQ]
       npm run events -- import EXPORT.ndjson
       npm run events -- erase (--email ADDRESS | --visitor ID | --address IP | --name NAME)

  verify   checks the whole hash chain (or an exported file); exit 1 and the first bad position
  export   the log as NDJSON on stdout, in chain order: a backup, with what an erasure after an
           import finds a person by (never an email itself)
  import   restores a verified export into an empty database
  erase    erases a person (by an email they gave or their browser's visitor id: their names, words,
           named work and comments), or blanks a stored address or login name; the log and its
           chain are untouched`;

async function anchors(env: NodeJS.ProcessEnv) {
  const config = loadConfig(env);
  return anchorStoreFor(config, config.minio ? await createBlobStore(config) : undefined);
}

/** Events the read models set aside: the chain holds them, but the gallery does not show them. */
async function reportQuarantined(pool: Parameters<typeof listQuarantined>[0], io: CommandIo) {
  const { count, events } = await listQuarantined(pool, 20);
  if (count === 0) return;
  io.err(`warning: ${count} event(s) could not be read by a projection and were set aside:`);
  for (const e of events) io.err(`  seq ${e.seq} (position ${e.position}) in ${e.projections.join(', ')}: ${e.reason}`);
  if (count > events.length) io.err(`  … and ${count - events.length} more (table quarantined_events)`);
}

async function verifyFile(file: string, io: CommandIo): Promise<number> {
  const result = await verifyExportFile(file, { hmacKey: logHmacKey(io.env) });
  if (result.ok) {
    io.out(
      result.head
        ? `ok: ${result.checked} events checked (seq ${result.first}-${result.head.seq}), head ${result.head.hash}`
        : 'ok: the export is empty',
    );
    return 0;
  }
  io.err(
    `FAILED at seq ${result.firstBadSeq} (line ${result.line}): ${result.reason} (${result.checked} checked before it)`,
  );
  return 1;
}

/** `npm run events -- …` (scripts/events.ts), on the settings and output `io` gives it. */
export async function eventsMain([command, ...args]: string[], io: CommandIo): Promise<number> {
  // LOG_HMAC_KEY from the settings given, as every other setting (withStore's appends take it too)
  const hmacKey = logHmacKey(io.env);
  switch (command) {
    case 'verify': {
      const file = argValue(args, '--file');
      if (args.includes('--file') && !file) break;
      if (file) return verifyFile(file, io);
      const anchorStore = await anchors(io.env);
      return withStore(async (store) => {
        const result = await verifyChain(store.pool, { anchors: anchorStore, clock: systemClock, hmacKey });
        if (result.ok) {
          io.out(
            `ok: ${result.checked} events checked, head seq ${result.head.seq}` +
              (result.unsealed ? `, ${result.unsealed} not yet sealed` : '') +
              (result.uncommitted ? `, ${result.uncommitted} sealed before their personal values were covered` : '') +
              `; anchored in ${anchorStore.where}`,
          );
          await reportQuarantined(store.pool, io);
          return 0;
        }
        const at = result.firstBadPosition === null ? '' : ` (position ${result.firstBadPosition})`;
        io.err(`FAILED at seq ${result.firstBadSeq}${at}: ${result.reason} (${result.checked} checked before it)`);
        return 1;
      }, io.env);
    }
    case 'export': {
      const from = Number(argValue(args, '--from') ?? 1);
      const to = argValue(args, '--to');
      if (!Number.isInteger(from) || (to !== undefined && !Number.isInteger(Number(to)))) break;
      return withStore(async (store) => {
        // the operator's backup: it carries what an erasure after an import needs (decision 112)
        const range = { from, to: to === undefined ? undefined : Number(to) };
        await exportNdjson(store.pool, io.stdout, range, undefined, { backup: true, hmacKey });
        return 0;
      }, io.env);
    }
    case 'import': {
      const file = args[0];
      if (!file) break;
      return withStore(async (store) => {
        try {
          const { imported, head } = await importNdjson(store.pool, file, { hmacKey });
          io.out(`imported ${imported} events (chain head seq ${head})`);
        } catch (error) {
          if (!(error instanceof ImportRefused)) throw error;
          io.err(`import refused: ${error.message}`);
          return 1;
        }
        // the read models are folded from the restored log
        for (const projection of projections.filter((p) => p.rebuildable)) {
          let folded = 0;
          for (let read = -1; read !== 0;) {
            ({ read } = await runBatch(store, projection, 2000));
            folded += read;
          }
          io.out(`folded ${folded} events into ${projection.name}`);
        }
        // nothing of the restored log was sent live: a screen that comes back from inside it refetches
        await store.pool.query(`UPDATE live_state SET pruned_through = greatest(pruned_through, catalog_position())`);
        return 0;
      }, io.env);
    }
    case 'erase': {
      const email = argValue(args, '--email');
      const visitorId = argValue(args, '--visitor');
      const address = argValue(args, '--address');
      const name = argValue(args, '--name');
      if ([email, visitorId, address, name].filter(Boolean).length !== 1) break;
      return withStore(async (store) => {
        if (email || visitorId) {
          const now = systemClock().toISOString();
          const person = email ? { email } : { visitorId: visitorId! };
          const blobs = await createBlobStore(loadConfig(io.env));
          const erased = await erasePerson(store, blobs, person, { role: 'system', now });
          // a running server hears of it at once and its read models follow; a stopped one at start
          await store.pool.query(`SELECT pg_notify($1, '')`, [WAKE_CHANNEL]);
          io.out(
            `erased ${erased.subjects} person(s): ${erased.values} stored value(s) blanked, ` +
              `${erased.streams} item(s) and comment(s) taken out, the files of ${erased.items} item(s) removed; ` +
              'the log is unchanged',
          );
          return 0;
        }
        const [kind, label] = address ? (['ip', 'address'] as const) : (['name', 'name'] as const);
        const erased = await new PersonalData(store.pool).erase(kind, (address ?? name)!);
        io.out(`erased ${erased} stored ${label} value(s); the log is unchanged`);
        return 0;
      }, io.env);
    }
  }
  io.err(usage);
  return 2;
}
