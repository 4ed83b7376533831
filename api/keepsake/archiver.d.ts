// archiver 8 ships no types; the part of it the keepsake uses (api/keepsake/zipStream.ts)
declare module 'archiver' {
  import type { Transform } from 'node:stream';
  export interface EntryData {
    name: string;
    store?: boolean;
    date?: Date;
  }
  export class ZipArchive extends Transform {
    constructor(options?: { zlib?: { level?: number }; forceZip64?: boolean });
    append(source: NodeJS.ReadableStream | Buffer | string, data: EntryData): this;
    finalize(): Promise<void>;
    pointer(): number;
    on(event: 'entry', listener: (entry: EntryData) => void): this;
    on(event: 'warning' | 'error', listener: (error: Error) => void): this;
    on(event: string, listener: (...args: any[]) => void): this;
  }
}
