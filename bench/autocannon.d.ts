declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request) => Request;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    requests?: Request[];
  }
  interface Result {
    requests: { average: number };
    non2xx: number;
    errors: number;
  }
  type Instance = EventEmitter & PromiseLike<Result>;
  export default function autocannon(options: Options): Instance;
}
