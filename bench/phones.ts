import http from 'node:http';

export type Answer = { status: number } | { failed: string };

/**
 * A phone in the room: one keep-alive connection to the server, one request at a time, as a browser
 * tab holding its connection. What it sends while its last request is still unanswered is the
 * caller's to count (a finger tapping a busy phone), never a second connection or a queue.
 */
export class Phone {
  readonly #agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  readonly #base: URL;
  readonly #token: string;
  busy = false;

  constructor(base: string, token: string) {
    this.#base = new URL(base);
    this.#token = token;
  }

  /** POSTs JSON; the status, or why no answer came (the error's code, or a timeout). */
  post(path: string, body: unknown, timeoutMs: number): Promise<Answer> {
    const payload = Buffer.from(JSON.stringify(body));
    this.busy = true;
    return new Promise<Answer>((resolve) => {
      const request = http.request(
        {
          host: this.#base.hostname,
          port: this.#base.port,
          path,
          method: 'POST',
          agent: this.#agent,
          timeout: timeoutMs,
          headers: {
            'x-session-token': this.#token,
            'content-type': 'application/json',
            'content-length': payload.length,
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
          response.on('error', (error: NodeJS.ErrnoException) => resolve({ failed: error.code ?? error.message }));
        },
      );
      request.on('timeout', () =>
        request.destroy(Object.assign(new Error('timeout'), { code: `no answer in ${timeoutMs / 1000} s` })),
      );
      request.on('error', (error: NodeJS.ErrnoException) => resolve({ failed: error.code ?? error.message }));
      request.end(payload);
    }).finally(() => {
      this.busy = false;
    });
  }

  close() {
    this.#agent.destroy();
  }
}
